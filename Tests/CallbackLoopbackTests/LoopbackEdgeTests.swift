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

@testable import CallbackLoopback
import CallbackRouter
import CallbackSystem
import CallbackTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The receiver where a login meets the other processes of the machine: the
/// one-time start link, other users' connections, floods of held connections, refused
/// callbacks that carry the state, and timeouts of any size. Real sockets throughout.
@Suite struct LoopbackEdgeTests {
    static let state = "st-edge-4kT9qWzR2mXo7LpA0sBv"

    // MARK: The start link (point 1)

    @Test func startURLRevealsTheAuthorizationURLOnceOnAnUnguessablePath() async throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        let prefix = "http://127.0.0.1:\(port)/start/"
        #expect(receiver.startURL.hasPrefix(prefix))
        let token = String(receiver.startURL.dropFirst(prefix.count))
        #expect(token.utf8.count >= 22, "at least 128 bits in base64url")
        #expect((Base64URL.decode(token)?.count ?? 0) * 8 >= 128, "canonical base64url of at least 128 random bits")
        #expect(try LoopbackReceiver().startURL != receiver.startURL, "each receiver draws its own")
        let authorization = "https://id.example/authorize?client_id=a&state=s-secret&code_challenge=ch"
        try receiver.setAuthorizationURL(authorization)
        let waiting = Task { try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(20)) }

        for probe in ["/", "/start", "/start/", "/start/" + String(token.dropLast()), "/start/\(token)x", "/\(token)"] {
            let answer = try await patientFetch(port: port, probe)
            #expect(answer.statusCode == 404, "\(probe)")
            #expect(!answer.text.contains("s-secret") && !answer.text.contains("id.example"), "\(probe) reveals nothing")
        }
        let head = try await patientFetch(port: port, "/start/\(token)", method: "HEAD")
        #expect(head.statusCode == 200)
        #expect(head.header("location") == nil && !head.text.contains("s-secret"), "HEAD reveals nothing")
        let first = try await patientFetch(port: port, "/start/\(token)")
        #expect(first.statusCode == 302, "HEAD did not use it up")
        #expect(first.header("location") == authorization)
        let second = try await patientFetch(port: port, "/start/\(token)")
        #expect(second.statusCode == 410)
        #expect(second.body.contains("already used"))
        #expect(!second.text.contains("s-secret") && !second.text.contains("id.example"), "a second visit learns nothing")

        _ = try await patientFetch(port: port, "/callback?code=c&state=\(Self.state)")
        #expect(try await waiting.value.value("code") == "c")
    }

    // MARK: Other users (point 2)

    #if os(Linux)
    /// The test cannot switch users: it makes the receiver answer only another uid, so that
    /// its own connections are "another user's" (Tests/EndToEnd/loopback.sh does it with a
    /// real second uid).
    @Test func anotherUsersConnectionGets403BeforeItsRequestAndNeverEndsTheWait() throws {
        var configuration = LoopbackReceiver.Configuration()
        configuration.acceptedUser = geteuid() &+ 1
        let receiver = try LoopbackReceiver(configuration)
        let silent = try RawClient(port: receiver.port)
        let rightState = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        var lines: [String] = []
        let result = try receiver.receive(
            expecting: .init(dialect: .oauth2, state: Self.state), until: .now.advanced(by: .milliseconds(1500))
        ) { lines.append($0) }
        guard case .timedOut(let ignored) = result else {
            Issue.record("another user's callback ended the wait: \(result)")
            return
        }
        #expect(ignored == 0, "refused before validation")
        let unasked = silent.readAll()
        #expect(unasked.statusCode == 403, "written before any request was read")
        #expect(unasked.body.contains("another user"))
        #expect(rightState.readAll().statusCode == 403)
        #expect(lines.contains { $0.contains("answered 403 to a connection from user id \(geteuid())") })
        silent.close()
        rightState.close()
    }

    @Test func theUsersOwnConnectionsAreAnsweredOverIPv4IPv6AndMappedSockets() async throws {
        let v4 = try LoopbackReceiver()
        // An IPv6 socket connecting to ::ffff:127.0.0.1: the peer's row is in tcp6, mapped.
        let mapped = try RawClient(port: v4.port, ipv6Literal: "::ffff:127.0.0.1")
        mapped.send("GET /callback?code=m&state=\(Self.state) HTTP/1.1\r\nHost: 127.0.0.1:\(v4.port)\r\n\r\n")
        #expect(try await v4.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(20)).value("code") == "m")
        #expect(mapped.readAll().statusCode == 200)
        mapped.close()

        guard let v6 = try? LoopbackReceiver(.init(host: .ipv6)) else { return } // no IPv6 here
        let client = try RawClient(port: v6.port, ipv6: true)
        client.send("GET /callback?code=six&state=\(Self.state) HTTP/1.1\r\nHost: [::1]:\(v6.port)\r\n\r\n")
        #expect(try await v6.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(20)).value("code") == "six")
        #expect(client.readAll().statusCode == 200)
        client.close()
    }
    #endif

    // MARK: Refused callbacks with the state (point 6)

    static let refusedWithTheState: [String] = [
        "code=%FF&state=\(state)",
        (1 ... 64).map { "p\($0)=v" }.joined(separator: "&") + "&state=\(state)",
        "code=%C0%AF&state=\(state)",
    ]

    @Test(arguments: refusedWithTheState)
    func aRefusedCallbackCarryingTheStateEndsTheWait(query: String) throws {
        let receiver = try LoopbackReceiver()
        let page = try sendRequest(port: receiver.port, "/callback?\(query)")
        let result = try receiver.receive(expecting: .init(dialect: .oauth2, state: Self.state), until: .now.advanced(by: .seconds(10)))
        guard case .callback(.failure(let error)) = result else {
            Issue.record("the refusal did not end the wait: \(result)")
            return
        }
        #expect(error.reason != .timeout)
        #expect(page.readAll().statusCode == 400)
    }

    @Test func aRefusedCallbackWithAnotherStateStillDoesNot() throws {
        let receiver = try LoopbackReceiver()
        let other = try sendRequest(port: receiver.port, "/callback?code=%FF&state=not-\(Self.state)")
        let twice = try sendRequest(port: receiver.port, "/callback?code=%FF&state=\(Self.state)&state=\(Self.state)")
        let result = try receiver.receive(
            expecting: .init(dialect: .oauth2, state: Self.state), until: .now.advanced(by: .milliseconds(800)))
        guard case .timedOut(let ignored) = result else {
            Issue.record("a callback not tied to the login ended the wait: \(result)")
            return
        }
        #expect(ignored == 2)
        other.close()
        twice.close()
    }

    // MARK: Timeouts of any size (point 7)

    @Test func aTimeoutOfInt64MaxSecondsMeansForeverAndDoesNotTrap() async throws {
        let receiver = try LoopbackReceiver()
        let waiting = Task {
            try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(Int64.max))
        }
        let page = try await patientFetch(port: receiver.port, "/callback?code=late&state=\(Self.state)")
        // A callback that did not get through must not leave the test waiting forever.
        if page.statusCode != 200 { receiver.close() }
        #expect(page.statusCode == 200)
        #expect(try await waiting.value.value("code") == "late")

        let router = try LoopbackRouterTests.makeRouter()
        let routed = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let delivery = Task { try await routed.callback(for: attempt, router: router, timeout: .seconds(Int64.max)) }
        let routedPage = try await patientFetch(port: routed.port, "/callback?code=routed&state=\(attempt.state)")
        if routedPage.statusCode != 200 { router.cancel(attempt) }
        #expect(routedPage.statusCode == 200)
        #expect(try await delivery.value.outcome.value("code") == "routed")
    }

    @Test(arguments: [Duration.zero, .seconds(-1), .seconds(Int64.min), .nanoseconds(-1)])
    func aTimeoutOfZeroOrLessTimesOutAtOnce(timeout: Duration) async throws {
        let receiver = try LoopbackReceiver()
        await expectReason(.timeout) {
            try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: timeout)
        }
        let router = try LoopbackRouterTests.makeRouter()
        let routed = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        // No clock is asserted: the test pool is shared with blocking suites. A wait that
        // read the timeout as a long one would not end at all.
        await expectReason(.timeout) { try await routed.callback(for: attempt, router: router, timeout: timeout) }
    }

    @Test(arguments: [(Duration.zero, Duration.seconds(1)), (.seconds(-1), .seconds(1)), (.seconds(10), .seconds(-1))])
    func aConnectionOrLingerTimeoutThatCannotBeIsRefused(connection: Duration, linger: Duration) {
        do {
            _ = try LoopbackReceiver(.init(connectionTimeout: connection, lingerTimeout: linger))
            Issue.record("accepted \(connection), \(linger)")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    // MARK: Junk (point 8)

    @Test(arguments: [
        [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] as [UInt8], // a TLS ClientHello's start
        Array("\u{0}\u{1}junk".utf8),
        Array("GET /callback\u{7F} HTTP/1.1".utf8),
    ])
    func bytesThatAreNoRequestLineAreAnswered400AtOnce(bytes: [UInt8]) throws {
        let receiver = try LoopbackReceiver()
        let client = try RawClient(port: receiver.port)
        client.send(bytes)
        let result = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(600)))
        guard case .timedOut = result else {
            Issue.record("junk ended the wait: \(result)")
            return
        }
        // Answered within the wait (600 ms), not after the 10 s connection timeout.
        #expect(client.readAll().statusCode == 400)
        client.close()
    }
}

/// Floods of held connections (point 5), one at a time: each holds hundreds of sockets.
@Suite(.serialized) struct LoopbackHeldConnectionTests {
    static let state = LoopbackEdgeTests.state

    /// A peer that sends requests and keeps every answered socket open (64 a second locked
    /// the browser out: answered connections counted towards the cap, and the new one was
    /// the one closed).
    @Test(arguments: [64, 500])
    func theCallbackGetsThroughAnsweredConnectionsHeldOpen(count: Int) async throws {
        // Answered connections linger while their peer holds them (up to this): all of them
        // are still open when the callback comes.
        let receiver = try LoopbackReceiver(.init(lingerTimeout: .seconds(30)))
        let port = receiver.port
        let waiting = Task { try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(60)) }
        let held = try await openConnections(
            port: port, count: count, request: "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        defer { for fd in held { _ = systemClose(fd) } }
        let genuine = try await patientFetch(port: port, "/callback?code=through&state=\(Self.state)")
        #expect(genuine.statusCode == 200)
        #expect(try await waiting.value.value("code") == "through")
    }

    /// Connections that never speak: the newest (the browser's) is never the one closed.
    @Test(arguments: [64, 500])
    func theCallbackGetsThroughIdleConnectionsHeldOpen(count: Int) async throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        let waiting = Task { try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(60)) }
        let held = try await openConnections(port: port, count: count, request: nil)
        defer { for fd in held { _ = systemClose(fd) } }
        let genuine = try await patientFetch(port: port, "/callback?code=idle&state=\(Self.state)")
        #expect(genuine.statusCode == 200)
        #expect(try await waiting.value.value("code") == "idle")
    }
}

// MARK: - Helpers

/// `METHOD target` on a thread of its own, waiting up to 30 s for the answer (the full test
/// run loads a machine that other builds share: 5 s is not always enough).
private func patientFetch(port: Int, _ target: String, method: String = "GET") async throws -> RawResponse {
    let text: String? = await withCheckedContinuation { continuation in
        let started = DetachedThread.start {
            guard let client = try? RawClient(port: port) else { return continuation.resume(returning: nil) }
            defer { client.close() }
            var timeout = timeval(tv_sec: 120, tv_usec: 0) // the pool may be starved by blocking tests for a while on 2 cores
            setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            client.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            continuation.resume(returning: client.readAll().text)
        }
        if !started { continuation.resume(returning: nil) }
    }
    guard let text else { throw HarnessError("the request could not be sent") }
    return RawResponse(text: text)
}

/// `count` connections to 127.0.0.1:`port`, each sending `request` and reading its answer
/// (nil: sending nothing), opened on a thread of their own and left open; their descriptors.
private func openConnections(port: Int, count: Int, request: String?) async throws -> [Int32] {
    let result: Result<[Int32], HarnessError> = await withCheckedContinuation { continuation in
        let started = DetachedThread.start {
            var fds: [Int32] = []
            for _ in 0 ..< count {
                guard let client = try? RawClient(port: port) else {
                    for fd in fds { _ = systemClose(fd) }
                    continuation.resume(returning: .failure(HarnessError("connection \(fds.count + 1) of \(count) failed")))
                    return
                }
                if let request {
                    // Read the answer (the receiver half-closes after it) and keep the socket
                    // open: every one of them is answered and lingering before the callback.
                    client.send(request)
                    _ = client.readAll()
                }
                fds.append(client.fd)
            }
            continuation.resume(returning: .success(fds))
        }
        if !started { continuation.resume(returning: .failure(HarnessError("no thread"))) }
    }
    return try result.get()
}
