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
    /// Redeems the refresh token for new tokens (RFC 6749 §6) and keeps this value current:
    /// ``tokens`` becomes `TokenSet/refreshed(by:)` of the answer (a rotated refresh token
    /// replaces the old one; one the server did not rotate is kept), and ``claims`` the
    /// refreshed ID token's, checked against the previous one when the answer has one (OpenID
    /// Connect Core §12.2: the same `iss`, `sub`, `aud` and `azp`, refused with
    /// `issuer_mismatch`, `subject_mismatch`, `audience_mismatch`; the same `auth_time` as
    /// `Options/refreshedAuthTime` says, `auth_time_mismatch`). Store the value again
    /// afterwards: the old refresh token may no longer work.
    ///
    /// Before anything is sent, the stored ID token is read as the one to compare with
    /// (`TokenSet/checkPreviousIDToken(_:clientID:issuer:)`), so a mistaken stored value is
    /// refused before a (possibly rotating) refresh token is spent. On any error this value
    /// is left as it was.
    ///
    /// - Throws: `invalid_configuration` for an `http` issuer without
    ///   `Options/allowingLoopbackHTTP`; `missing_parameter` when there is no refresh token (sign in again; some
    ///   providers need the `offline_access` scope for one); `TokenError` (`invalid_grant`:
    ///   the refresh token expired or was revoked: sign in again); the ID token's refusals;
    ///   `URLError`.
    public mutating func refresh(options: Options = Options()) async throws {
        guard let refreshToken = tokens.refreshToken else {
            throw CallbackError(
                .missingParameter,
                "this sign-in has no refresh token, so it cannot be refreshed: sign in again (some providers send one only for the offline_access scope)"
            )
        }
        try SignIn.checkLoopbackHTTP(issuer, options: options)
        if let previous = tokens.idToken { try TokenSet.checkPreviousIDToken(previous, clientID: clientID, issuer: issuer) }
        let request = try TokenRequest.refresh(
            refreshToken, tokenEndpoint: tokenEndpoint, clientID: clientID, allowingLoopbackHTTP: options.allowingLoopbackHTTP)
        switch try await options.session.exchange(request) {
        case .tokens(let answer):
            var checked: IDTokenClaims?
            if let claims {
                checked = try answer.checkRefreshedIDToken(
                    previous: claims, clientID: clientID, signingAlgorithms: signingAlgorithms, maxClockSkew: options.maxClockSkew,
                    authTime: options.refreshedAuthTime)
            } else if let previous = tokens.idToken {
                checked = try answer.checkRefreshedIDToken(
                    previousIDToken: previous, clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms,
                    maxClockSkew: options.maxClockSkew, authTime: options.refreshedAuthTime)
            } else {
                checked = try answer.checkRefreshedIDToken(
                    clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms, maxClockSkew: options.maxClockSkew)
            }
            tokens = tokens.refreshed(by: answer)
            if let checked { claims = checked }
        case .error(let error):
            throw error
        }
    }
}
