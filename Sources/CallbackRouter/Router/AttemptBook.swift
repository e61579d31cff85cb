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

/// The router's mutable part, always used under its lock (`Locked`).
struct AttemptBook: ~Copyable {
    typealias Continuation = CheckedContinuation<Result<Delivery, CallbackError>, Never>

    enum Ending: Sendable {
        /// `refused`: a callback carrying its state was refused (its syntax, its dialect's
        /// rules): a repeat, or the genuine callback after it, is `cancelled`.
        case answered, cancelled, expired, timedOut, refused

        var error: CallbackError {
            switch self {
            case .refused:
                return CallbackError(
                    .cancelled, "this login already ended: an earlier callback carrying its state was refused; start a new login")
            case .answered: return CallbackError(.replayed, "this login was already answered; a callback is delivered once")
            case .cancelled: return CallbackError(.cancelled, "the login was cancelled")
            case .expired: return CallbackError(.attemptExpired, "the login expired before its callback arrived")
            case .timedOut: return CallbackError(.timeout, "nobody waited for the callback in time; the login ended")
            }
        }
    }

    enum Claim {
        /// The callback ties to `entry`'s attempt; `waiter` is the task to resume, if one is
        /// waiting; `late` is set when the callback came after the attempt's expiry.
        /// (Small on purpose: the attempt is read from the entry, not copied through here.)
        case claimed(Entry, waiter: Waiter?, late: Bool)
        case rejected(CallbackError)
    }

    /// What is remembered of a finished attempt, so that a late or repeated callback gets
    /// the true reason; kept for the attempt's lifetime after it ended, then forgotten.
    struct Tombstone {
        let ending: Ending
        let forgetAt: ClockInstant
        let isLogout: Bool
    }

    /// A task waiting for an attempt. `token` tells one wait from another on the same
    /// attempt, so that a timer or a cancellation ends only the wait that set it up.
    /// A class: `CheckedContinuation` has no fixed layout outside its module, so every copy
    /// of a value holding one goes through value witnesses (~130 instructions each, several
    /// per callback); a reference is one retain. Touched only under the router's lock.
    final class Waiter {
        let continuation: Continuation
        let token: UInt64
        var timer: Task<Void, Never>?

        init(continuation: Continuation, token: UInt64) {
            self.continuation = continuation
            self.token = token
        }
    }

    /// Everything the book knows of one attempt, pending or ended, in one record: one hash
    /// and probe finds it, and a callback changes it in place (rather than an insert or a
    /// removal in each of six tables: pending, ended by key and by id, waiters, kept results,
    /// the key index). A class, so that the tables
    /// hold a reference: reading or changing an entry copies no attempt and no table.
    /// Touched only under the router's lock, with the book.
    final class Entry {
        let attempt: LoginAttempt
        let key: StateKey
        let routeIndex: Int
        let stateless: Bool
        /// A logout on a route that accepts logouts without state: the route's one such.
        let unboundLogout: Bool
        /// Nil while the attempt is pending; how it ended afterwards.
        var tombstone: Tombstone?
        /// Set when a callback carrying its state is being recorded in the shared store of
        /// consumed states (``CallbackRouter/recordConsumption(in:state:logout:routeIndex:)``):
        /// another callback with the state is then refused at once, and only that one goes on.
        var isBeingRecorded = false
        /// The task waiting for the attempt, while one is (only while pending).
        var waiter: Waiter?
        /// A result nobody received yet, kept for a later `callback(for:)` until
        /// `keptUntil`: a delivery or a rejection, in a field each. (One optional `Result`
        /// was copied in and its old value destroyed through a value witness, ~127
        /// instructions a callback, since a `CallbackError` makes it large; an optional
        /// `Delivery` is two references, handled inline.)
        private var keptDelivery: Delivery?
        private var keptFailure: CallbackError?
        private(set) var keptUntil = ClockInstant(nanoseconds: 0)

        /// Whether a result is kept.
        var hasUnclaimed: Bool { keptDelivery != nil || keptFailure != nil }

        /// Keeps `result` until `forgetAt`.
        func keepUnclaimed(_ result: borrowing Result<Delivery, CallbackError>, until forgetAt: ClockInstant) {
            switch result {
            case .success(let delivery): keptDelivery = delivery
            case .failure(let error): keptFailure = error
            }
            keptUntil = forgetAt
        }

        /// The kept result, if any, which is no longer kept.
        func takeUnclaimed() -> Result<Delivery, CallbackError>? {
            defer { dropUnclaimed() }
            if let keptDelivery { return .success(keptDelivery) }
            if let keptFailure { return .failure(keptFailure) }
            return nil
        }

        /// Forgets the kept result, if any.
        func dropUnclaimed() {
            keptDelivery = nil
            keptFailure = nil
        }

        var isPending: Bool { tombstone == nil }

        init(attempt: LoginAttempt, key: StateKey, routeIndex: Int, stateless: Bool, unboundLogout: Bool) {
            self.attempt = attempt
            self.key = key
            self.routeIndex = routeIndex
            self.stateless = stateless
            self.unboundLogout = unboundLogout
        }
    }

    /// What ``addWaiter(_:token:for:timeout:now:)`` decided.
    enum Registration {
        /// The task is answered at once; `expiredWaiter` is a task that was already waiting
        /// for the attempt, which expired: it must be resumed too.
        case immediate(Result<Delivery, CallbackError>, expiredWaiter: Continuation?)
        /// The task is registered: it is resumed by a callback, `cancel`, a sweep, its
        /// timer or its cancellation, whichever ends the attempt first.
        case waiting
    }

    /// Keys the state index: fresh random per router.
    let hasher: SipHash128
    var nextID: UInt64 = 0
    private var nextWaitToken: UInt64 = 0
    /// Every attempt not yet forgotten, pending or ended, by id.
    private var entries: [UInt64: Entry] = [:]
    /// The last attempt with this state (pending, or ended and not yet forgotten).
    private var entryByKey = StateTable()
    private(set) var pendingCount = 0
    private(set) var statelessPending: [Int: UInt64] = [:]
    /// Per route that accepts logouts without state: its one pending logout.
    private(set) var unboundLogoutPending: [Int: UInt64] = [:]
    private var statelessLastEnding: [Int: Tombstone] = [:]
    /// When each entry may next change: expiry, forgetting (see ``Timeline``).
    private var timeline = Timeline()
    /// Ended entries in the order they ended (ids; `endedHead` is the oldest still listed):
    /// past ``maxEnded`` remembered endings, the oldest are forgotten early.
    private var endedOrder: [UInt64] = []
    private var endedHead = 0
    /// How many ended attempts are remembered at most: without a bound, a million `begin` +
    /// `cancel` in one lifetime would keep a million entries (1 GB). Forgetting one early turns a
    /// late repeat of its callback from `replayed` into `unknown_state` (still refused); a
    /// sealed record of it is refused by ``restoreFloor``.
    let maxEnded: Int
    /// The latest calendar expiry of an attempt forgotten early: a record that expires no
    /// later may be one of them, and is refused rather than restored a second time.
    private(set) var restoreFloor = Int64.min

    init(hasher: SipHash128, maxEnded: Int = 65_536) {
        self.hasher = hasher
        self.maxEnded = max(maxEnded, 1)
    }

    /// Attempts remembered, pending or ended (tests: the memory bound).
    var rememberedCount: Int { entries.count }
    /// Items on the agenda (tests: it stays proportional to what is remembered).
    var timelineCount: Int { timeline.count }

    /// The state's key under this book's hasher.
    func key(for state: String) -> StateKey { StateKey(state, hasher: hasher) }

    /// Whether a task is waiting for the attempt `id`.
    func isWaiting(for id: UInt64) -> Bool { entries[id]?.waiter != nil }

    mutating func insert(_ attempt: LoginAttempt, routeIndex: Int, stateless: Bool, unboundLogout: Bool = false) {
        let key = key(for: attempt.state)
        let entry = Entry(
            attempt: attempt, key: key, routeIndex: routeIndex, stateless: stateless,
            unboundLogout: unboundLogout)
        entries[attempt.id] = entry
        entryByKey.insert(entry)
        timeline.push(attempt.expiresAt, attempt.id)
        pendingCount += 1
        if stateless { statelessPending[routeIndex] = attempt.id }
        if unboundLogout { unboundLogoutPending[routeIndex] = attempt.id }
    }

    /// Why an attempt with this state may not be put back (``CallbackRouter/restore(_:)-(SealedAttempt)``):
    /// one with the same state is pending (the record was restored already, or its attempt
    /// never left this process), or ended here within its lifetime (its callback was
    /// delivered: `replayed`; or it was cancelled, timed out, expired). Nil when it may.
    ///
    /// A record that expires no later than an attempt this book forgot early (too many
    /// ended attempts, ``maxEnded``) may be that attempt's: `conflict`, fail closed.
    func refusalToRestore(key: StateKey, expiresAtWallClock: Int64, now: ClockInstant) -> CallbackError? {
        guard let entry = entryByKey[key] else {
            guard expiresAtWallClock > restoreFloor else {
                return CallbackError(
                    .conflict,
                    "so many logins ended in this process that it no longer remembers whether this record's attempt was one of them; start a new login"
                )
            }
            return nil
        }
        guard let tombstone = entry.tombstone else {
            return CallbackError(.replayed, "an attempt with this record's state is already pending: a record is restored once")
        }
        if now < tombstone.forgetAt {
            let error = tombstone.ending.error
            return CallbackError(error.reason, "this record's attempt already ended in this process: " + error.detail)
        }
        return nil
    }

    /// A stateful callback: find the attempt by state, compare in constant time, consume it.
    ///
    /// The attempt must have been begun on the route the callback arrived on: a state that
    /// belongs to another route's attempt is refused and that attempt left pending. Per-route
    /// redirect URIs are the mix-up defence of RFC 9700 §4.4.2 (an authorization response for
    /// one authorization server arriving at the redirect URI of another), so a response must
    /// never cross from one route to another's login.
    ///
    /// A callback read as a login never claims a logout, and the reverse (`logout`): the
    /// other kind's attempt is left pending, and the callback is `unknown_state`.
    mutating func claim(
        key: StateKey, state: UnsafeBufferPointer<UInt8>, routeIndex: Int, logout: Bool,
        now: ClockInstant
    ) -> Claim {
        let found = entryByKey[key]
        guard let entry = found, entry.isPending, Self.stateMatches(state, entry.attempt.state) else {
            if let tombstone = found?.tombstone, now < tombstone.forgetAt,
                tombstone.isLogout == logout
            {
                return .rejected(tombstone.ending.error)
            }
            return .rejected(
                CallbackError(
                    .unknownState,
                    logout
                        ? "no logout in progress has this state"
                        : "no login in progress has this state"))
        }
        guard entry.attempt.isLogout == logout else {
            return .rejected(
                CallbackError(
                    .unknownState,
                    logout
                        ? "no logout in progress has this state: it belongs to a login in progress, which a logout callback never ends"
                        : "no login in progress has this state: it belongs to a logout in progress, which a login callback never ends"))
        }
        guard entry.routeIndex == routeIndex else {
            return .rejected(
                CallbackError(
                    .unknownState,
                    "no login in progress on this route has this state: it belongs to a login begun on another route (a mix-up, RFC 9700 §4.4)"
                ))
        }
        return consume(entry, now: now)
    }

    /// The state the callback carries against the attempt's, in constant time.
    private static func stateMatches(_ received: UnsafeBufferPointer<UInt8>, _ expected: String) -> Bool {
        // Borrowed in place (a native string is contiguous): copying it for `withUTF8`
        // cost a retain and a release a callback.
        if let matches = expected.utf8.withContiguousStorageIfAvailable({ constantTimeEquals(received, $0) }) {
            return matches
        }
        var expected = expected
        return expected.withUTF8 { constantTimeEquals(received, $0) }
    }

    /// A stateless callback: the route's single pending attempt takes it.
    mutating func claimStateless(routeIndex: Int, flowID: String? = nil, now: ClockInstant) -> Claim {
        guard let id = statelessPending[routeIndex], let entry = entries[id], entry.isPending else {
            if let last = statelessLastEnding[routeIndex], now < last.forgetAt {
                return .rejected(last.ending.error)
            }
            return .rejected(CallbackError(.unknownState, "no login is in progress on this route"))
        }
        // A magic link (`flowID`) for another flow than the attempt's is another login's:
        // refused, and the attempt stays pending (clerk-ios and clerk-android do the same).
        // An attempt begun without a flow id takes any, as the SDKs' pending flow without one.
        if let flowID, let expected = entry.attempt.flowID, !constantTimeEquals(flowID, expected) {
            return .rejected(
                CallbackError(
                    .stateMismatch,
                    "the magic link is for another Clerk sign-in flow than the pending one, so it is another login's; the pending login was not ended: open the link from the latest email"
                ))
        }
        return consume(entry, now: now)
    }

    /// A logout callback without state on a route that accepts one: the route's pending
    /// logout takes it.
    mutating func claimUnboundLogout(routeIndex: Int, now: ClockInstant) -> Claim {
        guard let id = unboundLogoutPending[routeIndex], let entry = entries[id], entry.isPending else {
            return .rejected(CallbackError(.unknownState, "no logout is in progress on this route"))
        }
        return consume(entry, now: now)
    }

    private mutating func consume(_ entry: Entry, now: ClockInstant) -> Claim {
        let late = now >= entry.attempt.expiresAt
        let waiter = end(entry, as: late ? .expired : .answered, now: now)
        waiter?.timer?.cancel()
        return .claimed(entry, waiter: waiter, late: late)
    }

    /// Ends a pending attempt (cancel, timeout); returns its waiter to resume, if any.
    mutating func finish(_ id: UInt64, as ending: Ending, now: ClockInstant) -> Continuation? {
        guard let entry = entries[id] else { return nil }
        guard entry.isPending else {
            // Already ended: only an open wait (none normally) is closed.
            let waiter = entry.waiter
            entry.waiter = nil
            waiter?.timer?.cancel()
            return waiter?.continuation
        }
        let waiter = end(entry, as: ending, now: now)
        waiter?.timer?.cancel()
        return waiter?.continuation
    }

    /// Ends the pending attempt `id` with `error` (a callback that carries its state was
    /// refused before it could be tied to it, e.g. for its syntax): returns its waiter to
    /// resume with `error`, or keeps `error` for a later `callback(for:)` when none waits.
    /// Nothing happens to an attempt that already ended.
    mutating func refuse(_ id: UInt64, with error: CallbackError, now: ClockInstant) -> Continuation? {
        guard let entry = entries[id], entry.isPending else { return nil }
        let waiter = end(entry, as: .refused, now: now)
        waiter?.timer?.cancel()
        if waiter == nil { keepUnclaimed(.failure(error), in: entry) }
        return waiter?.continuation
    }

    /// Who hears of a refusal ``refuse(state:key:routeIndex:logins:logouts:with:keepLogin:keepLogout:as:now:)`` tied to an attempt.
    enum RefusalReceiver {
        /// No pending attempt on the route has the state: nobody (only the caller).
        case none
        /// The task waiting for the attempt.
        case waiter(Continuation)
        /// The route's handler (`logout`: its logout handler), or nobody when the route has
        /// none and the refusal is kept for a later `callback(for:)`.
        case handler(logout: Bool)
    }

    /// The pending, unexpired attempt with `state` on route `routeIndex` (compared in constant
    /// time, as a claim does), a login (`logins`) or a logout (`logouts`); never a stateless
    /// login (its state is never sent, so no callback carries it). Nil when there is none.
    func pendingEntry(
        state: UnsafeBufferPointer<UInt8>, key: StateKey, routeIndex: Int, logins: Bool, logouts: Bool, now: ClockInstant
    ) -> Entry? {
        guard let entry = entryByKey[key], entry.isPending, !entry.stateless, entry.routeIndex == routeIndex,
            entry.attempt.isLogout ? logouts : logins, now < entry.attempt.expiresAt,
            Self.stateMatches(state, entry.attempt.state)
        else { return nil }
        return entry
    }

    /// A callback refused on route `routeIndex` (its syntax, its dialect's rules; or the
    /// shared store of consumed states) whose raw text carries `state`: ends the pending
    /// attempt with that state on that route (``pendingEntry(state:key:routeIndex:logins:logouts:now:)``)
    /// as `ending`, and says who hears of `error`;
    /// when nobody waits and the route has no handler for the attempt's kind (`keepLogin`,
    /// `keepLogout`), `error` is kept for a later `callback(for:)`. A stateless login is
    /// never ended this way (its state is never sent, so no callback carries it), nor an
    /// attempt of another route, nor one that already ended or expired (the sweep ends it
    /// as `attempt_expired`).
    mutating func refuse(
        state: UnsafeBufferPointer<UInt8>, key: StateKey, routeIndex: Int, logins: Bool, logouts: Bool, with error: CallbackError,
        keepLogin: Bool, keepLogout: Bool, as ending: Ending = .refused, now: ClockInstant
    ) -> RefusalReceiver {
        guard let entry = pendingEntry(state: state, key: key, routeIndex: routeIndex, logins: logins, logouts: logouts, now: now)
        else { return .none }
        let waiter = end(entry, as: ending, now: now)
        if let waiter {
            waiter.timer?.cancel()
            return .waiter(waiter.continuation)
        }
        let logout = entry.attempt.isLogout
        if logout ? keepLogout : keepLogin { keepUnclaimed(.failure(error), in: entry) }
        return .handler(logout: logout)
    }

    /// Turns the pending attempt `entry` into its tombstone; returns its waiter, if any.
    /// The entry stays in the tables, found by id and by state, until a sweep forgets it.
    private mutating func end(_ entry: Entry, as ending: Ending, now: ClockInstant) -> Waiter? {
        let (attempt, routeIndex) = (entry.attempt, entry.routeIndex)
        let (stateless, unboundLogout) = (entry.stateless, entry.unboundLogout)
        if stateless { statelessPending[routeIndex] = nil }
        if unboundLogout { unboundLogoutPending[routeIndex] = nil }
        pendingCount -= 1
        let lifetime = attempt.expiresAt.nanoseconds &- attempt.createdAt.nanoseconds
        let tombstone = Tombstone(
            ending: ending, forgetAt: ClockInstant(nanoseconds: max(now, attempt.expiresAt).nanoseconds &+ lifetime),
            isLogout: attempt.isLogout)
        entry.tombstone = tombstone
        if stateless { statelessLastEnding[routeIndex] = tombstone }
        timeline.push(tombstone.forgetAt, attempt.id)
        endedOrder.append(attempt.id)
        forgetOldestEndings()
        let waiter = entry.waiter
        entry.waiter = nil
        return waiter
    }

    /// Forgets the oldest ended attempts while more than ``maxEnded`` are remembered (one
    /// holding a result nobody received yet is kept: forgetting it would lose a callback),
    /// and keeps the lists behind the bound from growing with forgotten ids.
    private mutating func forgetOldestEndings() {
        while entries.count &- pendingCount > maxEnded, endedHead < endedOrder.count {
            let id = endedOrder[endedHead]
            endedHead &+= 1
            guard let entry = entries[id], !entry.isPending, !entry.hasUnclaimed else { continue }
            entries[id] = nil
            entryByKey.remove(entry)
            restoreFloor = max(restoreFloor, entry.attempt.expiresAtWallClock)
        }
        if endedHead > 1024, endedHead &* 2 > endedOrder.count {
            endedOrder.removeFirst(endedHead)
            endedHead = 0
        }
        if endedOrder.count - endedHead > 2 &* entries.count &+ 1024 {
            endedOrder = endedOrder[endedHead...].filter { entries[$0] != nil }
            endedHead = 0
        }
        if timeline.count > 4 &* entries.count &+ 1024 {
            timeline.compact(keeping: { entries[$0.id] != nil })
        }
    }

    /// A result nobody received yet: kept for a later `callback(for:)`, until forgotten.
    func keepUnclaimed(_ result: borrowing Result<Delivery, CallbackError>, in entry: Entry) {
        let attempt = entry.attempt
        // No agenda item of its own: the entry ended already (a claim ends it before its
        // result is kept), and its tombstone's item comes no earlier than `keptUntil`
        // (`max(now, expiresAt) + lifetime`), when the sweep drops the result with the entry.
        entry.keepUnclaimed(
            result,
            until: ClockInstant(
                nanoseconds: attempt.expiresAt.nanoseconds &+ (attempt.expiresAt.nanoseconds &- attempt.createdAt.nanoseconds)))
    }

    /// A token for a new wait (see ``Waiter/token``).
    mutating func makeWaitToken() -> UInt64 {
        nextWaitToken += 1
        return nextWaitToken
    }

    /// Registers a task waiting for `attempt`, or answers it at once: when the attempt
    /// already has a result, ended, is unknown, expired, or is already awaited (`conflict`),
    /// and when `timeout` is zero or negative (the wait ends the attempt as timed out).
    ///
    /// The caller starts the wait's timer only after `.waiting`, and attaches it with
    /// ``attachTimer(_:to:token:)``: a timer started before the waiter is registered can
    /// fire first, find nobody to end, and leave the task waiting forever.
    mutating func addWaiter(
        _ continuation: Continuation, token: UInt64, for attempt: LoginAttempt,
        timeout: Duration, now: ClockInstant
    ) -> Registration {
        guard let entry = entries[attempt.id] else {
            return .immediate(
                .failure(CallbackError(.unknownState, "this router has no such login in progress")),
                expiredWaiter: nil)
        }
        if let kept = entry.takeUnclaimed() {
            return .immediate(kept, expiredWaiter: nil)
        }
        if let tombstone = entry.tombstone {
            return .immediate(.failure(tombstone.ending.error), expiredWaiter: nil)
        }
        guard entry.attempt.route == attempt.route else {
            return .immediate(
                .failure(CallbackError(.unknownState, "this router has no such login in progress")),
                expiredWaiter: nil)
        }
        if now >= attempt.expiresAt {
            // Another task may already be waiting (no sweep has run since the expiry).
            let earlier = end(entry, as: .expired, now: now)
            earlier?.timer?.cancel()
            return .immediate(.failure(Ending.expired.error), expiredWaiter: earlier?.continuation)
        }
        guard entry.waiter == nil else {
            return .immediate(
                .failure(CallbackError(.conflict, "another task is already waiting for this login")),
                expiredWaiter: nil)
        }
        if timeout <= .zero {
            _ = end(entry, as: .timedOut, now: now)
            return .immediate(
                .failure(CallbackError(.timeout, "no callback had arrived, and the wait allowed no time")),
                expiredWaiter: nil)
        }
        entry.waiter = Waiter(continuation: continuation, token: token)
        return .waiting
    }

    /// Gives the wait `token` its timer; false when that wait has already ended (the
    /// caller then cancels the timer).
    mutating func attachTimer(_ timer: Task<Void, Never>, to attempt: LoginAttempt, token: UInt64) -> Bool {
        guard let entry = entries[attempt.id], entry.waiter?.token == token else { return false }
        entry.waiter?.timer = timer
        return true
    }

    /// Ends the wait `token` (its timeout or its task's cancellation) if it is still open:
    /// finishes the attempt and returns the continuation to resume, exactly once.
    mutating func endWait(of attempt: LoginAttempt, token: UInt64, as ending: Ending, now: ClockInstant) -> Continuation? {
        guard entries[attempt.id]?.waiter?.token == token else { return nil }
        return finish(attempt.id, as: ending, now: now)
    }

    /// Ends expired attempts and forgets old tombstones and kept results that are due, so
    /// that nothing grows without bound; its cost follows what is due (``Timeline``), and
    /// when nothing is, it is one comparison.
    mutating func sweep(now: ClockInstant) -> [Continuation] {
        guard let earliest = timeline.earliest, earliest <= now.nanoseconds else { return [] }
        var expiredWaiters: [Continuation] = []
        while let id = timeline.popDue(now) {
            guard let entry = entries[id] else { continue }
            if entry.isPending, now >= entry.attempt.expiresAt {
                if let waiter = end(entry, as: .expired, now: now) {
                    waiter.timer?.cancel()
                    expiredWaiters.append(waiter.continuation)
                }
            }
            if entry.hasUnclaimed, now >= entry.keptUntil { entry.dropUnclaimed() }
            if let tombstone = entry.tombstone, now >= tombstone.forgetAt, !entry.hasUnclaimed,
                entries[id] != nil
            {
                entries[id] = nil
                entryByKey.remove(entry)
            }
        }
        if !statelessLastEnding.isEmpty {
            statelessLastEnding = statelessLastEnding.filter { now < $0.value.forgetAt }
        }
        return expiredWaiters
    }
}
