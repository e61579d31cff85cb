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

import CallbackDesktop
import CallbackRouter
import CallbackTestSupport
import Testing

/// The hand-off receiver awaiting a logout (OpenID Connect RP-Initiated Logout 1.0) through
/// the router, over the real socket in `$XDG_RUNTIME_DIR`.
@Suite struct HandoffReceiverLogoutTests {
    func makeRouter(acceptsLogoutWithoutState: Bool = false) throws -> CallbackRouter {
        try RouterFixture.router(
            RouterFixture.oauth2("desktop", redirect: "myapp:/callback", acceptsLogoutWithoutState: acceptsLogoutWithoutState),
            clock: SystemAttemptClock())
    }

    @Test func deliversTheLogoutsRedirectOnceAsLogoutComplete() async throws {
        let sandbox = Sandbox()
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "desktop", endSessionEndpoint: "https://id.example/logout", clientID: "app")
        let receiver = try HandoffReceiver(scheme: "myapp", state: logout.request.state, environment: sandbox.environment)
        let waiting = Task { try await receiver.callback(for: logout, router: router, timeout: .seconds(20)) }
        let url = "myapp:/callback?state=\(logout.attempt.state)"
        #expect(try await deliverOnThread(url, environment: sandbox.environment) == .delivered)
        let delivery = try await waiting.value
        #expect(delivery.attempt == logout.attempt)
        #expect(delivery.outcome.kind == .logoutComplete)
        #expect(!delivery.outcome.isUnbound)
        #expect(throws: CallbackError.self) { try router.handle(url) }
    }

    /// A login's callback, even one carrying the logout's state, never completes the logout;
    /// the logout's own redirect still does afterwards.
    @Test func aLoginsCallbackNeverCompletesTheLogout() async throws {
        let sandbox = Sandbox()
        let router = try makeRouter()
        let logout = try router.beginLogout(on: "desktop", endSessionEndpoint: "https://id.example/logout", clientID: "app")
        let receiver = try HandoffReceiver(scheme: "myapp", state: logout.request.state, environment: sandbox.environment)
        let waiting = Task { try await receiver.callback(for: logout, router: router, timeout: .seconds(20)) }
        let forged = "myapp:/callback?code=c1&state=\(logout.attempt.state)"
        #expect(try await deliverOnThread(forged, environment: sandbox.environment) == .delivered)
        let genuine = "myapp:/callback?state=\(logout.attempt.state)"
        #expect(try await deliverOnThread(genuine, environment: sandbox.environment) == .delivered)
        let delivery = try await waiting.value
        #expect(delivery.outcome.kind == .logoutComplete)
        #expect(delivery.outcome.value("code") == nil)
    }

    /// The reverse: a logout's redirect never completes a login waiting on the same scheme.
    /// Carrying the login's state, it is refused (`missing_parameter`) and, as every refused
    /// callback with a pending attempt's state does, ends that login with the refusal.
    @Test func aLogoutsRedirectNeverCompletesALogin() async throws {
        let sandbox = Sandbox()
        let router = try makeRouter()
        let login = try router.beginLogin(on: "desktop")
        let receiver = try HandoffReceiver(scheme: "myapp", state: login.state, environment: sandbox.environment)
        let waiting = Task { () async throws(CallbackError) -> Delivery in
            try await receiver.callback(for: login, router: router, timeout: .seconds(20))
        }
        #expect(try await deliverOnThread("myapp:/callback?state=\(login.state)", environment: sandbox.environment) == .delivered)
        let result = await waiting.result
        guard case .failure(let error) = result else { Issue.record("completed: \(result)"); return }
        #expect((error as? CallbackError)?.reason == ReasonCode.missingParameter)
        #expect(router.pendingCount == 0)
    }

    @Test func anAuth0ReturnToLogoutWithoutStateIsUnbound() async throws {
        let sandbox = Sandbox()
        let router = try makeRouter(acceptsLogoutWithoutState: true)
        let logout = try router.beginLogout(
            on: "desktop", endSessionEndpoint: "https://tenant.example/v2/logout", clientID: "app", style: .auth0ReturnTo)
        #expect(logout.request.state == nil)
        let receiver = try HandoffReceiver(scheme: "myapp", state: logout.request.state, environment: sandbox.environment)
        let waiting = Task { try await receiver.callback(for: logout, router: router, timeout: .seconds(20)) }
        #expect(try await deliverOnThread("myapp:/callback", environment: sandbox.environment) == .delivered)
        let delivery = try await waiting.value
        #expect(delivery.outcome.kind == .logoutComplete)
        #expect(delivery.outcome.isUnbound)
    }
}
