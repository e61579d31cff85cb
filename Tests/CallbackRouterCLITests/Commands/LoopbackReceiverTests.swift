//===----------------------------------------------------------------------===//
//
// This source file is part of the CallbackRouter open source project
//
// Copyright (c) 2026 the CallbackRouter project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackLoopback
import CallbackSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// The receiver over real sockets on 127.0.0.1: what ends the wait, what is answered and
/// ignored, and what every answer looks like.
@Suite struct LoopbackReceiverTests {
    static let state = "s3cr3t-State_value.0123456789abcdefghijklmnopq"

    /// Starts a receiver expecting ``state``.
    func start(_ extra: [String] = [], timeout: String = "20") throws -> RunningLoopback {
        try RunningLoopback(["--state", Self.state, "--timeout", timeout] + extra)
    }

    /// A valid callback for the running receiver, with the right state.
    func validTarget(code: String = "the-code-123") -> String { "/callback?code=\(code)&state=\(Self.state)" }

    /// Every answer: no caching, no referrer, no state, no code.
    func expectSafeAnswer(_ response: RawResponse, code: String = "the-code-123", sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        #expect(response.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(!response.text.contains(Self.state), "the answer echoes the state", sourceLocation: sourceLocation)
        #expect(!response.text.contains(code), "the answer echoes the code", sourceLocation: sourceLocation)
        #expect(!response.body.lowercased().contains("<script"), sourceLocation: sourceLocation)
    }

    // MARK: - What ends the wait

    @Test func validCallbackEndsTheWaitWithTwoLines() throws {
        let run = try start()
        let response = try RawClient.get(port: run.port, validTarget())
        #expect(response.statusCode == 200)
        #expect(response.body.contains("received the sign-in response"))
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        expectSafeAnswer(response)
        #expect(run.waitForExit() == ExitCode.success)
        let lines = run.stdoutLines
        #expect(lines.count == 2)
        #expect(lines.first == "{\"redirect_uri\":\"\(run.redirectURI)\"}")
        #expect(lines.last?.hasPrefix("{\"outcome\":\"authorization_code\"") == true)
        #expect(lines.last?.contains("\"code\":\"the-code-123\"") == true)
        #expect(!run.output.stderr.contains(Self.state))
        #expect(!run.output.stderr.contains("the-code-123"))
    }

    @Test func listenerClosesOnceTheWaitEnds() throws {
        let run = try start()
        _ = try RawClient.get(port: run.port, validTarget())
        #expect(run.waitForExit() == ExitCode.success)
        #expect(throws: HarnessError.self) { try RawClient(port: run.port) }
    }

    @Test(arguments: [
        ("wrong state", "/callback?code=attacker&state=wrong"),
        ("missing state", "/callback?code=attacker"),
        ("empty state", "/callback?code=attacker&state="),
        ("state prefix", "/callback?code=attacker&state=s3cr3t-State"),
        ("duplicated state", "/callback?code=attacker&state=\(LoopbackReceiverTests.state)&state=\(LoopbackReceiverTests.state)"),
        ("error without state", "/callback?error=access_denied"),
        ("error with wrong state", "/callback?error=access_denied&state=nope"),
        ("no parameters", "/callback"),
        ("unparseable query", "/callback?code=%zz&state=x"),
    ])
    func requestsWithoutTheRightStateAreAnsweredAndIgnored(_ name: String, _ target: String) throws {
        let run = try start()
        let ignored = try RawClient.get(port: run.port, target)
        #expect(ignored.statusCode == 400, "\(name)")
        #expect(ignored.body.contains("still waiting"), "\(name)")
        expectSafeAnswer(ignored, code: "attacker")
        #expect(run.isRunning, "\(name) ended the wait")

        let accepted = try RawClient.get(port: run.port, validTarget())
        #expect(accepted.statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
        #expect(run.lastLine.contains("\"code\":\"the-code-123\""))
        #expect(run.output.stderr.contains("ignored a callback"))
    }

    @Test func providerErrorWithTheRightStateEndsWithExitOne() throws {
        let run = try start()
        let response = try RawClient.get(port: run.port, "/callback?error=access_denied&error_description=User+said+no&state=\(Self.state)")
        #expect(response.statusCode == 200)
        #expect(response.body.contains("You declined the request"), "the code in words")
        #expect(response.body.contains("<code>access_denied</code>"))
        #expect(response.body.contains("The provider said: <q>User said no</q>"), "bound by the state: the provider's words, escaped")
        expectSafeAnswer(response)
        #expect(run.waitForExit() == ExitCode.providerFailure)
        #expect(run.lastLine.hasPrefix("{\"outcome\":\"authorization_error\""))
    }

    @Test func providerErrorThatIsNotAPlainTokenIsWithheldFromThePage() throws {
        let run = try start()
        let response = try RawClient.get(
            port: run.port, "/callback?error=%3Cb%3Ehi%3C%2Fb%3E&error_description=line%0Abreak%22&state=\(Self.state)")
        #expect(response.statusCode == 200)
        #expect(!response.body.contains("<b>"))
        #expect(!response.body.contains("hi</"))
        #expect(!response.body.contains("break"), "a description that breaks its syntax is withheld")
        #expect(run.waitForExit() == ExitCode.providerFailure)
    }

    @Test func refusedCallbackWithTheRightStateEndsWithExit65() throws {
        let run = try start(["--issuer", "https://issuer.example"])
        let response = try RawClient.get(port: run.port, "/callback?code=c&state=\(Self.state)&iss=https%3A%2F%2Fevil.example")
        #expect(response.statusCode == 400)
        #expect(response.body.contains("could not be accepted"))
        #expect(!response.body.contains("received the sign-in"))
        #expect(run.waitForExit() == ExitCode.rejected)
        #expect(run.lastLine.contains("\"reason\":\"issuer_mismatch\""))
    }

    @Test func withoutStateAnyValidCallbackEndsTheWait() throws {
        let run = try RunningLoopback(["--no-state", "--timeout", "20"])
        let junk = try RawClient.get(port: run.port, "/callback?nothing=here")
        #expect(junk.statusCode == 400)
        #expect(run.isRunning)
        let response = try RawClient.get(port: run.port, "/callback?code=abc")
        #expect(response.statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test func deadlineEndsTheWaitWithExit75() throws {
        let run = try start(timeout: "0.3")
        _ = try RawClient.get(port: run.port, "/callback?code=x&state=wrong")
        #expect(run.waitForExit() == ExitCode.tryAgain)
        #expect(run.lastLine.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"timeout\""))
        #expect(run.lastLine.contains("1 request to the callback path ignored"))
        #expect(run.stdoutLines.count == 2)
    }

    // MARK: - Requests that never consume the login

    @Test(arguments: ["/", "/favicon.ico", "/callback/", "/CALLBACK", "/callbackx", "/callback/..", "/%63allback"])
    func otherPathsGet404AndDoNotEndTheWait(_ path: String) throws {
        let run = try start()
        // The right state, even: the path alone decides.
        let response = try RawClient.get(port: run.port, path + "?code=c&state=\(Self.state)")
        #expect(response.statusCode == 404)
        expectSafeAnswer(response, code: "the-code-123")
        #expect(run.isRunning)
        #expect(try RawClient.get(port: run.port, validTarget()).statusCode == 200, "a wait that had ended would not answer")
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test func headAndOptionsOnTheCallbackPathDoNotConsume() throws {
        let run = try start()
        let head = try RawClient.get(port: run.port, validTarget(), method: "HEAD")
        #expect(head.statusCode == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Cache-Control") == "no-store")
        let options = try RawClient.get(port: run.port, validTarget(), method: "OPTIONS")
        #expect(options.statusCode == 204)
        #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(options.header("Access-Control-Allow-Origin") == nil)
        let star = try RawClient.get(port: run.port, "*", method: "OPTIONS")
        #expect(star.statusCode == 204)
        for method in ["POST", "PUT", "DELETE", "PATCH", "TRACE"] {
            let response = try RawClient.get(port: run.port, validTarget(), method: method)
            #expect(response.statusCode == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
        }
        #expect(run.isRunning)
        let accepted = try RawClient.get(port: run.port, validTarget(code: "second"))
        #expect(accepted.statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
        #expect(run.lastLine.contains("\"code\":\"second\""))
    }

    @Test(arguments: [
        ("localhost", ["Host: localhost:PORT"], 403),
        ("no port", ["Host: 127.0.0.1"], 403),
        ("other loopback", ["Host: 127.0.0.2:PORT"], 403),
        ("rebinding name", ["Host: attacker.example:PORT"], 403),
        ("IPv6 literal", ["Host: [::1]:PORT"], 403),
        ("other port", ["Host: 127.0.0.1:1"], 403),
        ("trailing dot", ["Host: 127.0.0.1.:PORT"], 403),
        ("missing", [], 400),
        ("twice", ["Host: 127.0.0.1:PORT", "Host: 127.0.0.1:PORT"], 400),
    ])
    func foreignHostIsRefused(_ name: String, _ fields: [String], _ status: Int) throws {
        let run = try start()
        let response = try RawClient.get(port: run.port, validTarget(), fields: fields.map { $0.replacingPort(run.port) })
        #expect(response.statusCode == status, "\(name)")
        expectSafeAnswer(response)
        #expect(run.isRunning, "\(name) consumed the login")
        #expect(try RawClient.get(port: run.port, validTarget()).statusCode == 200, "a wait that had ended would not answer")
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test(arguments: ["no-cors", "cors", "same-origin", "websocket", "Navigate-ish"])
    func crossSiteSubresourceIsRefused(_ mode: String) throws {
        let run = try start()
        let response = try RawClient.get(
            port: run.port, validTarget(),
            fields: ["Host: 127.0.0.1:\(run.port)", "Sec-Fetch-Mode: \(mode)", "Sec-Fetch-Site: cross-site"])
        #expect(response.statusCode == 403)
        #expect(run.isRunning)
        let navigation = try RawClient.get(
            port: run.port, validTarget(),
            fields: [
                "Host: 127.0.0.1:\(run.port)", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Site: cross-site",
                "Sec-Fetch-Dest: document",
            ])
        #expect(navigation.statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
    }

    // MARK: - Concurrency and bounds

    @Test func stalledConnectionsDoNotBlockTheCallback() throws {
        let run = try start()
        let silent = try RawClient(port: run.port) // a browser preconnect
        let trickling = try RawClient(port: run.port) // a slow or hostile peer
        trickling.send("GET /callback?code=x")
        defer { silent.close(); trickling.close() }
        let clock = ContinuousClock()
        let started = clock.now
        let response = try RawClient.get(port: run.port, validTarget())
        #expect(response.statusCode == 200)
        #expect(run.waitForExit(seconds: 5) == ExitCode.success)
        #expect(clock.now - started < .seconds(3))
    }

    @Test func aFloodOfIdleConnectionsCannotLockOutTheCallback() throws {
        let run = try start()
        var idle: [RawClient] = []
        defer { for connection in idle { connection.close() } }
        // Accepted in the order they connected: the server holds all 100 when the callback comes.
        for _ in 0 ..< 100 { idle.append(try RawClient(port: run.port)) }
        let response = try RawClient.get(port: run.port, validTarget())
        #expect(response.statusCode == 200)
        #expect(run.waitForExit(seconds: 5) == ExitCode.success)
    }

    @Test func stalledConnectionsAreClosedWhenTheWaitEnds() throws {
        let run = try start(timeout: "0.5")
        let stalled = try RawClient(port: run.port)
        defer { stalled.close() }
        stalled.send("GET /callback")
        #expect(run.waitForExit(seconds: 5) == ExitCode.tryAgain)
        let rest = stalled.readAll()
        #expect(rest.text.isEmpty)
    }

    @Test func oversizedRequestsAreRefused() throws {
        let run = try start()
        let longTarget = "/callback?code=" + String(repeating: "a", count: 17 * 1024) + "&state=\(Self.state)"
        let tooLong = try RawClient.get(port: run.port, longTarget)
        #expect(tooLong.statusCode == 414)
        let bigField = "X-Filler: " + String(repeating: "b", count: 17 * 1024)
        let tooLarge = try RawClient.get(port: run.port, validTarget(), fields: ["Host: 127.0.0.1:\(run.port)", bigField])
        #expect(tooLarge.statusCode == 431)
        let manyFields = (0 ..< 101).map { "X-F\($0): 1" }
        let tooMany = try RawClient.get(port: run.port, validTarget(), fields: ["Host: 127.0.0.1:\(run.port)"] + manyFields)
        #expect(tooMany.statusCode == 431)
        let body = try RawClient.get(port: run.port, validTarget(), fields: ["Host: 127.0.0.1:\(run.port)", "Content-Length: 5"])
        #expect(body.statusCode == 413)
        #expect(run.isRunning)
        #expect(try RawClient.get(port: run.port, validTarget()).statusCode == 200, "a wait that had ended would not answer")
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test(arguments: [
        ("bare LF", "GET /callback HTTP/1.1\nHost: 127.0.0.1:PORT\n\n", 400),
        ("junk", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n", 400),
        ("no version", "GET /callback\r\nHost: 127.0.0.1:PORT\r\n\r\n", 400),
        ("two spaces", "GET  /callback HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n", 400),
        ("absolute form", "GET http://127.0.0.1:PORT/callback HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n", 400),
        ("HTTP/2", "GET /callback HTTP/2.0\r\nHost: 127.0.0.1:PORT\r\n\r\n", 505),
        ("obs-fold", "GET /callback HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-A: 1\r\n  2\r\n\r\n", 400),
        ("space before colon", "GET /callback HTTP/1.1\r\nHost : 127.0.0.1:PORT\r\n\r\n", 400),
        ("control in value", "GET /callback HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-A: a\u{01}b\r\n\r\n", 400),
        ("chunked", "GET /callback HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        ("TLS client hello", "\u{16}\u{03}\u{01}\u{00}\u{a5}\u{01}\u{00}\u{00}\u{a1}\u{03}\u{03}\n", 400),
    ])
    func malformedRequestsAreRefusedAndIgnored(_ name: String, _ request: String, _ status: Int) throws {
        let run = try start()
        let response = try RawClient.exchange(port: run.port, request.replacingPort(run.port))
        #expect(response.statusCode == status, "\(name): \(response.head)")
        #expect(run.isRunning)
        #expect(try RawClient.get(port: run.port, validTarget()).statusCode == 200, "a wait that had ended would not answer")
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test func requestSentOneByteAtATimeIsServed() throws {
        let run = try start()
        let client = try RawClient(port: run.port)
        defer { client.close() }
        for byte in Array("GET \(validTarget()) HTTP/1.1\r\nHost: 127.0.0.1:\(run.port)\r\n\r\n".utf8) {
            client.send([byte])
        }
        #expect(client.readAll().statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test func onlyTheFirstOfTwoValidCallbacksIsToldItSucceeded() throws {
        let run = try start()
        let first = try RawClient(port: run.port)
        let second = try RawClient(port: run.port)
        defer { first.close(); second.close() }
        let request = "GET \(validTarget()) HTTP/1.1\r\nHost: 127.0.0.1:\(run.port)\r\n\r\n"
        first.send(request)
        second.send(request)
        let answers = [first.readAll().statusCode, second.readAll().statusCode]
        #expect(answers.filter { $0 == 200 }.count == 1)
        #expect(run.waitForExit() == ExitCode.success)
    }

    // MARK: - Where it listens

    @Test func redirectURINamesTheBoundIPv4LiteralAndPath() throws {
        let run = try start(["--path", "/oauth2/cb"])
        #expect(run.redirectURI == "http://127.0.0.1:\(run.port)/oauth2/cb")
        #expect(try RawClient.get(port: run.port, validTarget()).statusCode == 404)
        #expect(try RawClient.get(port: run.port, "/oauth2/cb?code=c&state=\(Self.state)").statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test(.enabled(if: LoopbackReceiverTests.ipv6LoopbackAvailable()))
    func ipv6BindsTheIPv6Literal() throws {
        let run = try start(["--ipv6"])
        #expect(run.redirectURI == "http://[::1]:\(run.port)/callback")
        #expect(throws: HarnessError.self) { try RawClient(port: run.port) } // nothing on 127.0.0.1
        let wrongHost = try RawClient.exchange(
            port: run.port, "GET \(validTarget()) HTTP/1.1\r\nHost: 127.0.0.1:\(run.port)\r\n\r\n", ipv6: true)
        #expect(wrongHost.statusCode == 403)
        let response = try RawClient.exchange(
            port: run.port, "GET \(validTarget()) HTTP/1.1\r\nHost: [::1]:\(run.port)\r\n\r\n", ipv6: true)
        #expect(response.statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
    }

    @Test func fixedPortCanBeReusedRightAfterAFinishedLogin() throws {
        let first = try start()
        let port = first.port
        _ = try RawClient.get(port: port, validTarget())
        #expect(first.waitForExit() == ExitCode.success)
        // Our side closed that connection, so it sits in TIME_WAIT: binding again needs
        // SO_REUSEADDR, which the receiver sets for a fixed port.
        let second = try start(["--port", String(port)])
        #expect(second.port == port)
        _ = try RawClient.get(port: port, validTarget())
        #expect(second.waitForExit() == ExitCode.success)
    }

    @Test func aPortInUseExits75() throws {
        let holder = try start()
        defer { _ = try? RawClient.get(port: holder.port, validTarget()); _ = holder.waitForExit() }
        let output = CapturedOutput()
        let code = CallbackRouterTool.run(
            ["loopback", "--state", "x", "--port", String(holder.port)],
            context: CommandContext(output: output, environment: [:], executablePath: "/x"))
        #expect(code == ExitCode.tryAgain)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("Address already in use"))
    }

    @Test func redirectURIFileIsWrittenBeforeTheFirstLine() throws {
        var template = Array("/tmp/loopback-test-XXXXXX".utf8CString)
        guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp")
        }
        let path = String(cString: directory) + "/redirect-uri"
        defer { unlink(path); rmdir(directory) }
        let run = try start(["--redirect-uri-file", path])
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &buffer, buffer.count)
        close(fd)
        #expect(String(decoding: buffer[..<max(count, 0)], as: UTF8.self) == run.redirectURI + "\n")
        _ = try RawClient.get(port: run.port, validTarget())
        #expect(run.waitForExit() == ExitCode.success)
    }

    static func ipv6LoopbackAvailable() -> Bool {
        guard let (descriptor, _) = try? LoopbackTCP.listen(ipv6: true, port: 0) else { return false }
        descriptor.close()
        return true
    }
}

extension String {
    func replacingPort(_ port: Int) -> String {
        split(separator: "PORT", omittingEmptySubsequences: false).joined(separator: String(port))
    }
}
