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

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SignIn {
    /// Signs in through the browser and the RFC 8252 loopback receiver, in one call:
    /// discovers `issuer`, begins an attempt (state, PKCE S256, nonce), binds a
    /// `LoopbackReceiver` on `127.0.0.1` and hands `open` a one-time link to the
    /// authorization request (`LoopbackReceiver/startURL`: the state never reaches a
    /// command line), waits for the callback through a router, redeems the code with the
    /// exact redirect URI sent (its port included), and checks the ID token (`iss`, `aud`,
    /// `exp`, `iat`, the nonce, `at_hash`, `c_hash`).
    ///
    /// ```swift
    /// let signIn = try await SignIn.loopback(issuer: "https://accounts.example.com", clientID: "abc123") { url in
    ///     openInBrowser(url)
    /// }
    /// print("signed in as \(signIn.claims?.subject ?? "?")")
    /// ```
    ///
    /// The issuer must be `https`; `http` to a loopback IP literal (a provider on this
    /// machine, for tests) only with `Options.allowingLoopbackHTTP`. The client is public
    /// (RFC 8252 §8.4: a native app keeps no secret).
    ///
    /// - Parameters:
    ///   - issuer: the provider's issuer, exactly as its discovery document names it.
    ///   - clientID: the app's client id; the provider must accept
    ///     `http://127.0.0.1/callback` at any port as its redirect URI (RFC 8252 §7.3).
    ///   - scope: the scopes, space-separated; `openid` is needed for the ID token.
    ///   - options: the session, the timeout, the receiver's settings…
    ///   - open: hands the URL to the system browser; an error it throws ends the sign-in
    ///     and is rethrown as it is.
    /// - Throws: `CallbackError` (discovery, a refused callback, `timeout`, `cancelled`,
    ///   the token response or the ID token refused), `LoopbackError` (the receiver could
    ///   not bind), ``AuthorizationError`` (the provider refused in the callback),
    ///   `TokenError` (the token endpoint refused: `invalid_grant`…), `URLError` (a
    ///   request did not complete); each with its `localizedDescription` (docs/errors.md).
    public static func loopback(
        issuer: String, clientID: String, scope: String = "openid", options: Options = Options(),
        open: @escaping @Sendable (URL) async throws -> Void
    ) async throws -> SignIn {
        try checkLoopbackHTTP(issuer, options: options)
        let metadata = try await options.session.discover(issuer: issuer, allowingLoopbackHTTP: options.allowingLoopbackHTTP)
        let receiver = try LoopbackReceiver(options.loopback)
        defer { receiver.close() }
        // The route names the receiver's host and path without the port (any port matches a
        // loopback redirect URI); the attempt is begun with the exact one, port included, so
        // that the token request sends what the authorization request sent.
        let bound = try CallbackURL(parsing: receiver.redirectURI)
        let route = try RedirectURI("http://\(bound.host?.text ?? "127.0.0.1")\(bound.path)", policy: .native)
        let router = try router(for: route, metadata: metadata)
        let attempt = try router.beginLogin(on: routeID, redirectURI: receiver.redirectURI)
        let request = try receiver.authorizationRequest(
            for: attempt, endpoint: metadata.authorizationEndpoint, clientID: clientID, scope: scope,
            extraParameters: options.extraParameters)
        try receiver.setAuthorizationURL(request.url)
        guard let start = URL(string: receiver.startURL) else {
            throw CallbackError(.invalidConfiguration, "the receiver's start link is not a URL Foundation reads")
        }
        let wait = Task { try await receiver.callback(for: attempt, router: router, timeout: options.timeout) }
        let delivery = try await awaiting(wait, afterOpening: start, with: open, cancel: { router.cancel(attempt) })
        return try await redeem(delivery, metadata: metadata, clientID: clientID, options: options)
    }

    /// Signs in through a browser whose callback the app receives itself, in one call: as
    /// ``loopback(issuer:clientID:scope:options:open:)``, but `open` gets the authorization
    /// request's URL and returns the callback URL the app received
    /// (`ASWebAuthenticationSession`'s completion, `onOpenURL`), which goes through a router
    /// before the code is redeemed. Nothing here is specific to a platform.
    ///
    /// - Parameters:
    ///   - issuer: the provider's issuer, exactly as its discovery document names it.
    ///   - clientID: the app's client id, registered with `redirectURI`.
    ///   - redirectURI: the app's registered redirect URI (`com.example.app:/oauth2redirect`,
    ///     or a claimed `https` one), validated with `RedirectURIPolicy/native`.
    ///   - scope: the scopes, space-separated; `openid` is needed for the ID token.
    ///   - options: the session, the timeout, further request parameters.
    ///   - open: presents the URL and returns the callback URL; an error it throws (the
    ///     user closed the sheet) ends the sign-in and is rethrown as it is.
    /// - Throws: as ``loopback(issuer:clientID:scope:options:open:)``, and the router's
    ///   refusal of the callback URL (`state_mismatch`, `no_route`, `issuer_mismatch`…).
    public static func redirect(
        issuer: String, clientID: String, redirectURI: String, scope: String = "openid", options: Options = Options(),
        open: @escaping @Sendable (URL) async throws -> URL
    ) async throws -> SignIn {
        try checkLoopbackHTTP(issuer, options: options)
        let metadata = try await options.session.discover(issuer: issuer, allowingLoopbackHTTP: options.allowingLoopbackHTTP)
        let router = try router(for: try RedirectURI(redirectURI, policy: .native), metadata: metadata)
        let attempt = try router.beginLogin(on: routeID)
        let request = try attempt.authorizationRequest(
            endpoint: metadata.authorizationEndpoint, clientID: clientID, scope: scope, extraParameters: options.extraParameters)
        guard let url = request.foundationURL else {
            throw CallbackError(.invalidConfiguration, "the authorization request is not a URL Foundation reads the same way")
        }
        let wait = Task { try await router.callback(for: attempt, timeout: options.timeout) }
        let delivery = try await awaiting(
            wait, afterOpening: url,
            with: { url in
                do {
                    try router.handle(try await open(url))
                } catch {
                    router.cancel(attempt) // a callback that did not end the wait must not leave it waiting
                    throw error
                }
            }, cancel: { router.cancel(attempt) })
        return try await redeem(delivery, metadata: metadata, clientID: clientID, options: options)
    }

    /// The one route of a sign-in's router.
    static let routeID: RouteID = "sign-in"

    /// A router of one OAuth 2.0 route; it requires `iss` in the callback when discovery
    /// says the provider sends it (RFC 9207).
    static func router(for redirectURI: RedirectURI, metadata: ProviderMetadata) throws(CallbackError) -> CallbackRouter {
        var builder = RouterBuilder()
        builder.add(
            Route(
                routeID, redirectURI: redirectURI, dialect: .oauth2, issuer: metadata.issuer,
                requiresIssuer: metadata.authorizationResponseIssParameterSupported))
        return try builder.build()
    }

    /// Runs `open(url)` while `wait` waits, then returns what `wait` got. When `open` throws,
    /// the wait is ended (`cancel`) and `open`'s error is thrown; when the calling task is
    /// cancelled, so is the wait.
    static func awaiting(
        _ wait: Task<Delivery, any Error>, afterOpening url: URL, with open: @Sendable (URL) async throws -> Void,
        cancel: @Sendable () -> Void
    ) async throws -> Delivery {
        try await withTaskCancellationHandler {
            do {
                try await open(url)
            } catch {
                cancel()
                _ = await wait.result
                throw error
            }
            return try await wait.value
        } onCancel: {
            wait.cancel()
        }
    }

    /// Redeems the delivered code (with the attempt's exact redirect URI) and checks the ID token.
    static func redeem(_ delivery: Delivery, metadata: ProviderMetadata, clientID: String, options: Options) async throws -> SignIn {
        if delivery.outcome.kind == .authorizationError {
            throw AuthorizationError(
                code: delivery.outcome.error ?? AuthorizationErrorCode(rawValue: ""), providerDescription: delivery.outcome.errorDescription
            )
        }
        let request = try TokenRequest.authorizationCode(
            for: delivery, redirectURI: delivery.attempt.redirectURI.url.string, tokenEndpoint: metadata.tokenEndpoint,
            clientID: clientID, allowingLoopbackHTTP: options.allowingLoopbackHTTP)
        switch try await options.session.exchange(request) {
        case .tokens(let tokens):
            let algorithms = metadata.idTokenSigningAlgorithms
            let claims = try tokens.checkIDToken(
                for: delivery, clientID: clientID, issuer: metadata.issuer, signingAlgorithms: algorithms,
                maxClockSkew: options.maxClockSkew)
            return SignIn(
                issuer: metadata.issuer, clientID: clientID, tokenEndpoint: metadata.tokenEndpoint, tokens: tokens, claims: claims,
                signingAlgorithms: algorithms)
        case .error(let error):
            throw error
        }
    }
}
