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
import CallbackRouter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// `callback-router login ARGS` on a thread of its own, as the binary runs it.
final class RunningLogin: Sendable {
    let output = CapturedOutput()
    private let exitCode = Locked<Int32?>(nil)
    let port: Int

    /// `standardOutput`: stdout on that descriptor (LostOutputTests), stderr still captured.
    init(_ arguments: [String], environment: [String: String] = [:], standardInput: Int32 = 0, standardOutput: Int32? = nil) throws {
        let output = output
        let exitCode = exitCode
        let writer: any CommandOutput = standardOutput.map { RealStandardOutput($0, capturing: output) } ?? output
        _ = try startThread {
            let code = CallbackRouterTool.run(
                ["login"] + arguments,
                context: CommandContext(
                    output: writer, environment: environment, executablePath: "/nonexistent", standardInput: standardInput))
            exitCode.withLock { $0 = code }
        }
        var port = 0
        for _ in 0 ..< 1000 {
            if let range = output.stderr.firstRange(of: "waiting for the callback on http://127.0.0.1:") {
                port = Int(output.stderr[range.upperBound...].prefix { $0.isNumber }) ?? 0
                break
            }
            if exitCode.withLock({ $0 }) != nil { break }
            usleep(10_000)
        }
        guard port > 0 else { throw HarnessError("no port on stderr: \(output.stderr)") }
        self.port = port
    }

    func waitForExit(seconds: Double = 10) -> Int32? {
        for _ in 0 ..< Int(seconds * 100) {
            if let code = exitCode.withLock({ $0 }) { return code }
            usleep(10_000)
        }
        return nil
    }
}

@Suite struct LoginCommandTests {
    static let common = ["--endpoint", "https://id.example/authorize", "--client-id", "app", "--no-browser", "--timeout", "20"]

    /// The browser's part: follow the start URL (`--no-browser` shows it on stderr) to the
    /// authorization URL, read its state.
    static func authorizationURL(_ login: RunningLogin) throws -> CallbackURL {
        let port = login.port
        let prefix = "http://127.0.0.1:\(port)/start/"
        guard let range = login.output.stderr.firstRange(of: prefix) else { throw HarnessError("no start URL: \(login.output.stderr)") }
        let token = login.output.stderr[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        let start = try RawClient.get(port: port, "/start/" + token)
        #expect(start.statusCode == 302)
        guard let location = start.header("location") else { throw HarnessError("no Location: \(start.text)") }
        return try CallbackURL(parsing: location)
    }

    @Test func logsInAndPrintsWhatTheTokenRequestNeeds() throws {
        let login = try RunningLogin(Self.common + ["--scope", "openid profile"])
        let request = try Self.authorizationURL(login)
        #expect(request.host?.text == "id.example")
        let state = try #require(try request.queryParameters.value(named: "state"))
        let redirect = try #require(try request.queryParameters.value(named: "redirect_uri"))
        #expect(redirect == "http://127.0.0.1:\(login.port)/callback")
        #expect(try request.queryParameters.value(named: "code_challenge_method") == "S256")
        let page = try RawClient.get(port: login.port, "/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=\(state)")
        #expect(page.statusCode == 200)
        #expect(login.waitForExit() == 0)
        let out = login.output.stdout
        #expect(out.hasPrefix("{\"outcome\":\"authorization_code\""))
        #expect(out.contains("\"code\":\"SplxlOBeZQQYbYS6WxSbIA\""))
        #expect(out.contains("\"redirect_uri\":\"http://127.0.0.1:\(login.port)/callback\""))
        #expect(out.contains("\"code_verifier\":\""))
        #expect(out.split(separator: "\n").count == 1, "one JSON object")
        let err = login.output.stderr
        #expect(!err.contains(state) && !err.contains("SplxlOBeZQQYbYS6WxSbIA"), "nothing secret on stderr")
        #expect(err.contains("http://127.0.0.1:\(login.port)/"), "the short start URL is shown")
        // The verifier matches the challenge that was sent.
        let verifier = String(out[out.firstRange(of: "\"code_verifier\":\"")!.upperBound...].prefix { $0 != "\"" })
        #expect(!err.contains(verifier))
        #expect(try PKCE(verifier: verifier).challenge == request.queryParameters.value(named: "code_challenge"))
    }

    @Test func aProviderErrorExitsOne() throws {
        let login = try RunningLogin(Self.common)
        let state = try #require(try Self.authorizationURL(login).queryParameters.value(named: "state"))
        _ = try RawClient.get(port: login.port, "/callback?error=access_denied&state=\(state)")
        #expect(login.waitForExit() == 1)
        #expect(login.output.stdout.contains("\"outcome\":\"authorization_error\""))
    }

    @Test func formPostAsksForItAndReceivesIt() throws {
        let login = try RunningLogin(Self.common + ["--response-mode", "form_post"])
        let request = try Self.authorizationURL(login)
        #expect(try request.queryParameters.value(named: "response_mode") == "form_post")
        let state = try #require(try request.queryParameters.value(named: "state"))
        let body = "code=posted&state=\(state)"
        let response = try RawClient.exchange(
            port: login.port,
            "POST /callback HTTP/1.1\r\nHost: 127.0.0.1:\(login.port)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        #expect(response.statusCode == 200)
        #expect(login.waitForExit() == 0)
        #expect(login.output.stdout.contains("\"code\":\"posted\""))
    }

    @Test(arguments: [
        ["--client-id", "app"],
        ["--endpoint", "https://id.example/authorize"],
        ["--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp", "--port", "8000"],
        ["--endpoint", "https://id.example/authorize", "--client-id", "app", "--redirect-uri", "myapp:/cb"],
        ["--endpoint", "https://id.example/authorize", "--client-id", "app", "--require-issuer"],
    ])
    func refusesBadUsage(_ arguments: [String]) {
        let (exit, _, err) = runTool(["login"] + arguments, environment: [:])
        #expect(exit == 64)
        #expect(!err.isEmpty)
    }

    @Test func isRegisteredAsACommand() {
        #expect(CallbackRouterTool.commandWords.contains("login"))
        let (exit, out, _) = runTool(["login", "--help"], environment: [:])
        #expect(exit == 0)
        #expect(out.contains("USAGE: callback-router login"))
    }
}
