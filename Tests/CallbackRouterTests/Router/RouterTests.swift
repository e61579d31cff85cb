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

import CallbackTestSupport
import Testing
@_spi(Testing) @testable import CallbackRouter

/// A router with one stateful (OAuth 2.0) route and one stateless (Prelude) route.
private func makeRouter(
    clock: ManualAttemptClock = ManualAttemptClock(), issuer: String? = nil,
    requiresIssuer: Bool = false,
    handler: CallbackHandler? = nil
) throws -> CallbackRouter {
    try RouterFixture.router(
        RouterFixture.oauth2("google", issuer: issuer, requiresIssuer: requiresIssuer, handler: handler),
        RouterFixture.prelude(handler: handler), clock: clock)
}

private func expectReason(
    _ reason: ReasonCode, _ body: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        try body()
        Issue.record("expected \(reason), got success", sourceLocation: sourceLocation)
    } catch {
        #expect((error as? CallbackError)?.reason == reason, "got \(error)", sourceLocation: sourceLocation)
    }
}

@Suite struct RouterDeliveryTests {
    @Test func deliversTheCallbackToTheAttemptWithItsState() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "google")
        let delivery = try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .authorizationCode)
        #expect(delivery.outcome.value("code") == "abc")
        #expect(router.pendingCount == 0)
    }

    @Test func refusesASecondDeliveryAsReplayed() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "google")
        let url = "com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)"
        try router.handle(url)
        expectReason(.replayed) { try router.handle(url) }
    }

    @Test func refusesAnUnknownState() throws {
        let router = try makeRouter()
        _ = try router.beginLogin(on: "google")
        expectReason(.unknownState) { try router.handle("com.example.app:/oauth2redirect?code=abc&state=forged") }
        #expect(router.pendingCount == 1, "a forged callback must not end the login in progress")
    }

    @Test func refusesACallbackWithoutStateOnAStatefulRoute() throws {
        let router = try makeRouter()
        _ = try router.beginLogin(on: "google")
        expectReason(.stateMissing) { try router.handle("com.example.app:/oauth2redirect?code=abc") }
    }

    @Test func refusesAForgedErrorResponseWithoutTheRightState() throws {
        let router = try makeRouter()
        _ = try router.beginLogin(on: "google")
        expectReason(.unknownState) { try router.handle("com.example.app:/oauth2redirect?error=access_denied&state=nope") }
        expectReason(.stateMissing) { try router.handle("com.example.app:/oauth2redirect?error=access_denied") }
        #expect(router.pendingCount == 1)
    }

    @Test func deliversAnErrorResponseWithTheRightState() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "google")
        let delivery = try router.handle("com.example.app:/oauth2redirect?error=access_denied&state=\(attempt.state)")
        #expect(delivery.outcome.kind == .authorizationError)
        #expect(router.pendingCount == 0)
    }

    @Test func refusesALateCallbackAsExpired() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock)
        let attempt = try router.beginLogin(on: "google")
        clock.advance(by: .seconds(601))
        expectReason(.attemptExpired) { try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)") }
        expectReason(.attemptExpired) { try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)") }
    }

    @Test func acceptsACallbackJustBeforeTheDeadline() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock)
        let attempt = try router.beginLogin(on: "google", lifetime: .seconds(30))
        clock.advance(by: .seconds(29))
        #expect(throws: Never.self) { try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)") }
    }

    @Test func refusesACallbackOfACancelledAttempt() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "google")
        router.cancel(attempt)
        expectReason(.cancelled) { try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)") }
        #expect(router.pendingCount == 0)
    }

    @Test func refusesACallbackNoRouteMatches() throws {
        let router = try makeRouter()
        _ = try router.beginLogin(on: "google")
        expectReason(.noRoute) { try router.handle("com.example.app:/other?code=abc&state=x") }
        expectReason(.noRoute) { try router.handle("com.evil.app:/oauth2redirect?code=abc&state=x") }
        expectReason(.noRoute) { _ = try router.beginLogin(on: "nonexistent") }
    }

    @Test func refusesUserinfoInACallback() throws {
        let router = try makeRouter()
        expectReason(.userinfoNotAllowed) { try router.handle("myapp://user@oauth-callback?challenge_token=\(preludeToken("t"))") }
    }

    @Test func carriesSyntaxErrorsUp() throws {
        let router = try makeRouter()
        expectReason(.invalidPercentEncoding) { try router.handle("com.example.app:/oauth2redirect?code=%zz") }
        expectReason(.emptyInput) { try router.handle("") }
    }

    @Test func checksTheIssuerOfTheAttempt() throws {
        let router = try makeRouter(issuer: "https://issuer.example", requiresIssuer: true)
        let good = try router.beginLogin(on: "google")
        let delivery = try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(good.state)&iss=https%3A%2F%2Fissuer.example")
        #expect(delivery.outcome.kind == .authorizationCode)

        let mixedUp = try router.beginLogin(on: "google")
        expectReason(.issuerMismatch) {
            try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(mixedUp.state)&iss=https%3A%2F%2Fevil.example")
        }
        // The mix-up response answered the attempt: it is over, not open to a second try.
        expectReason(.replayed) {
            try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(mixedUp.state)&iss=https%3A%2F%2Fissuer.example")
        }
        let missing = try router.beginLogin(on: "google")
        expectReason(.issuerMissing) { try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(missing.state)") }
    }

    /// The issuer rejections' details are part of the contract (the CLI prints them).
    @Test(arguments: [
        (
            "&iss=https%3A%2F%2Fevil.example",
            "the server said https://evil.example, expected https://issuer.example (the 'iss' parameter, RFC 9207)"
        ),
        (
            "&iss=https%3A%2F%2Fevil.example%5C" + String(repeating: "a", count: 300),
            "the server said https://evil.example\\u{5c}" + String(repeating: "a", count: 179)
                + "…, expected https://issuer.example (the 'iss' parameter, RFC 9207)"
        ),
        ("", "the callback has no 'iss' and the route requires it"),
    ])
    func explainsIssuerRejections(suffix: String, detail: String) throws {
        let router = try makeRouter(issuer: "https://issuer.example", requiresIssuer: true)
        let attempt = try router.beginLogin(on: "google")
        do {
            try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)" + suffix)
            Issue.record("accepted a callback with a bad issuer")
        } catch {
            #expect(error.detail == detail)
        }
    }

    @Test func handsTheCallbackToTheRouteHandlerWhenNobodyWaits() throws {
        let received = Box()
        let router = try makeRouter(handler: { result in received.append(result) })
        let attempt = try router.beginLogin(on: "google")
        try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(attempt.state)")
        #expect(received.count == 1)
    }
}

@Suite struct StatelessRouteTests {
    @Test func allowsOnePendingAttemptPerRoute() throws {
        let router = try makeRouter()
        _ = try router.beginLogin(on: "prelude")
        expectReason(.conflict) { _ = try router.beginLogin(on: "prelude") }
        // A stateful route next to it is not affected.
        #expect(throws: Never.self) { try router.beginLogin(on: "google") }
    }

    @Test func deliversToTheSinglePendingAttempt() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "prelude")
        let delivery = try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("tok"))")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .challengeToken)
        expectReason(.replayed) { try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("tok"))") }
        // The route is free again.
        #expect(throws: Never.self) { try router.beginLogin(on: "prelude") }
    }

    @Test func refusesACallbackWhenNoAttemptIsPending() throws {
        let router = try makeRouter()
        expectReason(.unknownState) { try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("tok"))") }
    }

    @Test func refusesACallbackOfACancelledStatelessAttempt() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "prelude")
        router.cancel(attempt)
        expectReason(.cancelled) { try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("tok"))") }
    }
}

@Suite struct RouterBuilderTests {
    @Test func refusesTwoRoutesThatCouldMatchTheSameCallback() throws {
        var builder = RouterBuilder()
        builder.add(Route("a", redirectURI: try RedirectURI("com.example.app:/cb"), dialect: .oauth2))
        builder.add(Route("b", redirectURI: try RedirectURI("COM.EXAMPLE.APP:/cb"), dialect: .clerk))
        expectReason(.invalidConfiguration) { try builder.validate() }
    }

    @Test func refusesTwoLoopbackRoutesOnDifferentPortsButTheSamePath() throws {
        var builder = RouterBuilder()
        builder.add(Route("a", redirectURI: try RedirectURI("http://127.0.0.1:5000/cb"), dialect: .oauth2))
        builder.add(Route("b", redirectURI: try RedirectURI("http://127.0.0.1:6000/cb"), dialect: .oauth2))
        expectReason(.invalidConfiguration) { try builder.validate() }
    }

    @Test func acceptsRoutesThatDifferInPathOrRequiredQueryValue() throws {
        var builder = RouterBuilder()
        builder.add(Route("a", redirectURI: try RedirectURI("com.example.app:/cb"), dialect: .oauth2))
        builder.add(Route("b", redirectURI: try RedirectURI("com.example.app:/other"), dialect: .oauth2))
        builder.add(Route("c", redirectURI: try RedirectURI("com.example.app:/q?provider=x"), dialect: .oauth2))
        builder.add(Route("d", redirectURI: try RedirectURI("com.example.app:/q?provider=y"), dialect: .oauth2))
        #expect(throws: Never.self) { try builder.validate() }
    }

    /// Pairs that one callback can match (the witness): validation must refuse them, by the
    /// same equivalence matching uses (default ports, `""` and `/`, case, loopback ports).
    static let overlapping: [(a: String, b: String, witness: String)] = [
        ("https://a.example/cb", "https://a.example:443/cb", "https://a.example/cb?code=c"),
        ("http://127.0.0.1:80/cb", "http://127.0.0.1/cb", "http://127.0.0.1/cb?code=c"),
        ("https://a.example", "https://a.example/", "https://a.example/?code=c"),
        ("https://a.example:443", "https://A.EXAMPLE/", "https://a.example?code=c"),
        ("https://a.example/cb", "HTTPS://A.Example/cb", "https://a.example/cb?code=c"),
        ("http://127.0.0.1/cb", "http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/cb?code=c"),
        ("http://[::1]:5000/cb", "http://[::1]/cb", "http://[::1]:6000/cb?code=c"),
        ("com.example.app:/cb", "com.example.app:/cb?provider=x", "com.example.app:/cb?provider=x&code=c"),
    ]

    @Test(arguments: overlapping)
    func refusesRoutesOneCallbackCouldMatch(_ pair: (a: String, b: String, witness: String)) throws {
        let a = try RedirectURI(pair.a), b = try RedirectURI(pair.b)
        let witness = try CallbackURL(parsing: pair.witness)
        #expect(a.matches(witness) && b.matches(witness), "the witness must match both: the pair truly overlaps")
        var builder = RouterBuilder()
        builder.add(Route("first", redirectURI: a, dialect: .oauth2))
        builder.add(Route("second", redirectURI: b, dialect: .oauth2))
        let refusal = #expect(throws: CallbackError.self) { try builder.validate() }
        #expect(refusal?.reason == .invalidConfiguration)
        #expect(refusal?.detail.contains("'first' and 'second'") == true)
    }

    /// Pairs no callback can match both of: they build, and each route gets its own callback.
    static let separate: [(a: String, b: String, forA: String, forB: String)] = [
        ("https://a.example/cb", "https://a.example:8443/cb", "https://a.example/cb", "https://a.example:8443/cb"),
        ("https://a.example/cb", "https://a.example/cb/", "https://a.example/cb", "https://a.example/cb/"),
        ("https://a.example/cb", "https://b.example/cb", "https://a.example/cb", "https://b.example/cb"),
        ("com.example.app:/cb", "com.example.other:/cb", "com.example.app:/cb", "com.example.other:/cb"),
        ("http://127.0.0.1/cb", "http://127.0.0.1/other", "http://127.0.0.1:1/cb", "http://127.0.0.1:1/other"),
        ("http://127.0.0.1/cb", "http://[::1]/cb", "http://127.0.0.1:5/cb", "http://[::1]:5/cb"),
        ("com.example.app:/cb", "com.example.app:/CB", "com.example.app:/cb", "com.example.app:/CB"),
        ("com.example.app:/cb", "com.example.app://cb", "com.example.app:/cb", "com.example.app://cb"),
        ("com.example.app:/", "com.example.app:", "com.example.app:/", "com.example.app:"),
    ]

    @Test(arguments: separate)
    func acceptsRoutesNoCallbackCouldMatchBoth(_ pair: (a: String, b: String, forA: String, forB: String)) throws {
        var builder = RouterBuilder()
        builder.add(Route("first", redirectURI: try RedirectURI(pair.a), dialect: .oauth2))
        builder.add(Route("second", redirectURI: try RedirectURI(pair.b), dialect: .oauth2))
        let router = try builder.build()
        let first = try router.beginLogin(on: "first"), second = try router.beginLogin(on: "second")
        #expect(try router.handle("\(pair.forA)?code=c&state=\(first.state)").route == "first")
        #expect(try router.handle("\(pair.forB)?code=c&state=\(second.state)").route == "second")
    }

    /// `requiresIssuer` without an `issuer` used to accept any callback without `iss`: it
    /// fails closed now, at build time, naming the route.
    @Test func refusesARouteThatRequiresAnIssuerItDoesNotName() throws {
        var builder = RouterBuilder()
        builder.add(
            Route(
                "ok", redirectURI: try RedirectURI("com.example.app:/ok"), dialect: .oauth2,
                issuer: "https://issuer.example", requiresIssuer: true))
        builder.add(Route("google", redirectURI: try RedirectURI("com.example.app:/cb"), dialect: .oauth2, requiresIssuer: true))
        let refusal = #expect(throws: CallbackError.self) { try builder.build() }
        #expect(refusal?.reason == .invalidConfiguration)
        #expect(refusal?.detail.contains("route 'google'") == true)
        #expect(refusal?.detail.contains("issuer") == true)
    }

    @Test func refusesDuplicateIDsAndAutoDialect() throws {
        var builder = RouterBuilder()
        builder.add(Route("a", redirectURI: try RedirectURI("com.example.app:/one"), dialect: .oauth2))
        builder.add(Route("a", redirectURI: try RedirectURI("com.example.app:/two"), dialect: .oauth2))
        expectReason(.invalidConfiguration) { try builder.validate() }

        var auto = RouterBuilder()
        auto.add(Route("x", redirectURI: try RedirectURI("com.example.app:/one"), dialect: .auto))
        expectReason(.invalidConfiguration) { try auto.validate() }
    }
}

@Suite struct LoginAttemptTests {
    @Test func makesFreshSecretsForEveryAttempt() throws {
        let router = try makeRouter()
        let a = try router.beginLogin(on: "google"), b = try router.beginLogin(on: "google")
        #expect(a.state != b.state && a.nonce != b.nonce && a.pkce.verifier != b.pkce.verifier)
        #expect(a.state.utf8.count >= 22, "at least 128 bits, base64url")
        #expect(
            a.state.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F })
        #expect(a.pkce.challenge == PKCE.challenge(for: a.pkce.verifier))
    }

    @Test func neverPrintsItsSecrets() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "google")
        var dumped = ""
        dump(attempt, to: &dumped)
        for text in [attempt.description, attempt.debugDescription, dumped, String(describing: attempt)] {
            #expect(!text.contains(attempt.state))
            #expect(!text.contains(attempt.nonce))
            #expect(!text.contains(attempt.pkce.verifier))
        }
    }

    @Test func buildsItsAuthorizationRequest() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "google")
        let request = try attempt.authorizationRequest(endpoint: "https://accounts.example/authorize", clientID: "client-1")
        let url = try CallbackURL(parsing: request.url)
        #expect(try url.queryParameters.value(named: "state") == attempt.state)
        #expect(try url.queryParameters.value(named: "code_challenge") == attempt.pkce.challenge)
        #expect(try url.queryParameters.value(named: "nonce") == attempt.nonce)
        #expect(try url.queryParameters.value(named: "redirect_uri") == "com.example.app:/oauth2redirect")
    }
}

/// A thread-safe list of results for handler tests.
final class Box: Sendable {
    private let lock = Locked<[Result<Delivery, CallbackError>]>([])
    func append(_ result: Result<Delivery, CallbackError>) { lock.withLock { $0.append(result) } }
    var count: Int { lock.withLock { $0.count } }
}

@Suite struct LoginAttemptRedirectURITests {
    /// Providers compare `redirect_uri` as a string (RFC 9700 §2.1): the request must carry
    /// the registered URI exactly as written, not a case-normalized form.
    @Test func sendsTheRedirectURIExactlyAsRegistered() throws {
        let registered = "com.Example.App://Example.auth0.com/ios/com.Example.App/callback"
        var builder = RouterBuilder()
        builder.add(Route("auth0", redirectURI: try RedirectURI(registered), dialect: .oauth2))
        let attempt = try builder.build().beginLogin(on: "auth0")
        let request = try attempt.authorizationRequest(endpoint: "https://example.auth0.com/authorize", clientID: "c")
        let url = try CallbackURL(parsing: request.url)
        #expect(try url.queryParameters.value(named: "redirect_uri") == registered)
    }
}

/// Issue 25: every seed provider (shared/seeds: Prelude, Ory, Zephr, Clerk, Auth0) through the
/// path apps call: `router.beginLogin(on:)`, then `router.handle` with the provider's success, its
/// cancel or failure, and a forged callback, delivered (or not) to the attempt.
@Suite struct RouterSeedProviderTests {
    static func router(_ routes: [Route], clock: ManualAttemptClock = ManualAttemptClock()) throws -> CallbackRouter {
        var builder = RouterBuilder()
        for route in routes { builder.add(route) }
        return try builder.build(clock: clock)
    }

    static let clerkRedirect = "com.example.app://callback"

    static func clerk(profiles: [ProviderProfile] = []) throws -> CallbackRouter {
        try router([Route("clerk", redirectURI: try RedirectURI(clerkRedirect), dialect: .clerk, profiles: profiles)])
    }

    // MARK: Clerk (native OAuth: stateless)

    @Test func clerkSignsInWithTheNonceAlone() throws {
        let router = try Self.clerk()
        let attempt = try router.beginLogin(on: "clerk")
        let delivery = try router.handle(Self.clerkRedirect + "?rotating_token_nonce=rtn_2b8c4d5e")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .rotatingTokenNonce)
        #expect(delivery.outcome.rotatingTokenNonce == "rtn_2b8c4d5e")
        #expect(router.pendingCount == 0)
        expectReason(.replayed) { try router.handle(Self.clerkRedirect + "?rotating_token_nonce=rtn_2b8c4d5e") }
    }

    @Test func clerkAllowsOneLoginAtATime() throws {
        let router = try Self.clerk()
        _ = try router.beginLogin(on: "clerk")
        expectReason(.conflict) { _ = try router.beginLogin(on: "clerk") }
    }

    static let unboundClerkCallbacks = [
        "?__clerk_status=failed&__clerk_error_code=oauth_access_denied",
        "?__clerk_status=failed&__clerk_error_code=something_else",
        "?__clerk_status=failed",
        "?__clerk_error_code=oauth_access_denied",
        "?__clerk_status=failed&__clerk_error_code=external_account_not_found",
        "?__clerk_status=failed&__clerk_error_code=external_account_exists",
        "",
        "?error=access_denied",
        "?state=forged",
    ]

    /// Clerk's cancel, failure, transfer and bare callbacks carry no state and no secret: a
    /// forged one is reported and ends nothing; the real nonce still completes the login.
    @Test(arguments: unboundClerkCallbacks)
    func clerkReportsAnUnboundCallbackAndTheNonceStillCompletes(_ query: String) throws {
        let router = try Self.clerk()
        let attempt = try router.beginLogin(on: "clerk")
        let refusal = expectRefusal(.stateMissing) { try router.handle(Self.clerkRedirect + query) }
        #expect(refusal.map { "\($0)".contains("no login was ended") } == true)
        #expect(!"\(String(describing: refusal))".contains("something_else"), "the raw code is never shown")
        #expect(router.pendingCount == 1)
        let delivery = try router.handle(Self.clerkRedirect + "?rotating_token_nonce=rtn_real")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.rotatingTokenNonce == "rtn_real")
    }

    /// A task awaiting the login is not woken by a forged failure; after asking Clerk, the app
    /// cancels the attempt (a real failure) or keeps waiting.
    @Test func clerkWaiterSurvivesAForgedFailureAndEndsWhenTheAppCancels() async throws {
        let router = try Self.clerk()
        let attempt = try router.beginLogin(on: "clerk")
        let waiter = Task { () -> ReasonCode? in
            do throws(CallbackError) {
                _ = try await router.callback(for: attempt, timeout: .seconds(30))
                return nil
            } catch {
                return error.reason
            }
        }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        expectReason(.stateMissing) {
            try router.handle(Self.clerkRedirect + "?__clerk_status=failed&__clerk_error_code=oauth_access_denied")
        }
        #expect(router.isWaiting(for: attempt))
        router.cancel(attempt)
        #expect(await waiter.value == .cancelled)
    }

    @Test func clerkMagicLinkIsDeliveredToThePendingAttempt() throws {
        let router = try Self.clerk()
        let attempt = try router.beginLogin(on: "clerk")
        let delivery = try router.handle(Self.clerkRedirect + "?flow_id=flw_1&approval_token=apt_secret_1")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .magicLink)
        #expect(delivery.outcome.approvalToken == "apt_secret_1")
        #expect(!"\(delivery)".contains("apt_secret_1"))
    }

    @Test func clerkBareCallbackStillEndsAPendingLogoutWithoutState() throws {
        let router = try Self.router([
            Route("clerk", redirectURI: try RedirectURI(Self.clerkRedirect), dialect: .clerk, acceptsLogoutWithoutState: true)
        ])
        let logout = try router.beginLogout(
            on: "clerk", endSessionEndpoint: "https://clerk.example.com/v2/logout", clientID: "c", style: .auth0ReturnTo)
        let delivery = try router.handle(Self.clerkRedirect)
        #expect(delivery.attempt == logout.attempt)
        #expect(delivery.outcome.kind == .logoutComplete)
    }

    // MARK: Clerk hosted auth (stateful)

    @Test func clerkHostedAuthIsMatchedByState() throws {
        let router = try Self.clerk(profiles: [.clerkHosted])
        let first = try router.beginLogin(on: "clerk")
        let second = try router.beginLogin(on: "clerk") // not stateless: no conflict
        expectReason(.missingParameter) {
            try router.handle(Self.clerkRedirect + "?state=\(first.state)&rotating_token_nonce=n1")
        }
        expectReason(.stateMissing) {
            try router.handle(Self.clerkRedirect + "?rotating_token_nonce=n1&created_session_id=sess_1")
        }
        expectReason(.unknownState) {
            try router.handle(Self.clerkRedirect + "?state=forged&rotating_token_nonce=n1&created_session_id=sess_1")
        }
        expectReason(.stateMissing) { try router.handle(Self.clerkRedirect + "?__clerk_status=failed") }
        // The refused callback carrying the first attempt's state ended it (issue 33); the others ended nothing.
        #expect(router.pendingCount == 1)
        let delivery = try router.handle(
            Self.clerkRedirect + "?state=\(second.state)&rotating_token_nonce=n2&created_session_id=sess_2")
        #expect(delivery.attempt == second)
        #expect(delivery.outcome.createdSessionID == "sess_2")
        #expect(router.pendingCount == 0)
    }

    // MARK: The dialect implies its policy

    @Test(arguments: [Dialect.prelude, .clerk])
    func aCustomSchemeProviderRefusesAnHTTPRedirectBeforeAnyLogin(_ dialect: Dialect) throws {
        for redirect in ["https://app.example.com/callback", "http://127.0.0.1:8080/callback"] {
            var builder = RouterBuilder()
            builder.add(Route("p", redirectURI: try RedirectURI(redirect), dialect: dialect))
            let refusal = expectRefusal(.invalidConfiguration) { try builder.build() }
            #expect(refusal.map { "\($0)".contains("rule custom_scheme_required") } == true)
        }
        var builder = RouterBuilder()
        builder.add(Route("p", redirectURI: try RedirectURI("com.example.app://callback"), dialect: dialect))
        #expect(throws: Never.self) { try builder.build() }
    }

    @Test(arguments: [Dialect.oauth2, .ory, .zephr])
    func otherProvidersKeepTheirHTTPSRedirects(_ dialect: Dialect) throws {
        var builder = RouterBuilder()
        builder.add(Route("p", redirectURI: try RedirectURI("https://app.example.com/callback"), dialect: dialect))
        #expect(throws: Never.self) { try builder.build() }
    }

    // MARK: Prelude

    @Test func preludeSuccessCancelAndForgery() throws {
        let route = Route("prelude", redirectURI: try RedirectURI("myapp://oauth-callback"), dialect: .prelude)
        let router = try Self.router([route])
        // Nothing pending: a forged token reaches no login.
        expectReason(.unknownState) { try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("ct_forged"))") }
        let attempt = try router.beginLogin(on: "prelude")
        let delivery = try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("ct_9f8e7d6c5b4a"))")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.challengeToken == "\(preludeToken("ct_9f8e7d6c5b4a"))")
        expectReason(.replayed) { try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("ct_9f8e7d6c5b4a"))") }
        // A dismissed page is a cancellation: the app cancels, a late callback is refused.
        let second = try router.beginLogin(on: "prelude")
        router.cancel(second)
        expectReason(.cancelled) { try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("ct_late"))") }
    }

    // MARK: Ory

    @Test func orySuccessFailureAndForgery() throws {
        let route = Route("ory", redirectURI: try RedirectURI("https://app.example.com/auth/callback"), dialect: .ory)
        let router = try Self.router([route])
        let attempt = try router.beginLogin(on: "ory")
        // A failed registration redirects with the code and the flow: delivered, and only the
        // exchange says it failed (a 422 with the flow).
        let delivery = try router.handle("https://app.example.com/auth/callback?code=ory_ret_1&flow=f7c1d2e3-0a4b-4c5d-8e6f-7a8b9c0d1e2f")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .sessionTokenExchangeCode)
        #expect(delivery.outcome.flow == "f7c1d2e3-0a4b-4c5d-8e6f-7a8b9c0d1e2f")
        expectReason(.replayed) { try router.handle("https://app.example.com/auth/callback?code=ory_ret_forged") }
        expectReason(.noRoute) { try router.handle("https://evil.example.com/auth/callback?code=ory_ret_2") }
    }

    // MARK: Zephr

    @Test func zephrSuccessFailureAndForgery() throws {
        let route = Route("zephr", redirectURI: try RedirectURI("my-app:/oauthRedirect"), dialect: .zephr)
        let router = try Self.router([route])
        let attempt = try router.beginLogin(on: "zephr")
        let delivery = try router.handle("my-app:/oauthRedirect?action=login&status=success&tracking_id=1234&session_id=1234")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .loginSuccess)
        let second = try router.beginLogin(on: "zephr")
        let failure = try router.handle("my-app:/oauthRedirect?action=login&status=failure&message=Denied")
        #expect(failure.attempt == second)
        #expect(failure.outcome.kind.isProviderFailure)
        expectReason(.unknownStatus) { try router.handle("my-app:/oauthRedirect?status=Success&session_id=1") }
    }

    // MARK: Auth0 (OAuth 2.0 + PKCE, seed 004)

    @Test func auth0SuccessCancelAndForgery() throws {
        let redirect = try RedirectURI.auth0(bundleID: "com.example.app", domain: "example.us.auth0.com")
        let router = try Self.router([Route("auth0", redirectURI: redirect, dialect: .oauth2)])
        let base = "com.example.app://example.us.auth0.com/ios/com.example.app/callback"
        let attempt = try router.beginLogin(on: "auth0")
        expectReason(.unknownState) { try router.handle(base + "?code=forged&state=forged") }
        expectReason(.stateMissing) { try router.handle(base + "?error=access_denied") }
        #expect(router.pendingCount == 1)
        let cancel = try router.handle(base + "?error=access_denied&state=\(attempt.state)")
        #expect(cancel.attempt == attempt)
        #expect(cancel.outcome.error == .accessDenied)
        let second = try router.beginLogin(on: "auth0")
        let delivery = try router.handle(base + "?code=6hPhnk2jAybMZ7Nq&state=\(second.state)")
        #expect(delivery.attempt == second)
        #expect(delivery.outcome.code == "6hPhnk2jAybMZ7Nq")
    }
}
