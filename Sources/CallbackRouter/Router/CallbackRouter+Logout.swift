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

extension CallbackRouter {
    // MARK: Logout

    /// Starts a logout on a route (OpenID Connect RP-Initiated Logout 1.0 §2): builds the
    /// end-session request whose `post_logout_redirect_uri` is the route's redirect URI and
    /// whose `state` is fresh (256 random bits), and registers a pending logout attempt.
    ///
    /// Its callback (the provider sends the browser back with the same state) is matched by
    /// state in constant time and delivered once as ``OutcomeKind/logoutComplete``, to the
    /// task awaiting it, else the route's `logoutHandler`, else kept for
    /// ``callback(for:timeout:)-(LogoutAttempt,_)``. A second callback is `replayed`, a
    /// late one `attempt_expired`; ``cancel(_:)-(LogoutAttempt)`` and timeouts work as for
    /// logins. A login's callback never completes a logout, nor a logout's a login.
    ///
    /// - Parameters:
    ///   - routeID: the route whose redirect URI is the post-logout redirect URI (registered
    ///     with the provider as such).
    ///   - endSessionEndpoint: the provider's `end_session_endpoint` (discovery), absolute
    ///     `https` (`http` only to a loopback IP literal); its own query is kept.
    ///   - idTokenHint: the ID token the provider issued at login (recommended: without it
    ///     most providers ask the user to confirm, and a redirect needs `clientID`).
    ///   - clientID: `client_id`, needed when there is no `idTokenHint` (§2).
    ///   - logoutHint: `logout_hint`, which user to log out (the provider decides its form).
    ///   - uiLocales: `ui_locales`, space-separated BCP 47 tags for the provider's pages.
    ///   - extraParameters: more query parameters, in order; one that would override a
    ///     parameter above is `invalid_configuration`.
    ///   - style: ``EndSessionRequest/Style/auth0ReturnTo`` for Auth0's `/v2/logout`,
    ///     which returns no state: the route must set `acceptsLogoutWithoutState`.
    ///   - lifetime: how long the logout stays pending; nil: the route's `attemptLifetime`.
    /// - Throws: `no_route` for an unknown route id; `invalid_configuration` for a bad
    ///   request (see ``EndSessionRequest``); `conflict` when too many attempts are pending,
    ///   or when the route accepts logouts without state and one is already pending.
    public func beginLogout(
        on routeID: RouteID, endSessionEndpoint: String, idTokenHint: String? = nil,
        clientID: String? = nil, logoutHint: String? = nil, uiLocales: String? = nil,
        extraParameters: [(String, String)] = [], style: EndSessionRequest.Style = .rpInitiated,
        lifetime: Duration? = nil
    ) throws(CallbackError) -> LogoutAttempt {
        let index = try routeIndex(of: routeID)
        let route = routes[index]
        if style == .auth0ReturnTo && !route.acceptsLogoutWithoutState {
            throw CallbackError(
                .invalidConfiguration,
                "Auth0's returnTo logout sends no state back, and route '\(route.id)' does not accept logouts without state (acceptsLogoutWithoutState)"
            )
        }
        let secrets = AttemptSecrets()
        let request = try EndSessionRequest(
            endpoint: endSessionEndpoint, postLogoutRedirectURI: route.redirectURI.url.string,
            state: style == .rpInitiated ? secrets.state : nil, idTokenHint: idTokenHint, clientID: clientID,
            logoutHint: logoutHint, uiLocales: uiLocales, extraParameters: extraParameters, style: style)
        let lifetime = lifetime ?? route.attemptLifetime
        let nanoseconds = try SealedAttempt.checkLifetime(lifetime, of: "the logout's lifetime")
        let now = clock.now(), wallNow = clock.wallClockNanoseconds()
        let attempt = try register(routeIndex: index, purpose: .logout) { id in
            LoginAttempt(
                id: id, route: route.id, state: secrets.state, pkce: secrets.pkce, nonce: secrets.nonce,
                redirectURI: route.redirectURI, dialect: route.dialect, expectedIssuer: route.issuer,
                createdAt: now, expiresAt: now.advanced(by: .nanoseconds(nanoseconds)), isLogout: true,
                expiresAtWallClock: wallNow &+ nanoseconds)
        }
        return LogoutAttempt(attempt: attempt, request: request)
    }

    /// Waits for the logout's callback: ``callback(for:timeout:)-(LoginAttempt,_)`` on its attempt.
    public func callback(for logout: LogoutAttempt, timeout: Duration) async throws(CallbackError) -> Delivery {
        try await callback(for: logout.attempt, timeout: timeout)
    }

    /// Cancels a pending logout: a later callback for it is `cancelled`.
    public func cancel(_ logout: LogoutAttempt) { cancel(logout.attempt) }

    /// A callback the login reading refused with `missing_parameter` (or, on a fragment
    /// route, `parameters_in_query`): when it is shaped like
    /// the end of a logout and a pending logout on this route has its state (or, on a route
    /// that accepts logouts without state, has none), that logout takes it. Otherwise the
    /// login reading's refusal stands, so a callback that answers no logout is refused as
    /// a login's callback is.
    func handleLogout(
        _ url: CallbackURL, routeIndex: Int, route: Route,
        loginError: CallbackError
    ) throws(CallbackError) -> Delivery {
        let logoutOutcome: CallbackOutcome?
        do {
            logoutOutcome = try CallbackClassifier.classifyLogout(
                url, dialect: route.dialect, profiles: route.profiles,
                allowingNoState: route.acceptsLogoutWithoutState)
        } catch  where error.reason == .parametersInFragment {
            // A logout ends in the query (RP-Initiated Logout 1.0 §3): parameters in the
            // fragment make it no logout, and the login reading's refusal stands.
            throw loginError
        }
        guard let outcome = logoutOutcome else { throw loginError }
        let now = clock.now()
        let keepIfUnreceived = route.logoutHandler == nil
        let boxed = Delivery.BoxedOutcome(outcome)
        // With a shared store of consumed states, as a login's callback (``recordConsumption(in:state:logout:routeIndex:)``).
        if let store = consumedStates, var state = outcome.state,
            let refusal = state.withUTF8({ recordConsumption(in: store, state: $0, logout: true, routeIndex: routeIndex) })
        {
            throw refusal
        }
        // The login's critical section (``settle(state:logout:routeIndex:boxed:issuer:keepIfUnreceived:now:)``),
        // claiming logouts only. A logout has no issuer to check (RP-Initiated Logout 1.0 §3).
        let settlement =
            if var state = outcome.state {
                state.withUTF8 {
                    settle(
                        state: $0, logout: true, routeIndex: routeIndex, boxed: boxed, issuer: .accepted,
                        keepIfUnreceived: keepIfUnreceived, now: now)
                }
            } else {
                settle(
                    state: nil, logout: true, routeIndex: routeIndex, boxed: boxed, issuer: .accepted,
                    keepIfUnreceived: keepIfUnreceived, now: now)
            }
        Self.resumeExpired(settlement.expired)
        let result: Result<Delivery, CallbackError>
        switch settlement.result {
        case .rejected(let error) where error.reason == .unknownState:
            // Answers no logout: the login reading's refusal, which says what is missing.
            throw CallbackError(
                loginError.reason, at: loginError.offset,
                loginError.detail + "; nor does it end a logout in progress (\(error.detail))")
        case .rejected(let error):
            throw error
        case .tied(let tied):
            result = tied
        }
        if let waiter = settlement.waiter {
            waiter.continuation.resume(returning: result)
        } else {
            route.logoutHandler?(result)
        }
        return try result.get()
    }
}
