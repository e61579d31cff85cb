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
@_spi(Testing) @testable import CallbackRouter

/// Exactly once across routers: two routers that hold the same attempt (a sealed record
/// restored by two instances of a backend) and share a store of consumed states deliver its
/// callback once; a store that fails refuses the callback and delivers it nowhere.
@Suite(.timeLimit(.minutes(1))) struct ConsumedStateStoreTests {
    private static let redirect = "https://app.example/callback"

    private static func router(_ store: (any ConsumedStateStore)?, clock: ManualAttemptClock = ManualAttemptClock()) throws
        -> CallbackRouter
    {
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try RedirectURI(redirect, policy: .native), dialect: .oauth2))
        return try builder.build(clock: clock, consumedStates: store)
    }

    private static func callback(_ attempt: LoginAttempt) -> String { redirect + "?code=C0DE&state=" + attempt.state }

    /// What `handle` threw for `url`; nil when it delivered.
    private static func refusal(_ router: CallbackRouter, _ url: String) -> CallbackError? {
        do { try router.handle(url) } catch { return error }
        return nil
    }

    /// The reason the wait for `attempt` ended with; nil when it was a delivery.
    private static func waitReason(
        _ router: CallbackRouter, _ attempt: LoginAttempt, timeout: Duration = .seconds(5)
    ) async -> ReasonCode? {
        do { _ = try await router.callback(for: attempt, timeout: timeout) } catch { return error.reason }
        return nil
    }

    /// A store that records what it was asked, answering from memory or failing.
    final class RecordingStore: ConsumedStateStore, @unchecked Sendable {
        struct Down: Error {}
        let digestKey: [UInt8]
        let fails: Bool
        private let asked = Locked<[(ConsumedStateDigest, Int64)]>([])
        private let memory: InMemoryConsumedStateStore
        init(key: [UInt8] = SecureRandom.bytes(32), fails: Bool = false, clock: ManualAttemptClock = ManualAttemptClock()) {
            (digestKey, self.fails, memory) = (key, fails, InMemoryConsumedStateStore(clock: clock))
        }
        var inserts: [(digest: ConsumedStateDigest, keepingUntil: Int64)] { asked.withLock { $0.map { ($0.0, $0.1) } } }
        func insert(_ digest: ConsumedStateDigest, keepingUntil: Int64) throws -> Bool {
            asked.withLock { $0.append((digest, keepingUntil)) }
            if fails { throw Down() }
            return try memory.insert(digest, keepingUntil: keepingUntil)
        }
    }

    @Test func aCallbackReplayedOnAnotherRouterSharingTheStoreIsRefusedAsReplayed() async throws {
        // One calendar for the routers and the store: the store keeps a digest until the
        // attempt's expiry on it.
        let clock = ManualAttemptClock()
        let store = InMemoryConsumedStateStore(clock: clock)
        let first = try Self.router(store, clock: clock), second = try Self.router(store, clock: clock)
        let begun = try first.beginLogin(on: "app")
        let record = begun.sealed()
        // The other instance restores the record kept server-side (as a router per request does).
        let restoredOnSecond = try second.restore(record)
        let delivery = try first.handle(Self.callback(begun))
        #expect(delivery.attempt.state == begun.state)
        let replay = Self.refusal(second, Self.callback(begun))
        let refused = try #require(replay)
        #expect(refused.reason == .replayed)
        #expect(!refused.detail.contains(begun.state))
        // The attempt ended on the second router too: nothing pending, its wait is told why.
        // Locals: a failing #expect must not reflect a router (its book is not copyable).
        let pending = second.pendingCount
        #expect(pending == 0)
        let waited = await Self.waitReason(second, restoredOnSecond)
        #expect(waited == .replayed)
        let repeated = Self.refusal(second, Self.callback(begun))?.reason
        #expect(repeated == .replayed)
    }

    @Test func withoutAStoreEachRouterRemembersOnlyItsOwnCallbacks() throws {
        // Today's behaviour, the default: a router's own memory (a replay on it is refused).
        let router = try Self.router(nil)
        let attempt = try router.beginLogin(on: "app")
        try router.handle(Self.callback(attempt))
        let reason1 = Self.refusal(router, Self.callback(attempt))?.reason
        #expect(reason1 == .replayed)
    }

    /// A store that, while it records its first digest, lets `during` run: a second callback
    /// arriving at the same router while the first one's insert is in flight.
    final class ReentrantStore: ConsumedStateStore, @unchecked Sendable {
        let digestKey = SecureRandom.bytes(32)
        private let memory = Locked<Set<ConsumedStateDigest>>([])
        private let during = Locked<(() -> Void)?>(nil)
        func whileRecording(_ body: @escaping () -> Void) { during.withLock { $0 = body } }
        func insert(_ digest: ConsumedStateDigest, keepingUntil: Int64) throws -> Bool {
            let inserted = memory.withLock { $0.insert(digest).inserted }
            let body = during.withLock { body in
                defer { body = nil }
                return body
            }
            body?()
            return inserted
        }
    }

    @Test func aSecondCallbackWhileTheFirstIsRecordedIsRefusedAndTheFirstIsDelivered() throws {
        let store = ReentrantStore()
        let router = try Self.router(store)
        let attempt = try router.beginLogin(on: "app")
        var inner: ReasonCode?
        store.whileRecording { inner = Self.refusal(router, Self.callback(attempt))?.reason }
        let outer = Self.refusal(router, Self.callback(attempt))
        #expect(inner == .replayed)
        #expect(outer == nil) // the first callback is delivered
        let repeated = Self.refusal(router, Self.callback(attempt))?.reason
        #expect(repeated == .replayed)
    }

    @Test func aStoreThatFailsRefusesTheCallbackAndDeliversItNowhere() async throws {
        let store = RecordingStore(fails: true)
        let router = try Self.router(store)
        let attempt = try router.beginLogin(on: "app")
        let refusal = Self.refusal(router, Self.callback(attempt))
        let refused = try #require(refusal)
        #expect(refused.reason == .conflict)
        #expect(refused.detail.contains("store of consumed states failed"))
        #expect(refused.detail.contains("Down"))
        let pending = router.pendingCount
        #expect(pending == 0)
        let waited = await Self.waitReason(router, attempt)
        #expect(waited == .conflict)
        // A repeat is refused (the attempt ended) without asking the store again.
        let reason2 = Self.refusal(router, Self.callback(attempt))?.reason
        #expect(reason2 == .cancelled)
        #expect(store.inserts.count == 1)
    }

    @Test func aFailingStoreEndsTheWaitOfTheAttemptWithTheRefusal() async throws {
        let router = try Self.router(RecordingStore(fails: true))
        let attempt = try router.beginLogin(on: "app")
        async let waited = Self.waitReason(router, attempt, timeout: .seconds(300))
        while !router.isWaiting(for: attempt) { await Task.yield() }
        let reason3 = Self.refusal(router, Self.callback(attempt))?.reason
        #expect(reason3 == .conflict)
        #expect(await waited == .conflict)
    }

    @Test func theStoreGetsAKeyedDigestOfTheStateNeverTheStateAndTheAttemptsExpiry() throws {
        let store = RecordingStore()
        let clock = ManualAttemptClock()
        let router = try Self.router(store, clock: clock)
        let attempt = try router.beginLogin(on: "app", lifetime: .seconds(600))
        try router.handle(Self.callback(attempt))
        let insert = try #require(store.inserts.first)
        #expect(store.inserts.count == 1)
        #expect(insert.digest == ConsumedStateDigest(state: attempt.state, key: store.digestKey))
        #expect(insert.digest != ConsumedStateDigest(state: attempt.state, key: SecureRandom.bytes(32)))
        #expect(insert.digest.bytes.count == 32)
        #expect(insert.digest.hex.count == 64)
        #expect(!insert.digest.hex.contains(attempt.state) && !"\(insert.digest)".contains(attempt.state))
        #expect(insert.keepingUntil == clock.wallClockNanoseconds() + 600_000_000_000)
    }

    @Test func aCallbackWithoutAPendingAttemptsStateNeverReachesTheStore() throws {
        let store = RecordingStore()
        let router = try Self.router(store)
        _ = try router.beginLogin(on: "app")
        let reason4 = Self.refusal(router, Self.redirect + "?code=C&state=forged")?.reason
        #expect(reason4 == .unknownState)
        let reason5 = Self.refusal(router, Self.redirect + "?code=C")?.reason
        #expect(reason5 == .stateMissing)
        #expect(store.inserts.isEmpty)
        let pending = router.pendingCount
        #expect(pending == 1)
    }

    @Test func aLateCallbackIsAttemptExpiredWithoutAskingTheStore() throws {
        let store = RecordingStore()
        let clock = ManualAttemptClock()
        let router = try Self.router(store, clock: clock)
        let attempt = try router.beginLogin(on: "app", lifetime: .seconds(60))
        clock.advance(by: .seconds(61))
        let reason6 = Self.refusal(router, Self.callback(attempt))?.reason
        #expect(reason6 == .attemptExpired)
        #expect(store.inserts.isEmpty)
    }

    @Test func aStoreWithAShortDigestKeyIsRefusedWhenTheRouterIsBuilt() throws {
        do {
            _ = try Self.router(RecordingStore(key: [UInt8](repeating: 1, count: 31)))
            Issue.record("a 31-byte digest key was accepted")
        } catch let error as CallbackError {
            #expect(error.reason == .invalidConfiguration)
            #expect(error.detail.contains("31 bytes"))
        }
    }

    @Test func aLogoutReplayedOnAnotherRouterSharingTheStoreIsRefused() throws {
        let clock = ManualAttemptClock()
        let store = InMemoryConsumedStateStore(clock: clock)
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try RedirectURI(Self.redirect, policy: .native), dialect: .oauth2))
        let first = try builder.build(clock: clock, consumedStates: store)
        let second = try builder.build(clock: clock, consumedStates: store)
        let logout = try first.beginLogout(
            on: "app", endSessionEndpoint: "https://op.example/logout", clientID: "web")
        try second.restore(logout.attempt.sealed())
        let url = Self.redirect + "?state=" + logout.attempt.state
        try first.handle(url)
        let reason7 = Self.refusal(second, url)?.reason
        #expect(reason7 == .replayed)
    }

    @Test func theInMemoryStoreKeepsADigestUntilItsExpiryAndRefusesPastItsCapacity() throws {
        let clock = ManualAttemptClock()
        let store = InMemoryConsumedStateStore(capacity: 2, clock: clock)
        let now = clock.wallClockNanoseconds()
        let a = ConsumedStateDigest(state: "a", key: store.digestKey), b = ConsumedStateDigest(state: "b", key: store.digestKey)
        let c = ConsumedStateDigest(state: "c", key: store.digestKey)
        #expect(try store.insert(a, keepingUntil: now + 10_000_000_000))
        #expect(try !store.insert(a, keepingUntil: now + 10_000_000_000))
        #expect(try store.insert(b, keepingUntil: now + 20_000_000_000))
        #expect(throws: InMemoryConsumedStateStore.Full.self) { try store.insert(c, keepingUntil: now + 20_000_000_000) }
        clock.advance(by: .seconds(11)) // `a` may be forgotten now
        #expect(try store.insert(c, keepingUntil: now + 30_000_000_000))
        #expect(store.count == 2)
        #expect(try !store.insert(b, keepingUntil: now + 20_000_000_000))
    }
}
