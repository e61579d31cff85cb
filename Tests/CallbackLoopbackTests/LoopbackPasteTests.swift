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
import CallbackTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Pasted callback URLs (remote and SSH sessions): judged exactly as a request.
@Suite struct LoopbackPasteTests {
    static let state = "st-paste-0123456789abcdef"

    /// A pipe standing in for the terminal: (read end for the receiver, write end for the user).
    static func terminal() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        return (ends[0], ends[1])
    }

    static func type(_ text: String, into fd: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    @Test func aPastedCallbackEndsTheWaitAndClosesTheSocket() async throws {
        let tty = Self.terminal()
        defer { close(tty.read); close(tty.write) }
        let receiver = try LoopbackReceiver(.init(pasteDescriptor: tty.read))
        Self.type("  \r\n", into: tty.write)
        Self.type("not a url\n", into: tty.write)
        Self.type("http://127.0.0.1:\(receiver.port)/callback?code=c&state=other\n", into: tty.write)
        Self.type("http://127.0.0.1:\(receiver.port)/callback?code=pc0de42x&state=\(Self.state)\r\n", into: tty.write)
        Self.type("http://127.0.0.1:\(receiver.port)/callback?code=second&state=\(Self.state)\n", into: tty.write)
        let lines = Locked<[String]>([])
        let outcome = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20)) { line in
            lines.withLock { $0.append(line) }
        }
        #expect(outcome.value("code") == "pc0de42x", "the first valid one wins")
        #expect(!isListening(port: receiver.port), "the login is consumed: the port is closed")
        let log = lines.withLock { $0 }.joined(separator: "\n")
        #expect(log.contains("state_mismatch"))
        #expect(!log.contains(Self.state) && !log.contains("pc0de42x"), "no secret in the log")
    }

    @Test func aPasteForAnotherPathOrHostIsIgnored() throws {
        let tty = Self.terminal()
        defer { close(tty.read); close(tty.write) }
        let receiver = try LoopbackReceiver(.init(pasteDescriptor: tty.read))
        Self.type("http://127.0.0.1:\(receiver.port)/other?code=c&state=\(Self.state)\n", into: tty.write)
        Self.type("https://evil.example/callback?code=c&state=\(Self.state)\n", into: tty.write)
        let result = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(400)))
        // Like a request for another path (404): ignored, never final, even with the right state.
        guard case .timedOut(let ignored) = result else {
            Issue.record("a URL of another place ended the wait: \(result)")
            return
        }
        #expect(ignored == 2)
    }

    @Test func anHTTPCallbackAfterAPasteIsTooLate() async throws {
        let tty = Self.terminal()
        defer { close(tty.read); close(tty.write) }
        let receiver = try LoopbackReceiver(.init(pasteDescriptor: tty.read))
        let http = try sendRequest(port: receiver.port, "/callback?code=http&state=\(Self.state)")
        let outcome = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        Self.type("http://127.0.0.1:\(receiver.port)/callback?code=pasted&state=\(Self.state)\n", into: tty.write)
        #expect(outcome.value("code") == "http", "the request came first; the later paste is never read")
        #expect(http.readAll().statusCode == 200)
    }

    @Test func pastingGoesThroughTheRouter() async throws {
        let router = try RouterFixture.router(
            RouterFixture.oauth2("cli", redirect: "http://127.0.0.1/callback"), clock: SystemAttemptClock())
        let tty = Self.terminal()
        defer { close(tty.read); close(tty.write) }
        let receiver = try LoopbackReceiver(.init(pasteDescriptor: tty.read))
        let attempt = try router.beginLogin(on: "cli")
        Self.type("http://127.0.0.1:\(receiver.port)/callback?code=routed&state=\(attempt.state)\n", into: tty.write)
        let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(20))
        #expect(delivery.outcome.value("code") == "routed")
    }
}
