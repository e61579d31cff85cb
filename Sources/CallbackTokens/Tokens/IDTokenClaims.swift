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

/// The claims of an ID token that passed OpenID Connect Core §3.1.3.7's checks, made only
/// by ``TokenSet/checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)`` and the
/// `checkRefreshedIDToken` methods of ``TokenSet``: an ID token this package has not seen
/// arrive in a token response cannot become one.
///
/// `description` shows the issuer, audiences and times; the subject's length only.
public struct IDTokenClaims: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `iss`: equal to the expected issuer, byte for byte.
    public let issuer: String
    /// `sub`: the user's identifier at the issuer.
    public let subject: String
    /// `aud`: contains the client id.
    public let audience: [String]
    /// `azp`, when present: the client id.
    public let authorizedParty: String?
    /// `exp`, seconds since the Unix epoch: in the future (within the skew) when checked.
    public let expiresAt: Int64
    /// `iat`, seconds since the Unix epoch: not in the future beyond the skew.
    public let issuedAt: Int64
    /// `auth_time`, when present.
    public let authTime: Int64?
    /// The JWS header's `alg` (not verified: see docs/tokens.md).
    public let algorithm: String
    /// Whether `at_hash` was present and matched the access token.
    public let accessTokenHashChecked: Bool
    /// Whether `c_hash` was present and matched the code.
    public let codeHashChecked: Bool
    /// Whether `nonce` was compared and matched: always after a login's check; after a
    /// refresh only when the refreshed token carries a `nonce` and the login's token was
    /// given to compare it with.
    public let nonceChecked: Bool
    /// Whether this is a refreshed ID token whose `auth_time` is not the login's, accepted
    /// because the check was given ``RefreshedAuthTime/mayChange``: the provider sent a new
    /// authentication time where OpenID Connect Core §12.2 says it must keep the original's
    /// (worth telling the user). Always false after a login's check.
    public internal(set) var authTimeChanged = false
    /// The payload's members, for claims this type does not name (`email`, `name`…).
    let claims: JSONObject

    /// The claim `name` when it is a JSON string (`email`, `name`, `acr`…), else nil.
    public func stringClaim(_ name: String) -> String? { claims[name]?.string }

    /// The names of every claim in the payload, in order.
    public var claimNames: [String] { claims.names }

    /// Issuer, audiences, times and which hashes were checked; the subject's length only.
    public var description: String {
        "IDTokenClaims(iss: \(issuer), sub: <\(subject.utf8.count) bytes>, aud: [\(audience.map { ParameterName.shown($0) }.joined(separator: ", "))], exp: \(expiresAt), iat: \(issuedAt), alg: \(ParameterName.shown(algorithm)), nonce: \(nonceChecked ? "matched" : "not checked")\(authTimeChanged ? ", auth_time: changed" : "")\(accessTokenHashChecked ? ", at_hash: matched" : "")\(codeHashChecked ? ", c_hash: matched" : ""))"
    }

    /// The same text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the description, never the payload.
    public var customMirror: Mirror { Mirror(self, children: ["claims": description], displayStyle: .struct) }
}
