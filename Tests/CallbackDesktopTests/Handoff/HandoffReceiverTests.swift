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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackDesktop
import CallbackRouter
import CallbackSystem
import CallbackTestSupport
import Testing

@Suite struct HandoffReceiverTests {
    static let state = "st-Q1w2E3r4T5y6U7i8O9p0"

    @Test func receivesTheURLDeliveredForItsState() async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        let url = "myapp:/callback?code=c1&state=\(Self.state)"
        let waiting = Task { try await receiver.nextCallbackURL(timeout: .seconds(20)) }
        let environment = sandbox.environment
        let delivery = try await deliverOnThread(url, environment: environment)
        #expect(delivery == .delivered)
        #expect(try await waiting.value == url)
    }

    /// `.seconds(Int64.max)` is how a caller writes "forever": no trap in `Task.sleep`, no
    /// overflow of `timeout + 5 s`; the wait goes on until the URL.
    @Test(arguments: [Duration.seconds(Int64.max), .nanoseconds(Int64.max)])
    func aForeverTimeoutWaitsWithoutTrapping(_ timeout: Duration) async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        let url = "myapp:/callback?code=c1&state=\(Self.state)"
        let waiting = Task { try await receiver.nextCallbackURL(timeout: timeout) }
        let environment = sandbox.environment
        #expect(try await deliverOnThread(url, environment: environment) == .delivered)
        #expect(try await waiting.value == url)
    }

    @Test func takesAURLSpooledBeforeItWasMade() async throws {
        let sandbox = Sandbox()
        let url = "myapp:/callback?code=c1&state=\(Self.state)"
        #expect(try CallbackHandoff.deliver(url, environment: sandbox.environment) == .spooled)
        #expect(throws: DesktopError.self) {
            try CallbackHandoff.deliver("myapp:/x?state=1", environment: sandbox.environment, spool: false)
        }
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        #expect(try await receiver.nextCallbackURL(timeout: .seconds(5)) == url)
    }

    @Test func aURLForAnotherStateNeverArrives() async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        let waiting = Task { try await receiver.nextCallbackURL(timeout: .seconds(2)) }
        let environment = sandbox.environment
        let delivery = try await deliverOnThread("myapp:/callback?code=c&state=other", environment: environment)
        #expect(delivery == .spooled, "the waiting receiver said 'not mine'")
        do {
            _ = try await waiting.value
            Issue.record("received another login's callback")
        } catch let error as CallbackError {
            #expect(error.reason == .timeout)
        }
    }

    /// Polls (bounded) until no receiver's socket is left: the receiver's thread removes its
    /// socket within one 100 ms slice of `close()`.
    func awaitNoSockets(_ sandbox: Sandbox) async -> Bool {
        for _ in 0 ..< 300 {
            if sandbox.listenerSockets() == 0 { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func taskCancellationEndsTheWaitAndCloseRemovesTheSocket() async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        #expect(sandbox.listenerSockets() == 1)
        let waiting = Task { try await receiver.nextCallbackURL(timeout: .seconds(60)) }
        waiting.cancel()
        do {
            _ = try await waiting.value
            Issue.record("the wait did not end")
        } catch let error as CallbackError {
            #expect(error.reason == .cancelled)
        }
        #expect(sandbox.listenerSockets() == 1, "a cancelled wait leaves the receiver open for the next one")
        receiver.close()
        #expect(await awaitNoSockets(sandbox))
    }

    @Test func answersOpenBeforeAnyTaskWaits() async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        let url = "myapp:/callback?code=c1&state=\(Self.state)"
        #expect(try await deliverOnThread(url, environment: sandbox.environment) == .delivered)
        #expect(try await receiver.nextCallbackURL(timeout: .seconds(5)) == url)
    }

    @Test func deliversThroughTheRouterExactlyOnce() async throws {
        let sandbox = Sandbox()
        let router = try RouterFixture.router(RouterFixture.oauth2("desktop", redirect: "myapp:/callback"), clock: SystemAttemptClock())
        let attempt = try router.beginLogin(on: "desktop")
        let receiver = try HandoffReceiver(scheme: "myapp", state: attempt.state, environment: sandbox.environment)
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(20)) }
        let url = "myapp:/callback?code=c9&state=\(attempt.state)"
        let environment = sandbox.environment
        #expect(try await deliverOnThread(url, environment: environment) == .delivered)
        let delivery = try await waiting.value
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.value("code") == "c9")
        #expect(throws: CallbackError.self) { try router.handle(url) }
        #expect(await awaitNoSockets(sandbox), "the router's delivery closed the receiver")
    }

    /// A second wait on a used receiver does not say `cancelled`: it says the receiver is
    /// single-use, at once, whether through the router or for the next URL.
    @Test func aSecondWaitSaysTheReceiverIsSingleUseAtOnce() async throws {
        let sandbox = Sandbox()
        let router = try RouterFixture.router(RouterFixture.oauth2("desktop", redirect: "myapp:/callback"), clock: SystemAttemptClock())
        let attempt = try router.beginLogin(on: "desktop")
        let receiver = try HandoffReceiver(scheme: "myapp", state: attempt.state, environment: sandbox.environment)
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(20)) }
        #expect(try await deliverOnThread("myapp:/callback?code=c9&state=\(attempt.state)", environment: sandbox.environment) == .delivered)
        _ = try await waiting.value

        let next = try router.beginLogin(on: "desktop")
        let started = ContinuousClock.now
        for wait in 0 ..< 2 {
            do {
                if wait == 0 {
                    _ = try await receiver.callback(for: next, router: router, timeout: .seconds(30))
                } else {
                    _ = try await receiver.nextCallbackURL(timeout: .seconds(30))
                }
                Issue.record("a used receiver served another wait")
            } catch {
                #expect(error.reason == .invalidConfiguration, "\(error)")
                #expect(error.detail.contains("single-use"), "\(error)")
            }
        }
        #expect(ContinuousClock.now - started < .seconds(5), "refused at once, not after the timeout")
        #expect(router.pendingCount == 1, "the refused wait did not touch the next attempt")
    }
}
