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

/// Ties each callback to the one login attempt that started it and delivers it exactly once.
///
/// Built by ``RouterBuilder``; its routes are frozen. `handle(_:)` is synchronous (call it
/// from `onOpenURL`, an app delegate, a C callback or the helper binary) and
/// thread-safe: the mutable part (pending attempts, waiters, tombstones) sits behind one
/// lock (`Locked`: `os_unfair_lock` on Darwin, a pthread mutex elsewhere, since
/// `Synchronization.Mutex` needs macOS 15 / iOS 18). A lock rather than an actor because every critical
/// section is short and never suspends, and because callers must be able to hand a callback
/// over without `await`.
///
/// Order of checks for a callback (the first failure is reported):
/// 1. syntax (`ParseError` reasons), 2. a route whose redirect URI matches (`no_route`,
/// `userinfo_not_allowed`), 3. the route's dialect rules, 4. the attempt: matched by state
/// in constant time and consumed (`state_missing`, `unknown_state`, `replayed`,
/// `attempt_expired`, `cancelled`), then its issuer (`issuer_mismatch`, `issuer_missing`).
public final class CallbackRouter: Sendable {
    let routes: [Route]
    let clock: any AttemptClock
    let limits: ParsingLimits
    let maxPendingAttempts: Int
    let book: Locked<AttemptBook>
    /// The book's state hasher, readable without the lock (it never changes).
    let stateHasher: SipHash128
    /// The store of consumed states shared with other routers, if any (``ConsumedStateStore``).
    let consumedStates: (any ConsumedStateStore)?

    init(
        routes: [Route], clock: any AttemptClock, limits: ParsingLimits, maxPendingAttempts: Int, maxRememberedEndings: Int,
        consumedStates: (any ConsumedStateStore)? = nil
    ) {
        self.routes = routes
        self.consumedStates = consumedStates
        self.clock = clock
        self.limits = limits
        self.maxPendingAttempts = maxPendingAttempts
        self.stateHasher = SipHash128.random()
        self.book = Locked(AttemptBook(hasher: stateHasher, maxEnded: maxRememberedEndings))
    }

    /// The ids of the registered routes, in registration order.
    public var routeIDs: [RouteID] { routes.map(\.id) }

    /// How many attempts are pending (begun, not yet answered, cancelled or expired).
    public var pendingCount: Int {
        let now = clock.now()
        let (count, expired) = book.withLock { book in
            let expired = book.sweep(now: now)
            return (book.pendingCount, expired)
        }
        Self.resumeExpired(expired)
        return count
    }

    /// Ends expired attempts (see ``AttemptBook/sweep(now:)``) and resumes their waiters.
    private func sweepExpired() {
        let now = clock.now()
        Self.resumeExpired(book.withLock { $0.sweep(now: now) })
    }

    static func resumeExpired(_ waiters: [AttemptBook.Continuation]) {
        for waiter in waiters {
            waiter.resume(returning: .failure(AttemptBook.Ending.expired.error))
        }
    }

    // MARK: Beginning and cancelling

    /// Starts a login on a route: fresh state, PKCE pair and nonce, registered as pending.
    ///
    /// Throws `no_route` for an unknown route id, and `conflict` when the route's dialect has
    /// no state (Prelude, Zephr, Ory) and another attempt is already pending there
    /// ("another login is already in progress"), or when too many attempts are pending;
    /// `invalid_configuration` for a lifetime (this one or the route's) that is not more than
    /// zero and at most ``SealedAttempt/maximumLifetime`` (30 days), so that every attempt
    /// seals and restores.
    public func beginLogin(on routeID: RouteID, lifetime: Duration? = nil) throws(CallbackError) -> LoginAttempt {
        try start(on: routeID, sending: nil, lifetime: lifetime)
    }

    /// Starts a login that sends `redirectURI`, the exact redirect URI of this login: the
    /// route's own, or for a loopback route the one with the port the receiver listens on
    /// (`http://127.0.0.1:49152/callback` for a route registered as
    /// `http://127.0.0.1/callback`; RFC 8252 §7.3). The attempt keeps it: its
    /// ``LoginAttempt/redirectURI``, its authorization request, the ``Delivery`` of its
    /// callback and its sealed record all carry it, so the token request sends what the
    /// authorization request sent (RFC 6749 §4.1.3) and a restored attempt knows the port
    /// to listen on again.
    ///
    /// Throws `invalid_configuration` when `redirectURI` is not one the route's registered
    /// redirect URI answers (another scheme, host, path or query; another port unless the
    /// route is loopback), or is loopback without a port; otherwise as ``beginLogin(on:lifetime:)``.
    public func beginLogin(on routeID: RouteID, redirectURI: String, lifetime: Duration? = nil) throws(CallbackError) -> LoginAttempt {
        try start(on: routeID, sending: redirectURI, lifetime: lifetime)
    }

    /// Starts a Clerk magic-link sign-in (or sign-up) bound to its flow: `flowID` is the id
    /// Clerk returned when it sent the link (the sign-in's `sia_…` or sign-up's `sua_…`, the
    /// `flow_id` the link will carry). The attempt (``LoginAttempt/flowID``, kept by its
    /// sealed record) takes only a `magic_link` for that flow, compared in constant time; a
    /// link for another flow is `state_mismatch`, reaches no receiver and leaves the attempt
    /// pending, as clerk-ios and clerk-android refuse a link that is not their pending
    /// flow's. Send the attempt's `pkce.challenge` when asking Clerk for the link, and redeem
    /// the delivered `approval_token` with its `pkce.verifier`.
    ///
    /// Throws `invalid_configuration` when the route's dialect is not `clerk` or `flowID` is
    /// not 1 to 128 ASCII letters, digits, `_` or `-`; otherwise as ``beginLogin(on:lifetime:)``.
    /// An attempt begun without a flow id takes a magic link for any flow, as the SDKs do
    /// for a pending flow stored without one.
    public func beginLogin(on routeID: RouteID, flowID: String, lifetime: Duration? = nil) throws(CallbackError) -> LoginAttempt {
        try LoginAttempt.checkFlowID(flowID)
        let index = try routeIndex(of: routeID)
        guard routes[index].dialect == .clerk else {
            throw CallbackError(
                .invalidConfiguration,
                "route '\(routeID)' reads the \(routes[index].dialect) dialect: a magic-link flow id binds only a Clerk login; begin it on a route with dialect clerk"
            )
        }
        return try start(on: routeID, sending: nil, lifetime: lifetime, flowID: flowID)
    }

    /// The old name of ``beginLogin(on:lifetime:)``: a login begins as a logout does
    /// (``beginLogout(on:endSessionEndpoint:idTokenHint:clientID:logoutHint:uiLocales:extraParameters:style:lifetime:)``), by its name.
    @available(*, deprecated, renamed: "beginLogin(on:lifetime:)")
    public func begin(on routeID: RouteID, lifetime: Duration? = nil) throws(CallbackError) -> LoginAttempt {
        try beginLogin(on: routeID, lifetime: lifetime)
    }

    /// The old name of ``beginLogin(on:redirectURI:lifetime:)``.
    @available(*, deprecated, renamed: "beginLogin(on:redirectURI:lifetime:)")
    public func begin(on routeID: RouteID, redirectURI: String, lifetime: Duration? = nil) throws(CallbackError) -> LoginAttempt {
        try beginLogin(on: routeID, redirectURI: redirectURI, lifetime: lifetime)
    }

    private func start(
        on routeID: RouteID, sending: String?, lifetime: Duration?, flowID: String? = nil
    ) throws(CallbackError) -> LoginAttempt {
        let index = try routeIndex(of: routeID)
        let route = routes[index]
        let redirectURI = try sending.map { (exact) throws(CallbackError) in try route.exactRedirectURI(exact) } ?? route.redirectURI
        let lifetime = lifetime ?? route.attemptLifetime
        let nanoseconds = try SealedAttempt.checkLifetime(lifetime, of: "the attempt's lifetime")
        let now = clock.now(), wallNow = clock.wallClockNanoseconds()
        let secrets = AttemptSecrets()
        return try register(routeIndex: index, purpose: .login) { id in
            LoginAttempt(
                id: id, route: route.id, state: secrets.state, pkce: secrets.pkce, nonce: secrets.nonce,
                redirectURI: redirectURI, dialect: route.dialect, expectedIssuer: route.issuer,
                createdAt: now, expiresAt: now.advanced(by: .nanoseconds(nanoseconds)), isLogout: false,
                expiresAtWallClock: wallNow &+ nanoseconds, flowID: flowID)
        }
    }

    func routeIndex(of routeID: RouteID) throws(CallbackError) -> Int {
        guard let index = routes.firstIndex(where: { $0.id == routeID }) else {
            throw CallbackError(.noRoute, "no route is named '\(routeID)'")
        }
        return index
    }

    /// Registers the attempt `make` builds from a fresh id, under the lock, after the
    /// checks every attempt passes: the pending limit, one login per stateless route, one
    /// logout per route that accepts logouts without state, and (`restoringState`) no attempt
    /// with the same state pending or ended here.
    func register(
        routeIndex index: Int, purpose: AttemptPurpose, restoringState: String? = nil, restoringExpiry: Int64 = .max,
        _ make: (UInt64) -> LoginAttempt
    ) throws(CallbackError) -> LoginAttempt {
        let route = routes[index]
        let now = clock.now()
        let stateless = purpose == .login && route.isStateless
        let unboundLogout = purpose == .logout && route.acceptsLogoutWithoutState
        let (result, expired) = book.withLock { book -> (Result<LoginAttempt, CallbackError>, [AttemptBook.Continuation]) in
            let expired = book.sweep(now: now)
            if let state = restoringState,
                let refusal = book.refusalToRestore(key: book.key(for: state), expiresAtWallClock: restoringExpiry, now: now)
            {
                return (.failure(refusal), expired)
            }
            guard book.pendingCount < maxPendingAttempts else {
                return (
                    .failure(CallbackError(.conflict, "too many logins are in progress (\(maxPendingAttempts)); try again later")), expired
                )
            }
            if stateless, book.statelessPending[index] != nil {
                return (.failure(CallbackError(.conflict, "another login is already in progress on route '\(route.id)'")), expired)
            }
            if unboundLogout, book.unboundLogoutPending[index] != nil {
                return (
                    .failure(
                        CallbackError(
                            .conflict,
                            "another logout is already in progress on route '\(route.id)', which accepts logouts without state")), expired
                )
            }
            book.nextID += 1
            let attempt = make(book.nextID)
            book.insert(attempt, routeIndex: index, stateless: stateless, unboundLogout: unboundLogout)
            return (.success(attempt), expired)
        }
        Self.resumeExpired(expired)
        return try result.get()
    }

    /// Cancels a pending attempt: a later callback for it is `cancelled`, and a task
    /// awaiting it resumes with `cancelled`. Cancelling a finished attempt does nothing.
    public func cancel(_ attempt: LoginAttempt) {
        let now = clock.now()
        let waiter = book.withLock { book in
            book.finish(attempt.id, as: .cancelled, now: now)
        }
        waiter?.resume(returning: .failure(CallbackError(.cancelled, "the login was cancelled")))
    }

    /// Ends `attempt` with `error`: for a receiver that saw a callback carrying the attempt's
    /// state which ``handle(_:)-(String)`` refused before it could reach the attempt (its
    /// syntax: `code=%FF`, too many parameters). The attempt's waiter gets `error` (or a later
    /// ``callback(for:timeout:)`` does); a repeat of the callback is then `cancelled`. Only
    /// the holder of the state can produce such a callback, so no one else can end a login
    /// this way. Does nothing to an attempt that already ended.
    package func refuse(_ attempt: LoginAttempt, with error: CallbackError) {
        let now = clock.now()
        let waiter = book.withLock { book in book.refuse(attempt.id, with: error, now: now) }
        waiter?.resume(returning: .failure(error))
    }

    // MARK: Handling callbacks

    /// Handles a callback URL string. See ``handle(_:)-(CallbackURL)``.
    @discardableResult
    public func handle(_ url: String) throws(CallbackError) -> Delivery {
        let parsed: CallbackURL
        do { parsed = try CallbackURL(parsing: url, limits: limits) } catch {
            sweepExpired()
            let refusal = CallbackError(error)
            endAttempt(refusedBy: url, routeIndex: routeIndex(ofUnparsed: url), with: refusal)
            throw refusal
        }
        return try handle(parsed)
    }

    /// The route of a callback the parser refused, read from its text before any `?` or
    /// `#` (scheme, authority, path), when that much parses and matches a route: so that a
    /// refusal for the query's syntax (`code=%FF`, 65 parameters) can still be tied to the
    /// attempt whose state it carries. Nil otherwise (then the refusal ends nothing).
    private func routeIndex(ofUnparsed text: String) -> Int? {
        let end = text.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? text.utf8.endIndex
        guard end != text.utf8.endIndex, let prefix = try? CallbackURL(parsing: String(text[..<end]), limits: limits) else {
            return nil
        }
        return try? findRoute(for: prefix)
    }

    /// Ends the pending attempt whose state a refused callback carries (read from its raw
    /// text, ``RawState``: the loopback receiver's tie, so a callback refused for its syntax
    /// is tied too), on the route it arrived at, with `refusal`: delivered to the task
    /// waiting for it, else the route's handler (a logout's: its logout handler), else kept
    /// for a later ``callback(for:timeout:)``. Only the holder of the state can send such a
    /// callback; one without a pending attempt's state ends nothing.
    private func endAttempt(refusedBy text: String, routeIndex: Int?, with refusal: CallbackError) {
        guard let routeIndex, refusal.reason != .noRoute else { return }
        let route = routes[routeIndex]
        // A login's state comes where the route's responses do; a logout's in the query
        // (RP-Initiated Logout 1.0 §3).
        let fragment = route.responseMode == .fragment
        if let state = RawState.value(in: text, fragment: fragment) {
            state.withUnsafeBufferPointer {
                endAttempt(carrying: $0, logouts: !fragment, routeIndex: routeIndex, with: refusal)
            }
        }
        if fragment, let state = RawState.value(in: text) {
            state.withUnsafeBufferPointer {
                endAttempt(carrying: $0, logouts: true, logins: false, routeIndex: routeIndex, with: refusal)
            }
        }
    }

    /// Ends the pending attempt with `state` on the route (a login when `logins`, a logout
    /// when `logouts`) as `ending`, and tells its receiver `refusal` (see
    /// ``AttemptBook/refuse(state:key:routeIndex:logins:logouts:with:keepLogin:keepLogout:as:now:)``).
    func endAttempt(
        carrying state: UnsafeBufferPointer<UInt8>, logouts: Bool, logins: Bool = true, routeIndex: Int, with refusal: CallbackError,
        as ending: AttemptBook.Ending = .refused
    ) {
        let route = routes[routeIndex]
        let now = clock.now()
        let key = StateKey(utf8: state, hasher: stateHasher)
        let receiver = book.withLock { book in
            book.refuse(
                state: state, key: key, routeIndex: routeIndex, logins: logins, logouts: logouts, with: refusal,
                keepLogin: route.handler == nil, keepLogout: route.logoutHandler == nil, as: ending, now: now)
        }
        switch receiver {
        case .none: return
        case .waiter(let continuation): continuation.resume(returning: .failure(refusal))
        case .handler(let logout): (logout ? route.logoutHandler : route.handler)?(.failure(refusal))
        }
    }

    /// Handles a parsed callback: finds its route, checks the dialect rules, matches and
    /// consumes its attempt, and delivers it to exactly one receiver: the task awaiting the
    /// attempt, else the route's handler, else it is kept for a later
    /// ``callback(for:timeout:)``. Returns the delivery; throws the rejection otherwise.
    ///
    /// A rejection tied to an attempt by its state (`issuer_mismatch`, `issuer_missing`,
    /// `attempt_expired`) ends that attempt and is delivered to its receiver too. So does a
    /// refusal of the callback's syntax or of its dialect's rules (`code=%FF`, a parameter
    /// twice, a missing `code`) when the callback, on the route it arrived at, carries
    /// exactly one `state` (read from its raw text, as the loopback receiver reads it) that
    /// is a pending attempt's: only the holder of the state can send it, and the waiting
    /// task hears the reason at once instead of waiting out its timeout. A repeat, or a
    /// genuine callback after it, is then `cancelled`. One tied to no attempt (no route, an
    /// unknown state, no state, a stateless route's login, an unbound outcome) reaches no
    /// attempt: anyone can send such a callback, and it must not end a login in progress.
    ///
    /// An *unbound* outcome (``CallbackOutcome/isUnbound``: no state and no secret, such as
    /// Clerk's `clerk_failure`, `account_transfer` and `bare_callback`, or a profile's
    /// provider error without state) is reported to the caller only, as `state_missing` whose
    /// detail names it: no handler, no waiter, and the pending attempt stays exactly as it was,
    /// so a forged one cannot end a login that a real answer (Clerk's nonce) would complete.
    /// The app confirms with the provider (clerk-ios reloads the sign-in) and then cancels the
    /// attempt (``cancel(_:)-(LoginAttempt)``) or keeps waiting. A `bare_callback` that ends a
    /// pending logout on the route is delivered as that logout's `logout_complete`.
    ///
    /// Every call, accepted or not, also ends the attempts that have expired (at most about
    /// once a second), resuming their waiters with `attempt_expired`: a task awaiting an
    /// expired login never depends on a later `begin`. The callback's own attempt is
    /// claimed first, so a late callback is still told `attempt_expired` and delivered to
    /// the attempt's receiver.
    @discardableResult
    public func handle(_ url: CallbackURL) throws(CallbackError) -> Delivery {
        // The claim's critical section sweeps as well (one clock read, one lock round trip);
        // every other way out sweeps here.
        var swept = false
        defer { if !swept { sweepExpired() } }
        let routeIndex = try findRoute(for: url)
        let route = routes[routeIndex] // one reference: a route's fields live in one box
        let outcome: CallbackOutcome
        do {
            outcome = try route.classify(url)
        } catch  where error.reason == .missingParameter || error.reason == .parametersInQuery {
            // No login's answer: it may be the end of a logout (RP-Initiated Logout 1.0 §3),
            // whose state comes in the query even on a route whose logins answer in the fragment.
            do { return try handleLogout(url, routeIndex: routeIndex, route: route, loginError: error) } catch {
                // Neither: refused. With a pending attempt's state, that attempt's answer.
                endAttempt(refusedBy: url.string, routeIndex: routeIndex, with: error)
                throw error
            }
        } catch {
            // The dialect refused it (a parameter twice, a malformed code): with a pending
            // attempt's state it is that attempt's answer, and ends it.
            endAttempt(refusedBy: url.string, routeIndex: routeIndex, with: error)
            throw error
        }
        if outcome.isUnbound {
            let refusal = Self.unboundRefusal(outcome)
            if outcome.kind == .bareCallback {
                // A Clerk callback with nothing in it may be the end of a logout on this route.
                return try handleLogout(url, routeIndex: routeIndex, route: route, loginError: refusal)
            }
            // A provider error without the app's state (a route profile let it through), or
            // Clerk's failure, transfer or bare callback: anyone can send one, so it reaches no
            // attempt and ends none. A pending login stays pending: a real answer still completes it.
            throw refusal
        }

        let issuer = Self.checkIssuer(of: outcome, route: route)
        let keepIfUnreceived = route.handler == nil
        let now = clock.now()
        // Boxed now, moved in: the delivery made under the lock then copies a reference.
        let boxed = Delivery.BoxedOutcome(consume outcome)

        // Claim, decide and (when nobody is there to receive it) keep the result in one
        // critical section, so a waiter arriving meanwhile can never miss it. The state is
        // read as bytes from the callback (no `String` made), hashed, and compared in
        // constant time.
        let settlement: Settlement
        if route.isStateless {
            // A magic link names its flow: an attempt bound to a flow takes only its own.
            let flowID = boxed.value.kind == .magicLink ? boxed.value.flowID : nil
            settlement = settle(
                state: nil, logout: false, routeIndex: routeIndex, boxed: boxed, issuer: issuer,
                keepIfUnreceived: keepIfUnreceived, now: now, flowID: flowID)
        } else {
            // With a shared store of consumed states, the first router to insert the state's
            // digest delivers; any other refuses (before the claim, outside the lock).
            if let store = consumedStates,
                let refusal = boxed.value.withStateUTF8({
                    recordConsumption(in: store, state: $0, logout: false, routeIndex: routeIndex)
                }) ?? nil
            {
                throw refusal
            }
            guard
                let settled = boxed.withStateBytes({
                    settle(
                        state: $0, logout: false, routeIndex: routeIndex, boxed: boxed, issuer: issuer,
                        keepIfUnreceived: keepIfUnreceived, now: now)
                })
            else {
                throw CallbackError(.stateMissing, "the callback carries no state, so it cannot be tied to a login")
            }
            settlement = settled
        }
        swept = true
        switch settlement.result {
        case .rejected(let error):
            // Not tied to any attempt: only the caller hears of it.
            Self.resumeExpired(settlement.expired)
            throw error
        case .tied(let result):
            if let waiter = settlement.waiter {
                waiter.continuation.resume(returning: result)
            } else {
                route.handler?(result)
            }
            Self.resumeExpired(settlement.expired)
            return try result.get()
        }
    }

    /// The refusal of an unbound outcome (``CallbackOutcome/isUnbound``): `state_missing`,
    /// its detail naming the outcome and the provider's code (never a secret: `error` and
    /// Clerk's normalised `__clerk_error_code`).
    static func unboundRefusal(_ outcome: CallbackOutcome) -> CallbackError {
        switch outcome.kind {
        case .clerkFailure, .accountTransfer:
            return CallbackError(
                .stateMissing,
                "Clerk reported \(outcome.kind) '\(outcome.clerkErrorCode ?? "")' with no state and no secret, so it cannot be tied to a login; no login was ended: ask Clerk for the sign-in's status, then cancel or keep the attempt"
            )
        case .bareCallback:
            return CallbackError(
                .stateMissing,
                "the callback carries no result (bare_callback), so it cannot be tied to a login; no login was ended: ask Clerk for the sign-in's status, then cancel or keep the attempt"
            )
        default:
            return CallbackError(
                .stateMissing,
                "the provider reported '\(outcome.value("error").map { ParameterName.shown($0) } ?? "an error")' without a state, so it cannot be tied to a login; no login was ended"
            )
        }
    }

    /// What the claim's critical section decided. A concrete type on purpose: returning a
    /// tuple through `withStateUTF8`'s generic optional made the compiler copy and destroy
    /// it (a `Result` and a waiter inside) through runtime value witnesses, ~900
    /// instructions a callback.
    struct Settlement {
        enum Answer {
            /// The callback ties to an attempt (which it ended): its receiver gets this.
            case tied(Result<Delivery, CallbackError>)
            /// The callback ties to no attempt: only the caller hears of it.
            case rejected(CallbackError)
        }
        let result: Answer
        let waiter: AttemptBook.Waiter?
        let expired: [AttemptBook.Continuation]
    }

    /// Claims the callback's attempt by its state (`state` nil: the route's one stateless
    /// login, or for a `logout` its one logout without state), decides the result, keeps it
    /// when nobody is there to receive it, and sweeps: one critical section, the same for
    /// logins and logouts (only the attempts a claim may take differ: a login's callback
    /// never ends a logout, nor a logout's a login).
    func settle(
        state: UnsafeBufferPointer<UInt8>?, logout: Bool, routeIndex: Int, boxed: Delivery.BoxedOutcome,
        issuer: IssuerVerdict, keepIfUnreceived: Bool, now: ClockInstant, flowID: String? = nil
    ) -> Settlement {
        let key = state.map { StateKey(utf8: $0, hasher: stateHasher) }
        return book.withLock { book in
            let claim =
                if let state, let key {
                    book.claim(key: key, state: state, routeIndex: routeIndex, logout: logout, now: now)
                } else if logout {
                    book.claimUnboundLogout(routeIndex: routeIndex, now: now)
                } else {
                    book.claimStateless(routeIndex: routeIndex, flowID: flowID, now: now)
                }
            // The sweep comes after the claim: a late callback is still told
            // `attempt_expired` and delivered to its attempt's receiver.
            switch claim {
            case .rejected(let error):
                return Settlement(result: .rejected(error), waiter: nil, expired: book.sweep(now: now))
            case let .claimed(entry, waiter, late):
                let result: Result<Delivery, CallbackError> =
                    if late {
                        .failure(AttemptBook.Ending.expired.error)
                    } else if let issuerError = issuer.error(boxed, expected: routes[routeIndex].issuer) {
                        .failure(issuerError)
                    } else {
                        .success(Delivery(boxed: boxed, attempt: entry.attempt))
                    }
                if waiter == nil, keepIfUnreceived { book.keepUnclaimed(result, in: entry) }
                return Settlement(result: .tied(result), waiter: waiter, expired: book.sweep(now: now))
            }
        }
    }

    private func findRoute(for url: CallbackURL) throws(CallbackError) -> Int {
        var userinfoRefusal: CallbackError?
        for index in routes.indices {
            do {
                try routes[index].checkRedirect(url)
                return index
            } catch ReasonCode.userinfoNotAllowed {
                userinfoRefusal = CallbackError(.userinfoNotAllowed, "the callback carries userinfo")
            } catch {
                continue
            }
        }
        if let userinfoRefusal { throw userinfoRefusal }
        throw CallbackError(.noRoute, "no registered redirect URI matches the callback")
    }

    /// What the issuer check decided. A small enum rather than a `CallbackError?` carried
    /// into the claim: a `CallbackError` optional is large enough that the compiler copied
    /// and destroyed it through value witnesses (~66 instructions a callback).
    enum IssuerVerdict {
        case accepted, missing, mismatched

        /// The rejection, made only when there is one; a mismatch names both issuers
        /// (public identifiers, RFC 9207), read from the callback and the route.
        func error(_ boxed: Delivery.BoxedOutcome, expected: String?) -> CallbackError? {
            switch self {
            case .accepted: nil
            case .missing: CallbackError(.issuerMissing, "the callback has no 'iss' and the route requires it")
            case .mismatched:
                CallbackError.issuerMismatch(received: boxed.value.value("iss") ?? "", expected: expected ?? "")
            }
        }
    }

    private static func checkIssuer(of outcome: CallbackOutcome, route: Route) -> IssuerVerdict {
        guard let expected = route.issuer else { return .accepted }
        guard let issuer = outcome.value("iss") else {
            return route.requiresIssuer ? .missing : .accepted
        }
        return constantTimeEquals(issuer, expected) ? .accepted : .mismatched
    }

    // MARK: Waiting

    /// Waits for the callback of `attempt`. Resumes exactly once: with the delivery, with
    /// the rejection tied to the attempt (`attempt_expired` too, once a `begin`, `handle` or
    /// `pendingCount` finds it expired, or when its expiry comes before `timeout` is up: a
    /// wait never outlasts its attempt, so any `Duration`, `.seconds(Int64.max)` for
    /// "until the attempt expires" too, is a valid timeout), with `timeout` after `timeout` (at once when
    /// `timeout` is zero or negative and no result is there yet), or with `cancelled`
    /// (``cancel(_:)`` or the task's cancellation). Timing out or being cancelled ends the
    /// attempt: nothing is left pending.
    ///
    /// Only one task may wait for an attempt; a second gets `conflict`.
    public func callback(for attempt: LoginAttempt, timeout: Duration) async throws(CallbackError) -> Delivery {
        let token = book.withLock { $0.makeWaitToken() }
        let result: Result<Delivery, CallbackError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: AttemptBook.Continuation) in
                let now = clock.now()
                let registration = book.withLock { book in
                    book.addWaiter(continuation, token: token, for: attempt, timeout: timeout, now: now)
                }
                switch registration {
                case let .immediate(result, expiredWaiter):
                    expiredWaiter?.resume(returning: .failure(AttemptBook.Ending.expired.error))
                    continuation.resume(returning: result)
                case .waiting:
                    // The timer starts only now that the waiter is registered, so it always
                    // finds the wait it must end (or finds it already ended, and does nothing).
                    // The wait ends at the attempt's expiry at the latest: an attempt's
                    // lifetime is at most 30 days, so any `timeout` (`.seconds(Int64.max)`
                    // for "forever" too) becomes a sleep `Task.sleep` takes without trapping.
                    let (untilExpiry, expiresFirst) = Self.timerLength(timeout: timeout, now: now, expiresAt: attempt.expiresAt)
                    let timer = Task { [weak self] in
                        do { try await Task.sleep(for: untilExpiry) } catch { return }
                        self?.endWaiting(
                            attempt, token: token,
                            with: expiresFirst
                                ? AttemptBook.Ending.expired.error
                                : CallbackError(.timeout, "no callback arrived within \(timeout)"))
                    }
                    if !book.withLock({ $0.attachTimer(timer, to: attempt, token: token) }) { timer.cancel() }
                    if Task.isCancelled {
                        endWaiting(
                            attempt, token: token,
                            with: CallbackError(.cancelled, "the task waiting for the login was cancelled"))
                    }
                }
            }
        } onCancel: {
            endWaiting(attempt, token: token, with: CallbackError(.cancelled, "the task waiting for the login was cancelled"))
        }
        return try result.get()
    }

    /// How long a wait's timer sleeps: `timeout`, or the time left until the attempt's
    /// expiry when that comes first (then the wait ends as `attempt_expired`).
    static func timerLength(timeout: Duration, now: ClockInstant, expiresAt: ClockInstant) -> (Duration, expiresFirst: Bool) {
        let (left, overflow) = expiresAt.nanoseconds.subtractingReportingOverflow(now.nanoseconds)
        let untilExpiry = overflow ? Int64.max : max(left, 0)
        let wanted = timeout.nanosecondsSaturated
        return wanted < untilExpiry ? (timeout, false) : (.nanoseconds(untilExpiry), true)
    }

    /// Whether a task is waiting for `attempt` (it called ``callback(for:timeout:)`` and has
    /// not been resumed). Not API: for a synchronous harness (the router fuzzer) that must
    /// know a waiter has registered before it acts, since the waiter registers from its
    /// own task.
    @_spi(Testing) public func isWaiting(for attempt: LoginAttempt) -> Bool {
        book.withLock { $0.isWaiting(for: attempt.id) }
    }

    /// Ends the wait `token` (timeout or cancellation) if it is still open: finishes the
    /// attempt and resumes its waiter, exactly once. Another task's wait on the same attempt
    /// (a second waiter refused with `conflict`, then cancelled) ends nothing.
    private func endWaiting(_ attempt: LoginAttempt, token: UInt64, with error: CallbackError) {
        let now = clock.now()
        let waiter = book.withLock { book in
            let ending: AttemptBook.Ending =
                switch error.reason {
                case .timeout: .timedOut
                case .attemptExpired: .expired
                default: .cancelled
                }
            return book.endWait(of: attempt, token: token, as: ending, now: now)
        }
        waiter?.resume(returning: .failure(error))
    }
}
