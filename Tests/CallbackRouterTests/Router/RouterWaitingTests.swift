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

import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Testing) @testable import CallbackRouter

private func oauthRouter(clock: any AttemptClock = SystemAttemptClock()) throws -> CallbackRouter {
    var builder = RouterBuilder()
    builder.add(Route("app", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
    return try builder.build(clock: clock, maxPendingAttempts: 20_000)
}

/// A clock that, once armed, holds the first `now()` that follows until a second caller
/// reads it too (bounded: after 2 s it lets go). It forces an interleaving of two tasks
/// that otherwise happens only now and then.
private final class RendezvousClock: AttemptClock {
    private let calls = Locked(0)
    private let armed = Locked(false)

    func arm() { armed.withLock { $0 = true } }

    func now() -> ClockInstant {
        guard armed.withLock({ $0 }) else { return ClockInstant(nanoseconds: 0) }
        let mine = calls.withLock {
            $0 += 1; return $0
        }
        if mine == 1 {
            let giveUp = SystemAttemptClock().now().advanced(by: .seconds(2))
            while calls.withLock({ $0 }) < 2 && SystemAttemptClock().now() < giveUp { sched_yield() }
            armed.withLock { $0 = false }
        }
        return ClockInstant(nanoseconds: 0)
    }
}

private func reason(of body: () async throws -> Delivery) async -> ReasonCode? {
    do { _ = try await body(); return nil } catch { return (error as? CallbackError)?.reason }
}

@Suite(.timeLimit(.minutes(1))) struct RouterWaitingTests {
    @Test func resumesTheWaiterWithItsCallback() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        async let waited = router.callback(for: attempt, timeout: .seconds(30))
        // Deliver once the waiter is registered (a callback before any waiter: the next test).
        while !router.isWaiting(for: attempt) { await Task.yield() }
        let handed = try router.handle("com.example.app:/oauth2redirect?code=c&state=\(attempt.state)")
        let delivery = try await waited
        #expect(delivery.attempt == handed.attempt)
        #expect(delivery.outcome.value("code") == "c")
    }

    @Test func returnsACallbackThatArrivedBeforeAnyoneWaited() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        try router.handle("com.example.app:/oauth2redirect?code=early&state=\(attempt.state)")
        let delivery = try await router.callback(for: attempt, timeout: .seconds(5))
        #expect(delivery.outcome.value("code") == "early")
        // It was handed over once; a second wait is told so.
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .replayed)
    }

    /// A rejection tied to the attempt (here `issuer_mismatch`) that arrives before anyone
    /// waits is kept and handed over like a delivery, once, with its detail.
    @Test func returnsARejectionThatArrivedBeforeAnyoneWaited() async throws {
        var builder = RouterBuilder()
        builder.add(
            Route(
                "app", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2,
                issuer: "https://issuer.example"))
        let router = try builder.build()
        let attempt = try router.beginLogin(on: "app")
        let url = "com.example.app:/oauth2redirect?code=c&state=\(attempt.state)&iss=https%3A%2F%2Fevil.example"
        #expect(throws: CallbackError.self) { try router.handle(url) }
        do {
            _ = try await router.callback(for: attempt, timeout: .seconds(5))
            Issue.record("the kept rejection was not handed over")
        } catch {
            #expect(error.reason == .issuerMismatch)
            #expect(error.detail == "the server said https://evil.example, expected https://issuer.example (the 'iss' parameter, RFC 9207)")
        }
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .replayed)
    }

    @Test func timesOutAndLeavesNothingPending() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        #expect(await reason { try await router.callback(for: attempt, timeout: .milliseconds(50)) } == .timeout)
        #expect(router.pendingCount == 0)
        let late = #expect(throws: CallbackError.self) {
            try router.handle("com.example.app:/oauth2redirect?code=c&state=\(attempt.state)")
        }
        #expect(late?.reason == .timeout)
    }

    @Test func resumesWithCancelledWhenTheTaskIsCancelled() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        task.cancel()
        #expect(await task.value == .cancelled)
        #expect(router.pendingCount == 0)
    }

    @Test func resumesWithCancelledWhenTheAttemptIsCancelled() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        router.cancel(attempt)
        #expect(await task.value == .cancelled)
    }

    @Test func refusesASecondWaiter() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        let first = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .conflict)
        router.cancel(attempt)
        #expect(await first.value == .cancelled)
    }

    @Test func resumesAnExpiredAttemptsWaiterWithAttemptExpired() async throws {
        let clock = ManualAttemptClock()
        let router = try oauthRouter(clock: clock)
        let attempt = try router.beginLogin(on: "app", lifetime: .seconds(10))
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        clock.advance(by: .seconds(11))
        #expect(router.pendingCount == 0, "the sweep ends the expired attempt")
        #expect(await task.value == .attemptExpired)
    }

    /// Found by the router fuzzer once it drove waiting tasks: a second waiter arriving
    /// after the attempt expired (before any sweep) ended the attempt and dropped the
    /// first waiter, which then waited forever — its timer found no waiter left to end.
    @Test(.timeLimit(.minutes(1))) func aLateSecondWaiterOnAnExpiredAttemptResumesTheFirstToo() async throws {
        let clock = ManualAttemptClock()
        let router = try oauthRouter(clock: clock)
        let attempt = try router.beginLogin(on: "app", lifetime: .seconds(10))
        let first = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(3600)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        clock.advance(by: .seconds(11)) // expired; no sweep has run
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .attemptExpired)
        #expect(await first.value == .attemptExpired)
        #expect(!router.isWaiting(for: attempt))
    }

    /// The timer used to start before the waiter registered: a zero timeout could fire
    /// first, find no waiter to end, and leave the task waiting forever. Many waits at
    /// once make that interleaving likely on the old code; each must get `timeout`.
    @Test(.timeLimit(.minutes(1)), arguments: [Duration.zero, .nanoseconds(-1), .seconds(-30)])
    func aZeroOrNegativeTimeoutReturnsTimeoutAtOnce(timeout: Duration) async throws {
        let router = try oauthRouter()
        let attempts = try (0 ..< 2_000).map { _ in try router.beginLogin(on: "app") }
        let reasons = await withTaskGroup(of: ReasonCode?.self) { group in
            for attempt in attempts {
                group.addTask { await reason { try await router.callback(for: attempt, timeout: timeout) } }
            }
            var reasons: [ReasonCode?] = []
            for await reason in group { reasons.append(reason) }
            return reasons
        }
        #expect(reasons.count == attempts.count)
        #expect(reasons.allSatisfy { $0 == .timeout })
        #expect(router.pendingCount == 0)
        // The attempt ended: its callback is refused with the reason it ended.
        let late = #expect(throws: CallbackError.self) {
            try router.handle("com.example.app:/oauth2redirect?code=c&state=\(attempts[0].state)")
        }
        #expect(late?.reason == .timeout)
    }

    /// The interleaving that hung: the timer fires between its creation and the waiter's
    /// registration. The router reads its clock in between, so a clock that holds that read
    /// until the timer's own read arrives makes the interleaving happen every time on the
    /// old code (the wait then never ends: the time limit fails it).
    @Test(.timeLimit(.minutes(1))) func aTimerFiringBeforeTheWaiterRegistersStillEndsTheWait() async throws {
        let clock = RendezvousClock()
        let router = try oauthRouter(clock: clock)
        let attempt = try router.beginLogin(on: "app")
        clock.arm()
        #expect(await reason { try await router.callback(for: attempt, timeout: .zero) } == .timeout)
        #expect(!router.isWaiting(for: attempt))
        #expect(router.pendingCount == 0)
    }

    /// A kept result is still handed over by a zero-timeout wait: it is a poll.
    @Test func aZeroTimeoutStillReturnsACallbackThatAlreadyArrived() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        try router.handle("com.example.app:/oauth2redirect?code=early&state=\(attempt.state)")
        let delivery = try await router.callback(for: attempt, timeout: .zero)
        #expect(delivery.outcome.value("code") == "early")
    }

    /// `handle` sweeps too: a task awaiting an expired login is resumed by the next
    /// callback of any kind (here one for another login, and a malformed one), without
    /// waiting for a `begin`.
    @Test(.timeLimit(.minutes(1)), arguments: ["other-attempt", "malformed"])
    func handleEndsExpiredAttemptsAndResumesTheirWaiters(trigger: String) async throws {
        let clock = ManualAttemptClock()
        let router = try oauthRouter(clock: clock)
        let attempt = try router.beginLogin(on: "app", lifetime: .seconds(10))
        let other = try router.beginLogin(on: "app", lifetime: .seconds(60))
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(3600)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        clock.advance(by: .seconds(11))
        if trigger == "malformed" {
            let refusal = #expect(throws: CallbackError.self) { try router.handle("com.example.app:/oauth2redirect?%zz") }
            #expect(refusal?.reason == .invalidPercentEncoding)
        } else {
            try router.handle("com.example.app:/oauth2redirect?code=c&state=\(other.state)")
        }
        let stillWaiting = router.isWaiting(for: attempt)
        #expect(!stillWaiting, "the expired attempt's waiter must be resumed by handle")
        if stillWaiting { task.cancel() } // do not leave the task behind on the old code
        #expect(await task.value == .attemptExpired)
    }

    /// A second waiter is refused with `conflict`; its cancellation must not
    /// end the first waiter's wait (waits are told apart by a token, not by the attempt).
    @Test(.timeLimit(.minutes(1))) func cancellingARefusedSecondWaiterLeavesTheFirstWaiting() async throws {
        let router = try oauthRouter()
        let attempt = try router.beginLogin(on: "app")
        let first = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(3600)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        // The second task is cancelled before it asks, so its cancellation handler runs
        // while the first task's wait is open.
        let second = Task {
            while !Task.isCancelled { await Task.yield() }
            return await reason { try await router.callback(for: attempt, timeout: .seconds(3600)) }
        }
        second.cancel()
        #expect(await second.value == .conflict)
        #expect(router.isWaiting(for: attempt))
        try router.handle("com.example.app:/oauth2redirect?code=c&state=\(attempt.state)")
        #expect(await first.value == nil, "the first waiter gets the delivery")
    }

    /// 10,000 attempts begun and answered from many tasks at once: each callback reaches
    /// its own waiter exactly once, every replay is refused, nothing is left pending.
    @Test func deliversTenThousandCallbacksExactlyOnceUnderConcurrency() async throws {
        let router = try oauthRouter()
        let count = 10_000
        let attempts = try (0 ..< count).map { _ in try router.beginLogin(on: "app") }
        #expect(router.pendingCount == count)

        enum Report: Sendable {
            case waiter(ownCallback: Bool)
            case deliverer(delivered: Bool, replaysRefused: Bool)
        }
        let reports = await withTaskGroup(of: Report.self) { group in
            for (index, attempt) in attempts.enumerated() {
                group.addTask {
                    let delivery = try? await router.callback(for: attempt, timeout: .seconds(120))
                    return .waiter(ownCallback: delivery?.attempt == attempt && delivery?.outcome.value("code") == "code-\(index)")
                }
                group.addTask {
                    let url = "com.example.app:/oauth2redirect?code=code-\(index)&state=\(attempt.state)"
                    let delivered = (try? router.handle(url)) != nil
                    var replaysRefused = true
                    for _ in 0 ..< 2 {
                        do { try router.handle(url); replaysRefused = false } catch {
                            replaysRefused = replaysRefused && (error as? CallbackError)?.reason == .replayed
                        }
                    }
                    return .deliverer(delivered: delivered, replaysRefused: replaysRefused)
                }
            }
            var reports: [Report] = []
            for await report in group { reports.append(report) }
            return reports
        }
        var ownCallbacks = 0, deliveries = 0, refusedReplays = 0
        for report in reports {
            switch report {
            case .waiter(let own): ownCallbacks += own ? 1 : 0
            case let .deliverer(delivered, refused):
                deliveries += delivered ? 1 : 0
                refusedReplays += refused ? 1 : 0
            }
        }
        #expect(ownCallbacks == count)
        #expect(deliveries == count)
        #expect(refusedReplays == count)
        #expect(router.pendingCount == 0)
    }
}
