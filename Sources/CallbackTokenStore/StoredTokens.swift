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

import CallbackTokens

/// One stored sign-in: its key and its tokens, with the access token's absolute expiry
/// (seconds since 1970, UTC; nil when the provider sent no `expires_in`).
///
/// `description`, `debugDescription` and `dump` show the key, the expiry and which tokens
/// are present, never a token.
public struct StoredTokens: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The issuer, client id, scopes and account the entry is stored under.
    public let key: TokenStoreKey
    /// The access token (a secret).
    public let accessToken: String
    /// The access token's type as the provider named it (`Bearer`, `DPoP`).
    public let tokenType: String
    /// When the access token expires, in seconds since 1970 (UTC); nil: not said.
    public let expiresAt: Int64?
    /// The refresh token (a secret), when one was issued.
    public let refreshToken: String?
    /// The ID token (a JWT, checked at login), when one was issued.
    public let idToken: String?
    /// The scope granted, when the provider said.
    public let grantedScope: String?
    /// When this entry was written, in seconds since 1970 (UTC).
    public let storedAt: Int64

    /// An entry as ``TokenStore`` saves it: the tokens of one sign-in under its key.
    public init(
        key: TokenStoreKey, accessToken: String, tokenType: String, expiresAt: Int64?, refreshToken: String?, idToken: String?,
        grantedScope: String?, storedAt: Int64
    ) {
        self.key = key
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.grantedScope = grantedScope
        self.storedAt = storedAt
    }

    /// The entry for `tokens` received at `now`: `expires_in` made absolute.
    public init(key: TokenStoreKey, tokens: TokenSet, receivedAt now: Int64) {
        self.init(
            key: key, accessToken: tokens.accessToken, tokenType: tokens.tokenType,
            expiresAt: tokens.expiresIn.map { now.addingReportingOverflow($0).overflow ? Int64.max : now + $0 },
            refreshToken: tokens.refreshToken, idToken: tokens.idToken, grantedScope: tokens.scope, storedAt: now)
    }

    /// The entry after a refresh at `now`: the new tokens, and the old refresh token kept
    /// when the provider did not send a new one (RFC 6749 §6: it may not rotate). The ID
    /// token stays the login's when the entry has one: a refreshed ID token is compared with
    /// the login's (OpenID Connect Core §12.2: the same `iss`, `sub`, `aud`, `azp`, and the
    /// original `auth_time`), so keeping the login's means every later refresh is compared
    /// with the original sign-in, never with a token a refresh brought. A refreshed one is
    /// kept only when the entry had none.
    public func refreshed(with tokens: TokenSet, at now: Int64) -> StoredTokens {
        let fresh = StoredTokens(key: key, tokens: tokens, receivedAt: now)
        return StoredTokens(
            key: key, accessToken: fresh.accessToken, tokenType: fresh.tokenType, expiresAt: fresh.expiresAt,
            refreshToken: fresh.refreshToken ?? refreshToken, idToken: idToken ?? fresh.idToken,
            grantedScope: fresh.grantedScope ?? grantedScope, storedAt: now)
    }

    /// Whether the access token is still valid for at least `margin` seconds after `now`
    /// (a token without an expiry counts as valid).
    public func isValid(at now: Int64, margin: Int64) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt > now && expiresAt - now > margin
    }

    /// The key, the expiry and which tokens are present; never a token.
    public var description: String {
        "StoredTokens(\(key), token_type: \(tokenType), expires_at: \(expiresAt.map(String.init) ?? "unknown"), access_token: <redacted>, refresh_token: \(refreshToken == nil ? "none" : "<redacted>"), id_token: \(idToken == nil ? "none" : "<redacted>"))"
    }

    /// The same redacted text as `description`: the key, the expiry and which tokens are present.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description only.
    public var customMirror: Mirror { Mirror(self, children: ["entry": description], displayStyle: .struct) }
}
