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
    /// Checks the ID token of a device code grant's response (RFC 8628 §3.5, OpenID
    /// Connect Core §3.1.3.7) and returns its claims.
    ///
    /// The device flow sends no nonce and redeems no authorization code, so this is the
    /// check of ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``
    /// without those two: there is an `id_token` (`missing_parameter`; call this only when
    /// one is expected or present), `alg` one of `signingAlgorithms` (the provider's
    /// `id_token_signing_alg_values_supported`; RS256 when it lists none) and never `none`
    /// (`unsupported_algorithm`), `iss` equals `issuer`, `sub`, `aud` contains `clientID`
    /// (and `azp` with several audiences), `exp` and `iat` within `maxClockSkew`, and
    /// `at_hash` against the access token when present, each with the same reason code. A
    /// `nonce` is not compared (none was sent; ``IDTokenClaims/nonceChecked`` is false); a
    /// `c_hash` is refused (`token_hash_mismatch`): no code was redeemed.
    ///
    /// Not checked: the signature, as in ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``
    /// (the token arrived directly from the token endpoint over validated TLS).
    public func checkDeviceFlowIDToken(
        clientID: String, issuer: String, signingAlgorithms: [String] = TokenSet.defaultSigningAlgorithms,
        maxClockSkew: Duration = TokenSet.defaultMaxClockSkew, clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims {
        guard
            let claims = try checkRefreshedIDToken(
                clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms, maxClockSkew: maxClockSkew, clock: clock)
        else {
            throw CallbackError(.missingParameter, "the token response has no id_token")
        }
        return claims
    }
}
