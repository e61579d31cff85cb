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
#endif
import CallbackTestSupport
import Testing
@_spi(Testing) @testable import CallbackRouter

/// Issue 24, point 7: every value a caller can pass for a lifetime or a timeout is handled or
/// refused, never trapped or wrapped; ended attempts and the sweep are bounded.
private func makeRouter(
    clock: any AttemptClock = ManualAttemptClock(), maxPendingAttempts: Int = 65_536,
    attemptLifetime: Duration = .seconds(600)
) throws -> CallbackRouter {
    try RouterFixture.router(
        RouterFixture.oauth2("op", attemptLifetime: attemptLifetime), clock: clock, maxPendingAttempts: maxPendingAttempts,
        maxRememberedEndings: maxPendingAttempts)
}

private func callback(_ attempt: LoginAttempt) -> String {
    "com.example.app:/oauth2redirect?code=c&state=\(attempt.state)"
}

@Suite struct AttemptLifetimeTests {
    static let unsealable: [Duration] = [
        .zero, .seconds(-1), .nanoseconds(Int64.min), .seconds(Int64.max), .seconds(Int64.min),
        .seconds(40 * 24 * 3600), SealedAttempt.maximumLifetime + .nanoseconds(1),
        Duration(secondsComponent: 0, attosecondsComponent: 5),
    ]

    @Test(arguments: unsealable)
    func beginRefusesALifetimeItsRecordCouldNotCarry(_ lifetime: Duration) throws {
        let router = try makeRouter()
        expectRefusal(.invalidConfiguration) { try router.beginLogin(on: "op", lifetime: lifetime) }
        expectRefusal(.invalidConfiguration) {
            try router.beginLogout(on: "op", endSessionEndpoint: "https://op.example.com/logout", lifetime: lifetime)
        }
        #expect(router.pendingCount == 0)
    }

    @Test(arguments: unsealable)
    func buildRefusesARouteLifetimeItsRecordsCouldNotCarry(_ lifetime: Duration) throws {
        expectRefusal(.invalidConfiguration) { try makeRouter(attemptLifetime: lifetime) }
    }

    @Test(arguments: [Duration.nanoseconds(1), .milliseconds(1), .seconds(1), .seconds(600), SealedAttempt.maximumLifetime])
    func everyLifetimeBeginAcceptsSealsAndRestores(_ lifetime: Duration) throws {
        let clock = ManualAttemptClock()
        let first = try makeRouter(clock: clock)
        let attempt = try first.beginLogin(on: "op", lifetime: lifetime)
        #expect(attempt.expiresAt > attempt.createdAt)
        let second = try makeRouter(clock: clock)
        let restored = try second.restore(attempt.sealed())
        #expect(restored.state == attempt.state)
        let delivery = try second.handle(callback(attempt))
        #expect(delivery.attempt.state == attempt.state)
    }

    @Test func theLongestLifetimeDoesNotExpireAtOnce() throws {
        let clock = ManualAttemptClock(start: ClockInstant(nanoseconds: Int64.max - 1_000))
        let router = try makeRouter(clock: clock)
        let attempt = try router.beginLogin(on: "op", lifetime: SealedAttempt.maximumLifetime)
        #expect(attempt.expiresAt.nanoseconds == Int64.max, "saturated, not wrapped into the past")
        #expect(try router.handle(callback(attempt)).attempt.id == attempt.id)
    }

    @Test func buildRefusesNoRoomForAnyAttempt() throws {
        expectRefusal(.invalidConfiguration) { try makeRouter(maxPendingAttempts: 0) }
        expectRefusal(.invalidConfiguration) { try makeRouter(maxPendingAttempts: -5) }
    }
}

@Suite struct ClockInstantSaturationTests {
    @Test func advancingSaturatesAtBothEnds() {
        #expect(ClockInstant(nanoseconds: 5).advanced(by: .seconds(Int64.max)).nanoseconds == .max)
        #expect(ClockInstant(nanoseconds: Int64.max - 1).advanced(by: .nanoseconds(2)).nanoseconds == .max)
        #expect(ClockInstant(nanoseconds: -5).advanced(by: .seconds(Int64.min)).nanoseconds == .min)
        #expect(ClockInstant(nanoseconds: Int64.min + 1).advanced(by: .nanoseconds(-2)).nanoseconds == .min)
        #expect(ClockInstant(nanoseconds: 10).advanced(by: .nanoseconds(-3)).nanoseconds == 7)
    }
}

/// An attempt's lifetime is real time: the system clock keeps counting while the machine
/// sleeps, on Linux as on Darwin (whose `CLOCK_MONOTONIC` already does).
@Suite struct SystemAttemptClockTests {
    #if canImport(Glibc)
    @Test func readsTheClockThatCountsSuspendOnLinux() {
        #expect(suspendAwareClockID == CLOCK_BOOTTIME)
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let before = Int64(boot.tv_sec) * 1_000_000_000 + Int64(boot.tv_nsec)
        let now = SystemAttemptClock().now().nanoseconds
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let after = Int64(boot.tv_sec) * 1_000_000_000 + Int64(boot.tv_nsec)
        #expect(before <= now && now <= after)
    }
    #endif

    @Test func neverGoesBackwards() {
        let clock = SystemAttemptClock()
        var last = clock.now()
        for _ in 0 ..< 10_000 {
            let next = clock.now()
            #expect(next >= last)
            last = next
        }
    }
}

@Suite struct WaitDurationTests {
    static let timeouts: [Duration] = [.seconds(Int64.max), .nanoseconds(Int64.max), .seconds(1_000_000_000)]

    @Test(arguments: timeouts)
    func aForeverTimeoutWaitsUntilTheAttemptExpires(_ timeout: Duration) async throws {
        let router = try makeRouter(clock: SystemAttemptClock())
        let attempt = try router.beginLogin(on: "op", lifetime: .milliseconds(200))
        do {
            _ = try await router.callback(for: attempt, timeout: timeout)
            Issue.record("the wait returned a delivery")
        } catch {
            #expect(error.reason == .attemptExpired, "\(error)")
        }
        #expect(router.pendingCount == 0)
    }

    @Test(arguments: [Duration.seconds(Int64.min), .nanoseconds(-1), .zero])
    func aNegativeTimeoutEndsTheWaitAtOnce(_ timeout: Duration) async throws {
        let router = try makeRouter(clock: SystemAttemptClock())
        let attempt = try router.beginLogin(on: "op")
        do {
            _ = try await router.callback(for: attempt, timeout: timeout)
            Issue.record("the wait returned a delivery")
        } catch {
            #expect(error.reason == .timeout, "\(error)")
        }
    }

    @Test func aForeverWaitStillGetsItsCallback() async throws {
        let router = try makeRouter(clock: SystemAttemptClock())
        let attempt = try router.beginLogin(on: "op")
        async let delivery = router.callback(for: attempt, timeout: .seconds(Int64.max))
        while !router.isWaiting(for: attempt) { await Task.yield() }
        _ = try router.handle(callback(attempt))
        #expect(try await delivery.attempt.id == attempt.id)
    }
}

@Suite struct EndedAttemptBoundTests {
    /// (A million, as the attack session ran it, took 1 GB before the bound; 20,000 against a
    /// bound of 100 proves the same without the minute.)
    @Test func manyCancelledLoginsAreNotAllRemembered() throws {
        let router = try makeRouter(maxPendingAttempts: 100)
        var first: LoginAttempt?
        var last: LoginAttempt?
        for _ in 0 ..< 20_000 {
            let attempt = try router.beginLogin(on: "op")
            router.cancel(attempt)
            if first == nil { first = attempt }
            last = attempt
        }
        let (remembered, agenda) = router.book.withLock { ($0.rememberedCount, $0.timelineCount) }
        #expect(remembered <= 100, "ended attempts remembered: \(remembered)")
        #expect(agenda <= 4 * remembered + 1024, "agenda items: \(agenda)")
        // The latest ending is still known for what it was; the oldest is forgotten, and its
        // callback is still refused.
        expectRefusal(.cancelled) { try router.handle(callback(last!)) }
        expectRefusal(.unknownState) { try router.handle(callback(first!)) }
    }

    @Test func aRecordOfAForgottenEndingIsNotRestoredAgain() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock, maxPendingAttempts: 4)
        let cancelled = try router.beginLogin(on: "op")
        let record = cancelled.sealed()
        router.cancel(cancelled)
        expectRefusal(.cancelled) { try router.restore(record) }
        for _ in 0 ..< 20 { router.cancel(try router.beginLogin(on: "op")) }
        // Its tombstone is gone, yet the record must not bring the login back.
        expectRefusal(.conflict) { try router.restore(record) }
        // A record of a login begun later than every forgotten one still restores.
        let other = try makeRouter(clock: clock)
        clock.advance(by: .seconds(1))
        let fresh = try other.beginLogin(on: "op")
        #expect(try router.restore(fresh.sealed()).state == fresh.state)
    }

    @Test func expiredAttemptsAreSweptWithoutAScan() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock)
        for _ in 0 ..< 1_000 { _ = try router.beginLogin(on: "op", lifetime: .seconds(10)) }
        clock.advance(by: .seconds(11))
        #expect(router.pendingCount == 0)
        clock.advance(by: .seconds(11))
        #expect(router.pendingCount == 0)
        #expect(router.book.withLock { $0.rememberedCount } == 0, "forgotten a lifetime after expiry")
    }
}
