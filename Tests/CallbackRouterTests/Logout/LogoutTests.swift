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

/// A compact JWS shaped like an ID token; the marker shows if it ever leaks.
let idTokenHint = "eyJhbGciOiJSUzI1NiJ9.eyJTRUNSRVRpZHRva2VuIjoxfQ.SECRETsignature_-"

@Suite struct EndSessionRequestTests {
    @Test func buildsTheRPInitiatedLogoutRequestInOrder() throws {
        let request = try EndSessionRequest(
            endpoint: "https://op.example.com/logout?tenant=a", postLogoutRedirectURI: "com.example.app:/logout",
            state: "st", idTokenHint: idTokenHint, clientID: "abc", logoutHint: "u1", uiLocales: "fr-CA fr",
            extraParameters: [("x", "a b&c=d")])
        #expect(
            request.url == "https://op.example.com/logout?tenant=a&id_token_hint=\(idTokenHint)&logout_hint=u1&client_id=abc"
                + "&post_logout_redirect_uri=com.example.app%3A%2Flogout&state=st&ui_locales=fr-CA%20fr&x=a%20b%26c%3Dd")
        let parsed = try CallbackURL(parsing: request.url)
        #expect(parsed.queryParameters.values(named: "x").first == "a b&c=d")
        #expect(request.state == "st")
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "a..c", ".b.c", "a.b.c.", "a.b.c d", "a.b.c=", "a.b.c+", "a.b.c/"])
    func refusesAnIDTokenHintThatIsNoCompactJWT(_ hint: String) {
        let error = refusal {
            _ = try EndSessionRequest(
                endpoint: "https://op.example.com/logout", postLogoutRedirectURI: "myapp://logout",
                state: "s", idTokenHint: hint + "SECRET", clientID: "abc")
        }
        #expect(error?.reason == .invalidConfiguration)
        #expect(error.map { !$0.detail.contains("SECRET") } ?? false)
    }

    @Test func acceptsAFivePartJWE() throws {
        let request = try EndSessionRequest(
            endpoint: "https://op.example.com/logout", postLogoutRedirectURI: "myapp://logout",
            state: "s", idTokenHint: "a.b.c.d.e")
        #expect(request.parameters.first?.value == "a.b.c.d.e")
    }

    @Test(arguments: [
        ("id_token_hint", "x"), ("post_logout_redirect_uri", "x"), ("state", "x"), ("client_id", "x"),
        ("ui_locales", "en"), ("logout_hint", "x"), ("returnTo", "x"), ("tenant", "x"), ("", "x"),
    ])
    func refusesAnExtraParameterThatWouldOverrideOne(_ name: String, _ value: String) {
        let error = refusal {
            _ = try EndSessionRequest(
                endpoint: "https://op.example.com/logout?tenant=a", postLogoutRedirectURI: "myapp://logout",
                state: "s", clientID: "abc", extraParameters: [(name, value)])
        }
        #expect(error?.reason == .invalidConfiguration)
    }

    @Test func refusesARepeatedExtraParameter() {
        let error = refusal {
            _ = try EndSessionRequest(
                endpoint: "https://op.example.com/logout", postLogoutRedirectURI: "myapp://logout",
                state: "s", clientID: "abc", extraParameters: [("a", "1"), ("a", "2")])
        }
        #expect(error?.reason == .invalidConfiguration)
    }

    @Test func needsAnIDTokenHintOrAClientID() {
        let error = refusal {
            _ = try EndSessionRequest(endpoint: "https://op.example.com/logout", postLogoutRedirectURI: "myapp://logout", state: "s")
        }
        #expect(error?.reason == .invalidConfiguration)
        #expect(error?.detail.contains("client_id") == true)
    }

    @Test(arguments: [
        "http://op.example.com/logout", "https://u@op.example.com/logout", "https://op.example.com/logout#f",
        "javascript:alert(1)", "/logout",
    ])
    func refusesABadEndpoint(_ endpoint: String) {
        let error = refusal {
            _ = try EndSessionRequest(endpoint: endpoint, postLogoutRedirectURI: "myapp://logout", state: "s", clientID: "abc")
        }
        #expect(error?.reason == .invalidConfiguration)
        #expect(
            error?.detail.contains("end-session endpoint") == true || error?.detail.contains("URL") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        "myapp://logout#f", "javascript:x", "urn:ietf:wg:oauth:2.0:oob", "myapp://u@h/logout", "myapp://logout?state=1",
    ])
    func refusesABadPostLogoutRedirectURI(_ uri: String) {
        let error = refusal {
            _ = try EndSessionRequest(endpoint: "https://op.example.com/logout", postLogoutRedirectURI: uri, state: "s", clientID: "abc")
        }
        #expect(error?.reason == .invalidConfiguration)
    }

    @Test(arguments: ["", " en", "en ", "en  fr", "en_US", "en;fr"])
    func refusesUILocalesThatAreNotLanguageTags(_ locales: String) {
        let error = refusal {
            _ = try EndSessionRequest(
                endpoint: "https://op.example.com/logout", postLogoutRedirectURI: "myapp://logout",
                state: "s", clientID: "abc", uiLocales: locales)
        }
        #expect(error?.reason == .invalidConfiguration)
    }

    @Test func buildsAuth0sReturnToLogoutWithoutStateOrHint() throws {
        let request = try EndSessionRequest(
            endpoint: "https://tenant.auth0.com/v2/logout", postLogoutRedirectURI: "myapp://logout",
            state: nil, clientID: "abc", style: .auth0ReturnTo)
        #expect(request.url == "https://tenant.auth0.com/v2/logout?client_id=abc&returnTo=myapp%3A%2F%2Flogout")
        #expect(request.state == nil)
        for (state, hint) in [("s", nil), (nil, idTokenHint)] as [(String?, String?)] {
            let error = refusal {
                _ = try EndSessionRequest(
                    endpoint: "https://tenant.auth0.com/v2/logout", postLogoutRedirectURI: "myapp://logout",
                    state: state, idTokenHint: hint, clientID: "abc", style: .auth0ReturnTo)
            }
            #expect(error?.reason == .invalidConfiguration)
        }
    }

    @Test func printsNoSecret() throws {
        let request = try EndSessionRequest(
            endpoint: "https://op.example.com/logout", postLogoutRedirectURI: "myapp://logout",
            state: "SECRETstate", idTokenHint: idTokenHint, clientID: "abc", logoutHint: "SECRETuser")
        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, request.debugDescription, dumped, "\(request)"] {
            #expect(!text.contains("SECRET"), "\(text)")
            #expect(text.contains("client_id: abc") && text.contains("id_token_hint: <redacted"))
        }
    }
}

private func refusal(_ body: () throws -> Void) -> CallbackError? {
    do { try body(); return nil } catch { return error as? CallbackError }
}

/// A router whose OAuth route takes logins and logouts on one redirect URI, a route that
/// accepts logouts without state (Auth0 returnTo), and a Prelude route.
private func makeRouter(
    clock: ManualAttemptClock = ManualAttemptClock(), handler: CallbackHandler? = nil,
    logoutHandler: CallbackHandler? = nil
) throws -> CallbackRouter {
    try RouterFixture.router(
        RouterFixture.oauth2("op", handler: handler, logoutHandler: logoutHandler),
        RouterFixture.oauth2(
            "auth0", redirect: "com.example.app:/auth0", acceptsLogoutWithoutState: true, handler: handler,
            logoutHandler: logoutHandler),
        RouterFixture.prelude(handler: handler, logoutHandler: logoutHandler), clock: clock)
}

/// A router with one route, "spa", whose logins answer in the fragment.
private func makeFragmentRouter() throws -> CallbackRouter {
    var builder = RouterBuilder()
    builder.add(
        Route(
            "spa", redirectURI: try RedirectURI("com.example.app:/fragment"), dialect: .oauth2,
            responseMode: .fragment))
    return try builder.build(clock: ManualAttemptClock())
}

private let endpoint = "https://op.example.com/oidc/logout"

private func reason(_ body: () throws -> Void) -> ReasonCode? {
    do { try body(); return nil } catch { return (error as? CallbackError)?.reason }
}

@Suite struct RouterLogoutTests {
    @Test func buildsTheEndSessionURLForTheRoutesRedirectURI() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(
            on: "op", endSessionEndpoint: endpoint, idTokenHint: idTokenHint, clientID: "abc",
            uiLocales: "en", extraParameters: [("federated", "1")])
        let query = try CallbackURL(parsing: logout.url).queryParameters
        #expect(query.values(named: "post_logout_redirect_uri").first == "com.example.app:/oauth2redirect")
        #expect(query.values(named: "state").first == logout.attempt.state)
        #expect(query.values(named: "id_token_hint").first == idTokenHint)
        #expect(query.values(named: "federated").first == "1")
        #expect(logout.attempt.purpose == .logout)
        #expect(logout.attempt.state.utf8.count == 43)
        #expect(router.pendingCount == 1)
        #expect(!logout.description.contains("SECRET") && !logout.description.contains(logout.attempt.state))
    }

    @Test func deliversTheLogoutCallbackOnceAsLogoutComplete() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        let url = "com.example.app:/oauth2redirect?state=\(logout.attempt.state)"
        let delivery = try router.handle(url)
        #expect(delivery.outcome.kind == .logoutComplete)
        #expect(delivery.attempt == logout.attempt)
        #expect(!delivery.outcome.isUnbound)
        #expect(router.pendingCount == 0)
        #expect(reason { try router.handle(url) } == .replayed)
    }

    @Test func passesOtherParametersOnAsExtras() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        let delivery = try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)&sid=1")
        #expect(delivery.outcome.extraValue("sid") == "1")
    }

    @Test func refusesAForgedOrLateLogoutCallback() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock)
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc", lifetime: .seconds(60))
        // A forged state answers no logout: the login reading's refusal stands, the logout stays.
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?state=forged") } == .missingParameter)
        #expect(router.pendingCount == 1)
        clock.advance(by: .seconds(61))
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)") } == .attemptExpired)
    }

    @Test func aCancelledLogoutIsCancelled() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        router.cancel(logout)
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)") } == .cancelled)
    }

    @Test func aTaskAwaitingTheLogoutGetsItOrTimesOut() async throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        async let waited = router.callback(for: logout, timeout: .seconds(3600))
        while !router.isWaiting(for: logout.attempt) { await Task.yield() }
        try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)")
        #expect(try await waited.outcome.kind == .logoutComplete)

        let second = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        await #expect(throws: CallbackError.self) { try await router.callback(for: second, timeout: .zero) }
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?state=\(second.attempt.state)") } == .timeout)
    }

    @Test func aLoginCallbackNeverCompletesALogout() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        let forged = "com.example.app:/oauth2redirect?code=abc&state=\(logout.attempt.state)"
        #expect(reason { try router.handle(forged) } == .unknownState)
        #expect(
            reason { try router.handle("com.example.app:/oauth2redirect?error=access_denied&state=\(logout.attempt.state)") }
                == .unknownState)
        #expect(router.pendingCount == 1, "the logout stays pending")
        #expect(try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)").outcome.kind == .logoutComplete)
        // After the logout completed, the login-shaped callback still reaches nothing.
        #expect(reason { try router.handle(forged) } == .unknownState)
    }

    @Test func aLogoutCallbackNeverCompletesALogin() throws {
        let router = try makeRouter()
        let login = try router.beginLogin(on: "op")
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?state=\(login.state)") } == .missingParameter)
        // Never completed by it: refused, and (it carries the login's state, issue 33) ended with that refusal.
        #expect(router.pendingCount == 0, "the login ended with the refusal")
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?code=abc&state=\(login.state)") } == .cancelled)
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?state=\(login.state)") } == .missingParameter)
    }

    @Test func loginsAndLogoutsOnOneRouteKeepTheirOwnCallbacks() throws {
        let router = try makeRouter()
        let login = try router.beginLogin(on: "op")
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        #expect(try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)").attempt == logout.attempt)
        #expect(try router.handle("com.example.app:/oauth2redirect?code=c&state=\(login.state)").attempt == login)
    }

    @Test func aLogoutMustComeBackOnItsOwnRoute() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        #expect(reason { try router.handle("com.example.app:/auth0?state=\(logout.attempt.state)") } == .missingParameter)
        #expect(router.pendingCount == 1)
    }

    @Test func aRouteThatAcceptsLogoutsWithoutStateDeliversThemUnbound() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(
            on: "auth0", endSessionEndpoint: "https://t.auth0.com/v2/logout", clientID: "abc",
            style: .auth0ReturnTo)
        #expect(try CallbackURL(parsing: logout.url).queryParameters.values(named: "state").isEmpty)
        #expect(reason { _ = try router.beginLogout(on: "auth0", endSessionEndpoint: endpoint, clientID: "abc") } == .conflict)
        let delivery = try router.handle("com.example.app:/auth0")
        #expect(delivery.outcome.kind == .logoutComplete && delivery.outcome.isUnbound)
        #expect(delivery.outcome.description.contains("unbound"))
        #expect(delivery.attempt == logout.attempt)
        #expect(reason { try router.handle("com.example.app:/auth0") } == .missingParameter)
    }

    @Test func aRouteThatAcceptsLogoutsWithoutStateStillBindsAReturnedState() throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "auth0", endSessionEndpoint: endpoint, clientID: "abc")
        let delivery = try router.handle("com.example.app:/auth0?state=\(logout.attempt.state)")
        #expect(!delivery.outcome.isUnbound)
        #expect(reason { try router.handle("com.example.app:/auth0") } == .missingParameter, "the logout is over")
    }

    @Test func aRouteWithoutTheOptInRefusesALogoutWithoutState() throws {
        let router = try makeRouter()
        _ = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        #expect(reason { try router.handle("com.example.app:/oauth2redirect") } == .missingParameter)
        #expect(router.pendingCount == 1)
        #expect(
            reason {
                _ = try router.beginLogout(
                    on: "op", endSessionEndpoint: "https://t.auth0.com/v2/logout", clientID: "abc", style: .auth0ReturnTo)
            } == .invalidConfiguration)
    }

    @Test func logoutsOnAStatelessLoginRouteAreStillBoundByState() throws {
        let router = try makeRouter()
        let login = try router.beginLogin(on: "prelude")
        let logout = try router.beginLogout(on: "prelude", endSessionEndpoint: endpoint, clientID: "abc")
        #expect(try router.handle("myapp://oauth-callback?state=\(logout.attempt.state)").outcome.kind == .logoutComplete)
        #expect(try router.handle("myapp://oauth-callback?challenge_token=\(preludeToken("ct"))").attempt == login)
    }

    @Test func theLogoutHandlerGetsLogoutsAndTheHandlerLogins() throws {
        let logins = Recorder(), logouts = Recorder()
        let router = try makeRouter(handler: logins.append, logoutHandler: logouts.append)
        let login = try router.beginLogin(on: "op")
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)")
        try router.handle("com.example.app:/oauth2redirect?code=c&state=\(login.state)")
        #expect(logins.kinds == [.authorizationCode])
        #expect(logouts.kinds == [.logoutComplete])
    }

    @Test func aFragmentRouteTakesItsLogoutInTheQuery() throws {
        let router = try makeFragmentRouter()
        let login = try router.beginLogin(on: "spa")
        let logout = try router.beginLogout(on: "spa", endSessionEndpoint: endpoint, clientID: "abc")
        #expect(reason { try router.handle("com.example.app:/fragment?state=forged") } == .parametersInQuery)
        #expect(reason { try router.handle("com.example.app:/fragment?code=c&state=\(login.state)") } == .parametersInQuery)
        #expect(try router.handle("com.example.app:/fragment?state=\(logout.attempt.state)").outcome.kind == .logoutComplete)
        #expect(try router.handle("com.example.app:/fragment#code=c&state=\(login.state)").attempt == login)
    }

    /// Found by fuzz-router: a fragment without a login's answer was refused by the logout
    /// reading (`parameters_in_fragment`) instead of the login reading (`missing_parameter`).
    @Test(arguments: ["#uy", "#state=forged", "?state=forged#uy", "#state=LOGOUT", "?state=LOGOUT#x=1"])
    func aFragmentThatAnswersNoLoginKeepsTheLoginRefusal(_ tail: String) throws {
        let router = try makeFragmentRouter()
        let logout = try router.beginLogout(on: "spa", endSessionEndpoint: endpoint, clientID: "abc")
        let url =
            "com.example.app:/fragment"
            + tail.split(separator: "LOGOUT", omittingEmptySubsequences: false).joined(separator: logout.attempt.state)
        let refusal = reason { try router.handle(url) }
        #expect(refusal == .missingParameter || refusal == .parametersInQuery)
        #expect(refusal != .parametersInFragment)
        // The logout is still waiting for its own callback, unless the refused one carries its
        // state where a logout's comes, the query (then it ended the logout, issue 33).
        #expect(router.pendingCount == (tail.hasPrefix("?state=LOGOUT") ? 0 : 1))
    }

    @Test func refusesAnUnknownRoute() throws {
        let router = try makeRouter()
        #expect(reason { _ = try router.beginLogout(on: "nope", endSessionEndpoint: endpoint, clientID: "abc") } == .noRoute)
    }

    @Test(arguments: [
        "com.example.app:/oauth2redirect?state=S&access_token=t", "com.example.app:/oauth2redirect?state=S&state=S",
        "com.example.app:/oauth2redirect?state=S#x=1", "com.example.app:/oauth2redirect?state=S&iss=x",
    ])
    func refusesALogoutCallbackThatBreaksTheSharedRules(_ template: String) throws {
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc")
        let url = template.split(separator: "S", omittingEmptySubsequences: false).joined(separator: logout.attempt.state)
        #expect(throws: CallbackError.self) { try router.handle(url) }
        // A refusal carrying the logout's state once ends it (issue 33); the state twice ties to nothing.
        #expect(router.pendingCount == (template.contains("state=S&state=S") ? 1 : 0))
    }
}

private final class Recorder: Sendable {
    private let results = Locked<[OutcomeKind]>([])
    func append(_ result: Result<Delivery, CallbackError>) {
        if case .success(let delivery) = result { results.withLock { $0.append(delivery.outcome.kind) } }
    }
    var kinds: [OutcomeKind] { results.withLock { $0 } }
}

/// Logins and logouts are claimed in one critical section (issue 26): callbacks of both kinds
/// for one route, each sent by several racing threads at once, half of them awaited and half
/// left to the handlers, reach their own attempt exactly once; every other copy is `replayed`.
@Suite struct RouterClaimConcurrencyTests {
    final class Counts: @unchecked Sendable {
        private let lock = Locked([UInt64: Int]())
        func add(_ result: Result<Delivery, CallbackError>) {
            guard case .success(let delivery) = result else { return }
            lock.withLock { $0[delivery.attempt.id, default: 0] += 1 }
        }
        var byAttempt: [UInt64: Int] { lock.withLock { $0 } }
    }

    @Test(.timeLimit(.minutes(1))) func racingLoginAndLogoutCallbacksReachTheirAttemptExactlyOnce() async throws {
        let handled = Counts()
        let router = try makeRouter(handler: { handled.add($0) }, logoutHandler: { handled.add($0) })
        let logins = try (0 ..< 150).map { _ in try router.beginLogin(on: "op") }
        let logouts = try (0 ..< 150).map { _ in try router.beginLogout(on: "op", endSessionEndpoint: endpoint, clientID: "abc") }
        let callbacks =
            logins.map { ("com.example.app:/oauth2redirect?code=c&state=\($0.state)", $0, false) }
            + logouts.map { ("com.example.app:/oauth2redirect?state=\($0.attempt.state)", $0.attempt, true) }
        let awaited = callbacks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.1)
        let waits = Task {
            await withTaskGroup(of: (UInt64, OutcomeKind?).self) { group in
                for attempt in awaited {
                    group.addTask { (attempt.id, try? await router.callback(for: attempt, timeout: .seconds(30)).outcome.kind) }
                }
                var kinds: [UInt64: OutcomeKind?] = [:]
                for await (id, kind) in group { kinds[id] = kind }
                return kinds
            }
        }
        while !awaited.allSatisfy({ router.isWaiting(for: $0) }) { try await Task.sleep(for: .milliseconds(5)) }

        // Four copies of every callback, shuffled, from as many threads as the pool has.
        let copies = (callbacks + callbacks + callbacks + callbacks).shuffled()
        let results = await withTaskGroup(of: (UInt64, Bool, ReasonCode?, OutcomeKind?).self) { group in
            for (url, attempt, _) in copies {
                group.addTask {
                    do throws(CallbackError) {
                        let delivery = try router.handle(url)
                        return (attempt.id, delivery.attempt == attempt, nil, delivery.outcome.kind)
                    } catch {
                        return (attempt.id, false, error.reason, nil)
                    }
                }
            }
            var all: [(UInt64, Bool, ReasonCode?, OutcomeKind?)] = []
            for await result in group { all.append(result) }
            return all
        }
        let awaitedKinds = await waits.value

        var delivered: [UInt64: Int] = [:]
        for (id, toItsAttempt, reason, kind) in results {
            if let reason {
                #expect(reason == .replayed, "a repeated copy is replayed, got \(reason)")
            } else {
                #expect(toItsAttempt)
                delivered[id, default: 0] += 1
                let isLogout = logouts.contains { $0.attempt.id == id }
                #expect(kind == (isLogout ? .logoutComplete : .authorizationCode))
            }
        }
        for (_, attempt, _) in callbacks {
            #expect(delivered[attempt.id] == 1, "each attempt's callback is accepted exactly once")
        }
        let handledCounts = handled.byAttempt
        for attempt in awaited {
            #expect((awaitedKinds[attempt.id] ?? nil) != nil, "an awaited attempt's task gets its delivery")
            #expect(handledCounts[attempt.id] == nil, "an awaited delivery never also reaches a handler")
        }
        for (_, attempt, _) in callbacks where !awaited.contains(attempt) {
            #expect(handledCounts[attempt.id] == 1, "an attempt nobody awaits reaches its handler once")
        }
        #expect(router.pendingCount == 0)
    }
}
