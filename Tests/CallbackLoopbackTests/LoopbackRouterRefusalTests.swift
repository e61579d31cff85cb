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

@_spi(Testing) import CallbackRouter
import CallbackTestSupport
import Testing

@testable import CallbackLoopback

/// Through a router: a callback that carries the attempt's state but that the
/// router refuses before it reaches the attempt (its syntax) ends the wait with that refusal,
/// as it does without a router; one with another state still does not.
@Suite struct LoopbackRouterRefusalTests {
    static func makeRouter() throws -> CallbackRouter {
        try RouterFixture.router(RouterFixture.oauth2("desktop", redirect: "http://127.0.0.1/callback"), clock: SystemAttemptClock())
    }

    @Test(arguments: ["code=%FF&state=", "code=%C0%AF&state="])
    func aRefusedCallbackWithTheAttemptsStateEndsTheWait(query: String) async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(60)) }
        while !router.isWaiting(for: attempt) { try await Task.sleep(for: .milliseconds(5)) }
        let target = "/callback?" + query + attempt.state
        let page = try RawClient.get(port: receiver.port, target)
        #expect(page.statusCode == 400)
        do {
            _ = try await waiting.value
            Issue.record("a refused callback was delivered")
        } catch let error as CallbackError {
            #expect(error.reason == .invalidPercentEncoding || error.reason == .invalidUTF8, "\(error)")
        }
        #expect(router.pendingCount == 0)
    }

    @Test func aRefusedCallbackWithAnotherStateLeavesTheWait() async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(60)) }
        while !router.isWaiting(for: attempt) { try await Task.sleep(for: .milliseconds(5)) }
        _ = try RawClient.get(port: receiver.port, "/callback?code=%FF&state=not-\(attempt.state)")
        #expect(router.pendingCount == 1, "a callback without the attempt's state ended it")
        _ = try RawClient.get(port: receiver.port, "/callback?code=c&state=\(attempt.state)")
        #expect(try await waiting.value.outcome.value("code") == "c")
    }
}
