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

extension Delivery {
    /// The delivery of a callback that was validated without a router (a
    /// `LoopbackReceiver.receive(expecting:until:)` wait, a `CallbackValidator`), bound to
    /// the secrets its authorization request sent, so that ``TokenRequest`` and
    /// ``TokenSet/checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)`` can be used
    /// after it as after a router's delivery. The command-line `login` finishes its job
    /// through it.
    ///
    /// Nothing is taken on trust: the outcome must be an `authorization_code` whose
    /// `state` equals `secrets.state` (compared in constant time; `state_mismatch`), and
    /// `redirectURI` must be a valid native redirect URI (`invalid_configuration`). The
    /// attempt it carries is never pending anywhere: it has id 0 and route `standalone`.
    ///
    /// - Parameters:
    ///   - outcome: the validated outcome of the callback.
    ///   - secrets: the state, PKCE pair and nonce of the authorization request.
    ///   - redirectURI: the `redirect_uri` the authorization request sent, exactly.
    ///   - issuer: the issuer the callback's `iss` was checked against, if any.
    public init(
        validated outcome: CallbackOutcome, secrets: AttemptSecrets, redirectURI: String, issuer: String? = nil
    ) throws(CallbackError) {
        guard outcome.kind == .authorizationCode, outcome.code != nil else {
            throw CallbackError(
                .invalidConfiguration, "only an authorization_code outcome redeems a code; this one is \(outcome.kind.rawValue)")
        }
        guard let state = outcome.state, constantTimeEquals(state.utf8, secrets.state.utf8) else {
            throw CallbackError(.stateMismatch, "the outcome's state is not the one of these secrets")
        }
        let redirect: RedirectURI
        do {
            redirect = try RedirectURI(redirectURI, policy: .native, allowsLocalhost: true)
        } catch {
            throw CallbackError(.invalidConfiguration, "the redirect URI is not a valid native redirect URI (\(error.reason))")
        }
        let attempt = LoginAttempt(
            id: 0, route: "standalone", state: secrets.state, pkce: secrets.pkce, nonce: secrets.nonce, redirectURI: redirect,
            dialect: outcome.dialect, expectedIssuer: issuer, createdAt: ClockInstant(nanoseconds: 0),
            expiresAt: ClockInstant(nanoseconds: Int64.max), isLogout: false, expiresAtWallClock: Int64.max)
        self.init(outcome: outcome, attempt: attempt)
    }
}
