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

extension TokenSet {
    /// The default allowance for clocks that disagree: 30 seconds (oauth4webapi's
    /// `clockTolerance`). An ID token arrives a moment after it is issued, so the skew only
    /// absorbs the difference between the provider's clock and this device's; docs/tokens.md
    /// says why 30 s and not 300 s or 0.
    public static let defaultMaxClockSkew: Duration = .seconds(30)

    /// The default for how long ago an ID token may have been issued: ten minutes (AppAuth-iOS
    /// refuses an `iat` more than 600 s from now). Its `iat` may be at most this much, plus the
    /// clock skew, before now.
    public static let defaultMaxIssuedAtAge: Duration = .seconds(600)

    /// The `alg` an ID token may carry when the provider's list is not given: RS256 (OpenID
    /// Connect Core §3.1.3.7 item 7: "the default RS256"). With discovery, pass
    /// ``ProviderMetadata/idTokenSigningAlgorithms`` instead.
    public static let defaultSigningAlgorithms: [String] = ["RS256"]

    /// Checks the response's ID token against the login it answers (OpenID Connect Core
    /// §3.1.3.7) and returns its claims.
    ///
    /// Checked, each with its reason code:
    /// - there is an `id_token` (`missing_parameter`), a JWS in compact form: three
    ///   base64url parts, header and payload strict JSON objects (`invalid_parameter`; an
    ///   encrypted, five-part token is `unsupported_algorithm`);
    /// - the JOSE header: `alg` present, not `none` in any spelling (`NONE`, `nOnE`), and one
    ///   of `signingAlgorithms`; no `crit` (RFC 7515 §4.1.11: no extension is understood
    ///   here) (`unsupported_algorithm`);
    /// - `iss` equals `issuer` exactly (`issuer_missing`, `issuer_mismatch`);
    /// - `sub` is a non-empty string (`missing_parameter`, `invalid_parameter`);
    /// - `aud` (a string or an array of strings) contains `clientID`; with several audiences
    ///   `azp` is required, and when present equals `clientID` (`audience_mismatch`);
    /// - `exp` is an integer after now minus `maxClockSkew` (`token_expired`); `iat` is an
    ///   integer not after now plus `maxClockSkew`, and so is `nbf` when present
    ///   (`invalid_parameter`), and `iat` is not before now minus `maxClockSkew` minus
    ///   `maxIssuedAtAge` (`token_expired`); a fraction or a string is `invalid_parameter`;
    /// - `nonce` equals the attempt's, compared in constant time (`nonce_mismatch`, also
    ///   when it is missing);
    /// - `at_hash` (against the access token) and `c_hash` (against the delivery's code),
    ///   when present: the base64url of the left half of SHA-256, for `alg` RS256, PS256,
    ///   ES256 and HS256 (`token_hash_mismatch`); with another `alg` a present hash cannot
    ///   be checked and is `unsupported_algorithm`.
    ///
    /// Not checked: the signature. OpenID Connect Core §3.1.3.7 item 6 lets the TLS server
    /// validation of the token endpoint stand in for it when the ID token arrives directly
    /// from that endpoint, which is the only way a ``TokenSet`` is made. Send the request
    /// over `https` with certificate validation on (the `URLSession` transport does).
    ///
    /// - Parameters:
    ///   - delivery: the delivery whose code this response redeemed (its attempt's nonce,
    ///     its code for `c_hash`).
    ///   - clientID: the client id the token was requested with.
    ///   - issuer: the expected issuer, e.g. from discovery's checked `issuer`.
    ///   - signingAlgorithms: the `alg` values allowed: the provider's
    ///     (``ProviderMetadata/idTokenSigningAlgorithms``), or the one registered for the
    ///     client (default RS256).
    ///   - maxClockSkew: how far the clocks may disagree (default 30 seconds).
    ///   - maxIssuedAtAge: how long before now, beyond the skew, the token may have been
    ///     issued (default ten minutes).
    ///   - clock: where the current calendar time is read (``AttemptClock/wallClockNanoseconds()``).
    public func checkIDToken(
        for delivery: Delivery, clientID: String, issuer: String, signingAlgorithms: [String] = TokenSet.defaultSigningAlgorithms,
        maxClockSkew: Duration = TokenSet.defaultMaxClockSkew, maxIssuedAtAge: Duration = TokenSet.defaultMaxIssuedAtAge,
        clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims {
        guard let idToken else {
            throw CallbackError(.missingParameter, "the token response has no id_token")
        }
        return try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: delivery.outcome.code, nonce: .required(delivery.attempt.nonce), clientID: clientID,
            issuer: issuer,
            settings: .init(signingAlgorithms: signingAlgorithms, maxClockSkew: maxClockSkew, maxIssuedAtAge: maxIssuedAtAge),
            now: clock.wallClockNanoseconds() / 1_000_000_000)
    }

    /// Checks the ID token of a refresh response (OpenID Connect Core §12.2) against the
    /// claims checked at login, and returns its claims; nil when the response has no
    /// `id_token` (a refresh response need not carry one).
    ///
    /// Everything ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``
    /// checks, with the first token's issuer as the expected one (the `iat` bound included: a
    /// refreshed ID token is newly issued, OpenID Connect Core §12.2), and the comparisons of
    /// ``checkRefreshedIDToken(previousIDToken:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:authTime:)``:
    /// the same `iss` (`issuer_mismatch`), `sub` (`subject_mismatch`), audiences and `azp`
    /// (`audience_mismatch`), `auth_time` as `authTime` says (`auth_time_mismatch`), and
    /// `nonce` absent or the same as the first token's (`nonce_mismatch`). A `c_hash` is
    /// refused: a refresh redeems no code (`token_hash_mismatch`).
    public func checkRefreshedIDToken(
        previous: IDTokenClaims, clientID: String, signingAlgorithms: [String] = TokenSet.defaultSigningAlgorithms,
        maxClockSkew: Duration = TokenSet.defaultMaxClockSkew, maxIssuedAtAge: Duration = TokenSet.defaultMaxIssuedAtAge,
        clock: any AttemptClock = SystemAttemptClock(), authTime: RefreshedAuthTime = .mustMatch
    ) throws(CallbackError) -> IDTokenClaims? {
        try checkRefreshed(
            against: IDTokenCheck.Previous(previous), clientID: clientID,
            settings: .init(
                signingAlgorithms: signingAlgorithms, maxClockSkew: maxClockSkew, maxIssuedAtAge: maxIssuedAtAge,
                previousIssuedAt: previous.issuedAt),
            clock: clock, authTime: authTime)
    }

    /// Checks the ID token of a refresh response (OpenID Connect Core §12.2) when the
    /// login's ID token is not at hand, and returns its claims; nil when the response has
    /// no `id_token`.
    ///
    /// Everything ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``
    /// checks, with the same reason codes, except the `nonce`: `iss` equals `issuer`, `aud`
    /// contains `clientID` (and `azp` with several audiences), `exp` and `iat` within
    /// `maxClockSkew` and `iat` within `maxIssuedAtAge` (a refreshed ID token is newly issued,
    /// OpenID Connect Core §12.2), `alg` one of `signingAlgorithms` and never `none`, no
    /// `crit`, `at_hash` against the new access token when
    /// present. A `c_hash` is refused: a refresh redeems no code (`token_hash_mismatch`).
    /// A `nonce` in the refreshed token is not compared (there is nothing to compare it
    /// with; ``IDTokenClaims/nonceChecked`` is false), and neither is the subject: that
    /// the refreshed token names the same user as the login needs the login's token, given
    /// to ``checkRefreshedIDToken(previousIDToken:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:authTime:)``.
    ///
    /// Not checked: the signature, as in ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``.
    public func checkRefreshedIDToken(
        clientID: String, issuer: String, signingAlgorithms: [String] = TokenSet.defaultSigningAlgorithms,
        maxClockSkew: Duration = TokenSet.defaultMaxClockSkew, maxIssuedAtAge: Duration = TokenSet.defaultMaxIssuedAtAge,
        clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims? {
        guard let idToken else { return nil }
        return try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: nil, nonce: .unchecked, clientID: clientID, issuer: issuer,
            settings: .init(signingAlgorithms: signingAlgorithms, maxClockSkew: maxClockSkew, maxIssuedAtAge: maxIssuedAtAge),
            now: clock.wallClockNanoseconds() / 1_000_000_000)
    }

    /// Checks the ID token of a refresh response (OpenID Connect Core §12.2) against the
    /// login's ID token given as its compact string (what a process that did not make the
    /// login's ``IDTokenClaims`` holds), and returns its claims; nil when the response has
    /// no `id_token`.
    ///
    /// `previousIDToken` is read first, with ``checkPreviousIDToken(_:clientID:issuer:)``:
    /// it must be a well-formed JWS in compact form whose `iss` equals `issuer`, with a
    /// `sub`, an `aud` containing `clientID`, and `auth_time`, `nonce` and `azp` well-typed
    /// when present; its `exp` is not looked at (the login's token has usually expired), nor is
    /// its signature. Then everything
    /// ``checkRefreshedIDToken(clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``
    /// checks, and the comparisons OpenID Connect Core §12.2 asks for, each refusal naming
    /// the claim and never its value: `iss` the same (`issuer_mismatch`); `sub` the same
    /// (`subject_mismatch`: the provider answered with another account's token); `aud` the
    /// same audiences, and `azp` the same or absent from both (`audience_mismatch`);
    /// `auth_time`, when both tokens carry one, the same (`auth_time_mismatch`) unless
    /// `authTime` is ``RefreshedAuthTime/mayChange``; and `nonce` absent or the same as the
    /// earlier token's (`nonce_mismatch`; a `nonce` when the earlier token had none is
    /// refused too).
    ///
    /// Why reading an unverified earlier token is safe: its claims are used only as
    /// expectations, never as facts returned to the caller. Every claim returned comes from
    /// the new ID token, which arrived directly from the token endpoint over a TLS-validated
    /// connection (OpenID Connect Core §3.1.3.7 item 6) and passes every check above on its
    /// own against `issuer` and `clientID`. A tampered or forged earlier token can therefore
    /// only make a genuine refreshed token fail a comparison (a refusal), never make a token
    /// pass that would otherwise be refused: the comparisons only add conditions.
    ///
    /// - Parameters:
    ///   - previousIDToken: the `id_token` of the login (or of the last checked refresh).
    ///   - clientID: the client id the token was requested with.
    ///   - issuer: the expected issuer, e.g. from discovery's checked `issuer`.
    ///   - signingAlgorithms: the `alg` values allowed (default RS256; with discovery,
    ///     ``ProviderMetadata/idTokenSigningAlgorithms``).
    ///   - maxClockSkew: how far the clocks may disagree (default 30 seconds).
    ///   - maxIssuedAtAge: how long before now, beyond the skew, the refreshed token may have
    ///     been issued (default ten minutes).
    ///   - clock: where the current calendar time is read (``AttemptClock/wallClockNanoseconds()``).
    ///   - authTime: whether the refreshed token's `auth_time` must be the login's
    ///     (``RefreshedAuthTime/mustMatch``, the default and the specification's rule) or may
    ///     change (``RefreshedAuthTime/mayChange``: accepted, and
    ///     ``IDTokenClaims/authTimeChanged`` says so).
    public func checkRefreshedIDToken(
        previousIDToken: String, clientID: String, issuer: String, signingAlgorithms: [String] = TokenSet.defaultSigningAlgorithms,
        maxClockSkew: Duration = TokenSet.defaultMaxClockSkew, maxIssuedAtAge: Duration = TokenSet.defaultMaxIssuedAtAge,
        clock: any AttemptClock = SystemAttemptClock(), authTime: RefreshedAuthTime = .mustMatch
    ) throws(CallbackError) -> IDTokenClaims? {
        let previous = try IDTokenCheck.previous(previousIDToken, clientID: clientID, issuer: issuer)
        return try checkRefreshed(
            against: previous, clientID: clientID,
            settings: .init(
                signingAlgorithms: signingAlgorithms, maxClockSkew: maxClockSkew, maxIssuedAtAge: maxIssuedAtAge,
                previousIssuedAt: previous.issuedAt),
            clock: clock, authTime: authTime)
    }

    /// The refreshed ID token checked on its own against the login's issuer, then compared
    /// with the login's claims (OpenID Connect Core §12.2).
    private func checkRefreshed(
        against previous: IDTokenCheck.Previous, clientID: String, settings: IDTokenCheck.Settings, clock: any AttemptClock,
        authTime: RefreshedAuthTime
    ) throws(CallbackError) -> IDTokenClaims? {
        guard let idToken else { return nil }
        var claims = try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: nil, nonce: .ifPresent(previous.nonce), clientID: clientID,
            issuer: previous.issuer, settings: settings, now: clock.wallClockNanoseconds() / 1_000_000_000)
        try IDTokenCheck.compare(&claims, with: previous, authTime: authTime)
        return claims
    }

    /// Checks that `previousIDToken` can serve as the login's ID token for
    /// ``checkRefreshedIDToken(previousIDToken:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:authTime:)``, which
    /// runs the same check first: call it before sending a refresh request, so that a
    /// mistaken earlier token is refused before a (possibly rotating) refresh token is spent.
    ///
    /// Refused: not three base64url parts with JSON object header and payload, or no `alg`
    /// or `alg` `none` in any spelling (`invalid_parameter`); `iss` missing or not `issuer`
    /// (`issuer_missing`, `issuer_mismatch`); no non-empty `sub` (`missing_parameter`,
    /// `invalid_parameter`); `aud` not containing `clientID` (`audience_mismatch`);
    /// `auth_time` not a NumericDate, or `nonce` or `azp` not a string (`invalid_parameter`).
    /// Every detail names it as the earlier ID token.
    public static func checkPreviousIDToken(_ previousIDToken: String, clientID: String, issuer: String) throws(CallbackError) {
        _ = try IDTokenCheck.previous(previousIDToken, clientID: clientID, issuer: issuer)
    }
}
