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

@testable import CallbackLoopback
import CallbackRouter
import CallbackTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Waiting for the end of a logout (OpenID Connect RP-Initiated Logout 1.0) in-process, over
/// real sockets: `LoopbackExpectations(purpose: .logout)` and the router's `LogoutAttempt`.
@Suite struct LoopbackLogoutWaitTests {
    static let state = "lo-9Zy8Xw7Vu6Ts5Rq4Po3Nm2Lk1"

    func logout(state: String? = Self.state) -> LoopbackExpectations {
        LoopbackExpectations(state: state, purpose: .logout)
    }

    @Test func theLogoutsRedirectEndsTheWaitAsLogoutComplete() async throws {
        let receiver = try LoopbackReceiver()
        let stranger = try sendRequest(port: receiver.port, "/callback?state=another-logout")
        let genuine = try sendRequest(port: receiver.port, "/callback?state=\(Self.state)&lang=en")
        let outcome = try await receiver.callback(expecting: logout(), timeout: .seconds(20))
        #expect(stranger.readAll().statusCode == 400, "another logout's redirect is answered and ignored")
        let page = genuine.readAll()
        #expect(page.statusCode == 200)
        #expect(!page.text.contains(Self.state), "the page shows no state")
        #expect(page.body.contains("Signed out"), "the page speaks of the logout, not a sign-in")
        #expect(!page.body.contains("sign-in response"))
        #expect(outcome.kind == .logoutComplete)
        #expect(outcome.state == Self.state)
        #expect(!outcome.isUnbound)
        #expect(outcome.extra.map(\.name) == ["lang"])
    }

    /// A login's callback never completes a logout, even with the logout's state: with that
    /// state it is the provider's final word on this logout, refused as parse --logout does.
    @Test(arguments: [
        ("code", "/callback?code=c1&state=\(LoopbackLogoutWaitTests.state)"),
        ("error", "/callback?error=access_denied&state=\(LoopbackLogoutWaitTests.state)"),
        ("iss", "/callback?state=\(LoopbackLogoutWaitTests.state)&iss=https%3A%2F%2Fid.example"),
    ])
    func aLoginsCallbackNeverCompletesALogout(_ name: String, _ target: String) async throws {
        let receiver = try LoopbackReceiver()
        let request = try sendRequest(port: receiver.port, target)
        await expectReason(.invalidParameter) { try await receiver.callback(expecting: logout(), timeout: .seconds(20)) }
        #expect(request.readAll().statusCode == 400, "\(name)")
    }

    /// The reverse: a logout's redirect (a state and nothing else) never completes a login.
    @Test func aLogoutsRedirectNeverCompletesALogin() async throws {
        let receiver = try LoopbackReceiver()
        let request = try sendRequest(port: receiver.port, "/callback?state=\(Self.state)")
        await expectReason(.missingParameter) {
            try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(20))
        }
        #expect(request.readAll().statusCode == 400)
    }

    /// Without a state (Auth0's returnTo): any valid logout redirect ends the wait, unbound;
    /// a login's callback is refused and ignored.
    @Test func withoutStateTheOutcomeIsUnboundAndALoginsCallbackIsIgnored() async throws {
        let receiver = try LoopbackReceiver()
        let login = try sendRequest(port: receiver.port, "/callback?code=c1")
        let logoutRedirect = try sendRequest(port: receiver.port, "/callback")
        let outcome = try await receiver.callback(expecting: logout(state: nil), timeout: .seconds(20))
        #expect(login.readAll().statusCode == 400)
        #expect(logoutRedirect.readAll().statusCode == 200)
        #expect(outcome.kind == .logoutComplete)
        #expect(outcome.isUnbound)
    }

    @Test(arguments: [
        LoopbackExpectations(state: "s", issuer: "https://id.example", purpose: .logout),
        LoopbackExpectations(state: "s", requiresIssuer: true, purpose: .logout),
    ])
    func anIssuerIsAConfigurationError(_ expectations: LoopbackExpectations) async throws {
        let receiver = try LoopbackReceiver()
        await expectReason(.invalidConfiguration) { try await receiver.callback(expecting: expectations, timeout: .seconds(5)) }
    }

    @Test func theBlockingWaitReadsALogoutToo() throws {
        let receiver = try LoopbackReceiver()
        let request = try sendRequest(port: receiver.port, "/callback?state=\(Self.state)")
        let result = try receiver.receive(expecting: logout(), until: .now.advanced(by: .seconds(20)))
        guard case .callback(.success(let outcome)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(outcome.kind == .logoutComplete)
        #expect(request.readAll().statusCode == 200)
    }
}

/// The receiver, the router and a `LogoutAttempt`: `beginLogout` on a loopback route.
@Suite struct LoopbackRouterLogoutTests {
    static let idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"

    func makeRouter(path: String = "/callback") throws -> CallbackRouter {
        try RouterFixture.router(RouterFixture.oauth2("desktop", redirect: "http://127.0.0.1\(path)"), clock: SystemAttemptClock())
    }

    @Test func theEndSessionURLNamesTheBoundPortAndKeepsEverythingElse() throws {
        let router = try makeRouter()
        let receiver = try LoopbackReceiver()
        let logout = try router.beginLogout(
            on: "desktop", endSessionEndpoint: "https://id.example/logout?tenant=t1", idTokenHint: Self.idToken,
            extraParameters: [("x", "a b")])
        let url = try receiver.endSessionURL(for: logout)
        let parsed = try CallbackURL(parsing: url)
        let query = parsed.queryParameters
        #expect(try query.value(named: "post_logout_redirect_uri") == receiver.redirectURI)
        #expect(try query.value(named: "state") == logout.attempt.state)
        #expect(try query.value(named: "id_token_hint") == Self.idToken)
        #expect(try query.value(named: "tenant") == "t1")
        #expect(try query.value(named: "x") == "a b")
        #expect(query.names == (try CallbackURL(parsing: logout.url)).queryParameters.names, "same parameters, same order")
        #expect(url.hasPrefix("https://id.example/logout?tenant=t1&"))
    }

    @Test func anEndSessionURLForAnotherPathIsRefused() throws {
        let router = try makeRouter(path: "/other")
        let receiver = try LoopbackReceiver()
        let logout = try router.beginLogout(on: "desktop", endSessionEndpoint: "https://id.example/logout", clientID: "app")
        expectSyncReason(.invalidConfiguration) { try receiver.endSessionURL(for: logout) }
    }

    @Test func deliversTheLogoutOnceAndNeverToALoginsCallback() async throws {
        let router = try makeRouter()
        let receiver = try LoopbackReceiver()
        let login = try router.beginLogin(on: "desktop")
        let logout = try router.beginLogout(on: "desktop", endSessionEndpoint: "https://id.example/logout", clientID: "app")
        // The login's callback goes to the login, never to the logout.
        let loginCallback = try sendRequest(port: receiver.port, "/callback?code=c1&state=\(login.state)")
        let genuine = try sendRequest(port: receiver.port, "/callback?state=\(logout.attempt.state)")
        let delivered = try await receiver.callback(for: logout, router: router, timeout: .seconds(20))
        #expect(loginCallback.readAll().statusCode == 200, "delivered to the login attempt, whose page it is")
        #expect(genuine.readAll().statusCode == 200)
        #expect(delivered.attempt == logout.attempt)
        #expect(delivered.outcome.kind == .logoutComplete)
        let loginDelivery = try await router.callback(for: login, timeout: .seconds(5))
        #expect(loginDelivery.outcome.kind == .authorizationCode)
        expectSyncReason(.replayed) { try router.handle("http://127.0.0.1:\(receiver.port)/callback?state=\(logout.attempt.state)") }
        #expect(!isListening(port: receiver.port))
    }

    @Test func timesOutLikeALogin() async throws {
        let router = try makeRouter()
        let receiver = try LoopbackReceiver()
        let logout = try router.beginLogout(on: "desktop", endSessionEndpoint: "https://id.example/logout", clientID: "app")
        await expectReason(.timeout) { try await receiver.callback(for: logout, router: router, timeout: .milliseconds(200)) }
        #expect(router.pendingCount == 0)
    }
}
