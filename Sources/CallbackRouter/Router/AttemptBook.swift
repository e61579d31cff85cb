/// The key pending attempts are found by: the first 128 bits of SHA-256(state).
///
/// Looking states up by their hash keeps dispatch O(1) without comparing secret states
/// with `==` (whose running time depends on how many leading bytes match); the full state
/// is then compared in constant time.
struct StateKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ state: String) {
        let digest = SHA256.hash(state.utf8)
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0 ..< 8 { high = high << 8 | UInt64(digest[i]) }
        for i in 8 ..< 16 { low = low << 8 | UInt64(digest[i]) }
        self.high = high
        self.low = low
    }
}

/// The router's mutable part, always used under its lock (`Locked`).
struct AttemptBook: ~Copyable {
    typealias Continuation = CheckedContinuation<Result<Delivery, CallbackError>, Never>

    enum Ending: Sendable {
        case answered, cancelled, expired, timedOut

        var error: CallbackError {
            switch self {
            case .answered: return CallbackError(.replayed, "this login was already answered; a callback is delivered once")
            case .cancelled: return CallbackError(.cancelled, "the login was cancelled")
            case .expired: return CallbackError(.attemptExpired, "the login expired before its callback arrived")
            case .timedOut: return CallbackError(.timeout, "nobody waited for the callback in time; the login ended")
            }
        }
    }

    /// Who gets a claimed callback.
    enum Receiver {
        case waiter(Continuation)
        case none
    }

    enum Claim {
        /// The callback ties to `attempt`; `expired` is set when it came too late.
        case claimed(LoginAttempt, Receiver, expired: CallbackError?)
        case rejected(CallbackError)
    }

    struct Pending {
        let attempt: LoginAttempt
        let key: StateKey
        let routeIndex: Int
        let stateless: Bool
        /// A logout on a route that accepts logouts without state: the route's one such.
        let unboundLogout: Bool
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
    struct Waiter {
        let continuation: Continuation
        let token: UInt64
        var timer: Task<Void, Never>?
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

    var nextID: UInt64 = 0
    private var nextWaitToken: UInt64 = 0
    private(set) var pendingByID: [UInt64: Pending] = [:]
    private var idByKey: [StateKey: UInt64] = [:]
    private(set) var statelessPending: [Int: UInt64] = [:]
    /// Per route that accepts logouts without state: its one pending logout.
    private(set) var unboundLogoutPending: [Int: UInt64] = [:]
    private var tombstonesByKey: [StateKey: Tombstone] = [:]
    private var tombstonesByID: [UInt64: Tombstone] = [:]
    private var statelessLastEnding: [Int: Tombstone] = [:]
    private(set) var waiters: [UInt64: Waiter] = [:]
    private var unclaimed: [UInt64: (result: Result<Delivery, CallbackError>, forgetAt: ClockInstant)] = [:]
    private var nextSweep = ClockInstant(nanoseconds: .min)

    var pendingCount: Int { pendingByID.count }

    mutating func insert(_ attempt: LoginAttempt, routeIndex: Int, stateless: Bool, unboundLogout: Bool = false) {
        let key = StateKey(attempt.state)
        pendingByID[attempt.id] = Pending(
            attempt: attempt, key: key, routeIndex: routeIndex, stateless: stateless,
            unboundLogout: unboundLogout)
        idByKey[key] = attempt.id
        if stateless { statelessPending[routeIndex] = attempt.id }
        if unboundLogout { unboundLogoutPending[routeIndex] = attempt.id }
    }

    /// Why an attempt with this state may not be put back (``CallbackRouter/restore(_:)-(SealedAttempt)``):
    /// one with the same state is pending (the record was restored already, or its attempt
    /// never left this process), or ended here within its lifetime (its callback was
    /// delivered: `replayed`; or it was cancelled, timed out, expired). Nil when it may.
    func refusalToRestore(key: StateKey, now: ClockInstant) -> CallbackError? {
        if idByKey[key] != nil {
            return CallbackError(.replayed, "an attempt with this record's state is already pending: a record is restored once")
        }
        if let tombstone = tombstonesByKey[key], now < tombstone.forgetAt {
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
        key: StateKey, state: String, routeIndex: Int, logout: Bool,
        now: ClockInstant
    ) -> Claim {
        guard let id = idByKey[key], let pending = pendingByID[id],
            constantTimeEquals(state, pending.attempt.state)
        else {
            if let tombstone = tombstonesByKey[key], now < tombstone.forgetAt, tombstone.isLogout == logout {
                return .rejected(tombstone.ending.error)
            }
            return .rejected(
                CallbackError(
                    .unknownState,
                    logout
                        ? "no logout in progress has this state"
                        : "no login in progress has this state"))
        }
        guard pending.attempt.isLogout == logout else {
            return .rejected(
                CallbackError(
                    .unknownState,
                    logout
                        ? "no logout in progress has this state: it belongs to a login in progress, which a logout callback never ends"
                        : "no login in progress has this state: it belongs to a logout in progress, which a login callback never ends"))
        }
        guard pending.routeIndex == routeIndex else {
            return .rejected(
                CallbackError(
                    .unknownState,
                    "no login in progress on this route has this state: it belongs to a login begun on another route (a mix-up, RFC 9700 §4.4)"
                ))
        }
        return consume(pending, now: now)
    }

    /// A stateless callback: the route's single pending attempt takes it.
    mutating func claimStateless(routeIndex: Int, now: ClockInstant) -> Claim {
        guard let id = statelessPending[routeIndex], let pending = pendingByID[id] else {
            if let last = statelessLastEnding[routeIndex], now < last.forgetAt {
                return .rejected(last.ending.error)
            }
            return .rejected(CallbackError(.unknownState, "no login is in progress on this route"))
        }
        return consume(pending, now: now)
    }

    /// A logout callback without state on a route that accepts one: the route's pending
    /// logout takes it.
    mutating func claimUnboundLogout(routeIndex: Int, now: ClockInstant) -> Claim {
        guard let id = unboundLogoutPending[routeIndex], let pending = pendingByID[id] else {
            return .rejected(CallbackError(.unknownState, "no logout is in progress on this route"))
        }
        return consume(pending, now: now)
    }

    private mutating func consume(_ pending: Pending, now: ClockInstant) -> Claim {
        let attempt = pending.attempt
        let expired = now >= attempt.expiresAt
        let waiter = remove(pending, ending: expired ? .expired : .answered, now: now)
        waiter?.timer?.cancel()
        let receiver: Receiver = waiter.map { .waiter($0.continuation) } ?? .none
        return .claimed(attempt, receiver, expired: expired ? Ending.expired.error : nil)
    }

    /// Ends a pending attempt (cancel, timeout); returns its waiter to resume, if any.
    mutating func finish(_ id: UInt64, as ending: Ending, now: ClockInstant) -> Continuation? {
        guard let pending = pendingByID[id] else {
            // Already ended: only an open wait (none normally) is closed.
            let waiter = waiters.removeValue(forKey: id)
            waiter?.timer?.cancel()
            return waiter?.continuation
        }
        let waiter = remove(pending, ending: ending, now: now)
        waiter?.timer?.cancel()
        return waiter?.continuation
    }

    private mutating func remove(_ pending: Pending, ending: Ending, now: ClockInstant) -> Waiter? {
        let attempt = pending.attempt
        pendingByID[attempt.id] = nil
        idByKey[pending.key] = nil
        if pending.stateless { statelessPending[pending.routeIndex] = nil }
        if pending.unboundLogout { unboundLogoutPending[pending.routeIndex] = nil }
        let lifetime = Duration.nanoseconds(attempt.expiresAt.nanoseconds &- attempt.createdAt.nanoseconds)
        let tombstone = Tombstone(
            ending: ending, forgetAt: max(now, attempt.expiresAt).advanced(by: lifetime),
            isLogout: attempt.isLogout)
        tombstonesByKey[pending.key] = tombstone
        tombstonesByID[attempt.id] = tombstone
        if pending.stateless { statelessLastEnding[pending.routeIndex] = tombstone }
        return waiters.removeValue(forKey: attempt.id)
    }

    /// A result nobody received yet: kept for a later `callback(for:)`, until forgotten.
    mutating func keepUnclaimed(_ result: Result<Delivery, CallbackError>, for attempt: LoginAttempt) {
        unclaimed[attempt.id] = (
            result,
            attempt.expiresAt.advanced(
                by: .nanoseconds(attempt.expiresAt.nanoseconds &- attempt.createdAt.nanoseconds))
        )
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
        if let kept = unclaimed.removeValue(forKey: attempt.id) { return .immediate(kept.result, expiredWaiter: nil) }
        guard let pending = pendingByID[attempt.id], pending.attempt.route == attempt.route else {
            if let tombstone = tombstonesByID[attempt.id] { return .immediate(.failure(tombstone.ending.error), expiredWaiter: nil) }
            return .immediate(
                .failure(CallbackError(.unknownState, "this router has no such login in progress")),
                expiredWaiter: nil)
        }
        if now >= attempt.expiresAt {
            // Another task may already be waiting (no sweep has run since the expiry).
            let earlier = remove(pending, ending: .expired, now: now)
            earlier?.timer?.cancel()
            return .immediate(.failure(Ending.expired.error), expiredWaiter: earlier?.continuation)
        }
        guard waiters[attempt.id] == nil else {
            return .immediate(
                .failure(CallbackError(.conflict, "another task is already waiting for this login")),
                expiredWaiter: nil)
        }
        if timeout <= .zero {
            _ = remove(pending, ending: .timedOut, now: now)
            return .immediate(
                .failure(CallbackError(.timeout, "no callback had arrived, and the wait allowed no time")),
                expiredWaiter: nil)
        }
        waiters[attempt.id] = Waiter(continuation: continuation, token: token, timer: nil)
        return .waiting
    }

    /// Gives the wait `token` its timer; false when that wait has already ended (the
    /// caller then cancels the timer).
    mutating func attachTimer(_ timer: Task<Void, Never>, to attempt: LoginAttempt, token: UInt64) -> Bool {
        guard waiters[attempt.id]?.token == token else { return false }
        waiters[attempt.id]?.timer = timer
        return true
    }

    /// Ends the wait `token` (its timeout or its task's cancellation) if it is still open:
    /// finishes the attempt and returns the continuation to resume, exactly once.
    mutating func endWait(of attempt: LoginAttempt, token: UInt64, as ending: Ending, now: ClockInstant) -> Continuation? {
        guard waiters[attempt.id]?.token == token else { return nil }
        return finish(attempt.id, as: ending, now: now)
    }

    /// Forgets expired attempts and old tombstones, at most about once a second, so that
    /// nothing grows without bound and dispatch stays O(1) amortised.
    mutating func sweep(now: ClockInstant) -> [Continuation] {
        guard now >= nextSweep else { return [] }
        nextSweep = now.advanced(by: .seconds(1))
        var expiredWaiters: [Continuation] = []
        for (_, pending) in pendingByID where now >= pending.attempt.expiresAt {
            if let waiter = remove(pending, ending: .expired, now: now) {
                waiter.timer?.cancel()
                expiredWaiters.append(waiter.continuation)
            }
        }
        tombstonesByKey = tombstonesByKey.filter { now < $0.value.forgetAt }
        tombstonesByID = tombstonesByID.filter { now < $0.value.forgetAt }
        statelessLastEnding = statelessLastEnding.filter { now < $0.value.forgetAt }
        unclaimed = unclaimed.filter { now < $0.value.forgetAt }
        return expiredWaiters
    }
}
