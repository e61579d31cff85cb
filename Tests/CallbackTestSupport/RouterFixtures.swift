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

@_spi(Testing) import CallbackRouter

/// The routers the tests build: one function that builds a router from routes, and the
/// routes tests use most, so that a test file names its routes and nothing else.
public enum RouterFixture {
    /// The redirect URI of an app's OAuth 2.0 route: `com.example.app:/oauth2redirect`.
    public static let appRedirect = "com.example.app:/oauth2redirect"

    /// A router over `routes` on `clock` (a manual clock: time passes only when a test says
    /// so), remembering as many ended attempts as it may have pending unless told otherwise.
    public static func router(
        _ routes: Route..., clock: any AttemptClock = ManualAttemptClock(), maxPendingAttempts: Int = 65_536,
        maxRememberedEndings: Int? = nil
    ) throws -> CallbackRouter {
        var builder = RouterBuilder()
        for route in routes { builder.add(route) }
        guard let maxRememberedEndings else { return try builder.build(clock: clock, maxPendingAttempts: maxPendingAttempts) }
        return try builder.build(clock: clock, maxPendingAttempts: maxPendingAttempts, maxRememberedEndings: maxRememberedEndings)
    }

    /// An OAuth 2.0 route on ``appRedirect`` (or `redirect`).
    public static func oauth2(
        _ id: RouteID, redirect: String = appRedirect, issuer: String? = nil, requiresIssuer: Bool = false,
        attemptLifetime: Duration = .seconds(600), acceptsLogoutWithoutState: Bool = false,
        handler: CallbackHandler? = nil, logoutHandler: CallbackHandler? = nil
    ) throws -> Route {
        Route(
            id, redirectURI: try RedirectURI(redirect), dialect: .oauth2, issuer: issuer, requiresIssuer: requiresIssuer,
            attemptLifetime: attemptLifetime, acceptsLogoutWithoutState: acceptsLogoutWithoutState, handler: handler,
            logoutHandler: logoutHandler)
    }

    /// A Prelude route, "prelude", on `myapp://oauth-callback` (its provider accepts only a
    /// custom scheme).
    public static func prelude(handler: CallbackHandler? = nil, logoutHandler: CallbackHandler? = nil) throws -> Route {
        Route(
            "prelude", redirectURI: try RedirectURI("myapp://oauth-callback", policy: .customSchemeOnly), dialect: .prelude,
            handler: handler, logoutHandler: logoutHandler)
    }
}
