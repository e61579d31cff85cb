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

import CallbackDesktop
import CallbackRouter
import CallbackTestSupport
import Testing

/// Callbacks any web page can make the browser open (`myapp:x`, an error without a state, a
/// stateless token planted before the login began) against receivers over the real socket.
@Suite struct HandoffForgeryTests {
    static let state = "st-Z9x8C7v6B5n4M3a2S1d0"

    @Test func aCallbackWithoutTheStateNeverReachesAReceiverThatExpectsOne() async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        for forged in ["myapp:x", "myapp:/callback?error=access_denied", "myapp:/callback?code=forged"] {
            #expect(try await deliverOnThread(forged, environment: sandbox.environment) == .spooled, "\(forged)")
        }
        let url = "myapp:/callback?code=real&state=\(Self.state)"
        #expect(try await deliverOnThread(url, environment: sandbox.environment) == .delivered)
        #expect(try await receiver.nextCallbackURL(timeout: .seconds(5)) == url)
    }

    @Test func twoReceiversKeepWaitingWhenACallbackWithoutStateArrives() async throws {
        let sandbox = Sandbox()
        let first = try HandoffReceiver(scheme: "myapp", state: Self.state + "-1", environment: sandbox.environment)
        let second = try HandoffReceiver(scheme: "myapp", state: Self.state + "-2", environment: sandbox.environment)
        // Formerly a conflict that ended both logins.
        #expect(try await deliverOnThread("myapp:/callback?error=access_denied", environment: sandbox.environment) == .spooled)
        for (index, receiver) in [first, second].enumerated() {
            let url = "myapp:/callback?code=c\(index)&state=\(Self.state)-\(index + 1)"
            #expect(try await deliverOnThread(url, environment: sandbox.environment) == .delivered)
            #expect(try await receiver.nextCallbackURL(timeout: .seconds(5)) == url)
        }
    }

    @Test func aStatelessReceiverNeverTakesACallbackSpooledBeforeItBegan() async throws {
        let sandbox = Sandbox()
        let planted = "myapp://oauth-callback?challenge_token=\(preludeToken("planted"))"
        #expect(try CallbackHandoff.deliver(planted, environment: sandbox.environment) == .spooled)
        let receiver = try HandoffReceiver(scheme: "myapp", state: nil, environment: sandbox.environment)
        do {
            let url = try await receiver.nextCallbackURL(timeout: .milliseconds(800))
            Issue.record("the planted callback was delivered: \(url == planted)")
        } catch {
            #expect(error.reason == .timeout)
        }
        // What is opened while it waits is its own.
        let real = "myapp://oauth-callback?challenge_token=\(preludeToken("real"))"
        #expect(try await deliverOnThread(real, environment: sandbox.environment) == .delivered)
        #expect(try await receiver.nextCallbackURL(timeout: .seconds(5)) == real)
    }

    @Test func aStatelessReceiverGetsThroughTheRouterOnlyWhatCameAfterIt() async throws {
        let sandbox = Sandbox()
        let router = try RouterFixture.router(RouterFixture.prelude(), clock: SystemAttemptClock())
        let planted = "myapp://oauth-callback?challenge_token=" + preludeToken("planted")
        #expect(try CallbackHandoff.deliver(planted, environment: sandbox.environment) == .spooled)
        let attempt = try router.beginLogin(on: "prelude")
        let receiver = try HandoffReceiver(scheme: "myapp", state: nil, environment: sandbox.environment)
        // The receiver queues what reaches its socket from init on: the task need not wait yet.
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(20)) }
        let real = "myapp://oauth-callback?challenge_token=" + preludeToken("real")
        #expect(try await deliverOnThread(real, environment: sandbox.environment) == .delivered)
        let delivery = try await waiting.value
        #expect(delivery.outcome.value("challenge_token") == preludeToken("real"))
    }
}
