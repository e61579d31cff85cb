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

/// The tokens of a successful token response (RFC 6749 §5.1), read from the response
/// (``TokenResponse``), merged by a refresh (``refreshed(by:)``) or rebuilt from storage
/// (``init(accessToken:tokenType:expiresIn:expiresAt:refreshToken:scope:idToken:)`` or
/// `Decodable`, TokenSet+Codable.swift).
///
/// The type does not prove where its values came from: ``TokenResponse/init(status:body:allowedTokenTypes:maxBodyBytes:)``
/// reads any bytes it is given. The ID token check leaves the signature unchecked only
/// because the caller read those bytes from the token endpoint over TLS (docs/tokens.md).
///
/// `description`, `debugDescription` and `dump` show the token type, lifetime, scope and
/// which tokens are present, never a token.
public struct TokenSet: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `access_token`: the credential for the resource server (a secret; never in a description).
    public let accessToken: String
    /// `token_type` as sent (e.g. `Bearer`, `bearer`).
    public let tokenType: String
    /// `expires_in`: the access token's lifetime in seconds, when sent.
    public let expiresIn: Int64?
    /// When the access token expires, in seconds since 1970 (UTC): the calendar time the
    /// response was read plus `expires_in`; nil when no `expires_in` was sent. What a stored
    /// token set keeps, since `expires_in` alone means nothing once the moment it was read
    /// is gone.
    public let expiresAt: Int64?
    /// `refresh_token`, when sent.
    public let refreshToken: String?
    /// `scope`, when sent (RFC 6749 §5.1: when it differs from the requested one).
    public let scope: String?
    /// `id_token`, the raw JWT, when sent (OpenID Connect). Check it with
    /// ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)`` before trusting any claim.
    public let idToken: String?
    /// The names of the members this package does not read, in document order.
    public let otherMemberNames: [String]

    /// Reads a token response's object; `receivedAt` (seconds since 1970) turns
    /// `expires_in` into ``expiresAt``.
    init(
        _ object: JSONObject, allowedTokenTypes: [String],
        receivedAt: Int64 = SystemAttemptClock().wallClockNanoseconds() / 1_000_000_000
    ) throws(CallbackError) {
        guard let accessToken = try TokenSet.string("access_token", in: object) else {
            throw CallbackError(.missingParameter, "the token response has no access_token")
        }
        guard let tokenType = try TokenSet.string("token_type", in: object) else {
            throw CallbackError(.missingParameter, "the token response has no token_type")
        }
        let type = TokenRequest.lowercased(tokenType)
        guard type == "bearer" || allowedTokenTypes.contains(where: { TokenRequest.lowercased($0) == type }) else {
            throw CallbackError(
                .unsupportedTokenType,
                "the token_type is not Bearer\(tokenType.utf8.count <= 32 ? " ('\(ParameterName.shown(tokenType))')" : "") and was not allowed"
            )
        }
        var expiresIn: Int64?
        if let value = object["expires_in"] {
            guard let number = value.number?.int64, number >= 0 else {
                throw CallbackError(.invalidParameter, "the token response's expires_in is not a non-negative integer")
            }
            expiresIn = number
        }
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresIn.map { receivedAt.addingReportingOverflow($0).overflow ? Int64.max : receivedAt + $0 }
        self.refreshToken = try TokenSet.string("refresh_token", in: object)
        self.scope = try TokenSet.string("scope", in: object)
        self.idToken = try TokenSet.string("id_token", in: object)
        let known: Set<String> = ["access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"]
        self.otherMemberNames = object.names.filter { !known.contains($0) }
    }

    /// A token set rebuilt from the values an app stored (as the `Decodable` conformance
    /// does), checked as a response is read: every string present is non-empty, the
    /// lifetime is not negative.
    ///
    /// - Throws: `invalid_parameter` naming the value that is empty or negative (never its text).
    public init(
        accessToken: String, tokenType: String, expiresIn: Int64? = nil, expiresAt: Int64?, refreshToken: String? = nil,
        scope: String? = nil, idToken: String? = nil
    ) throws(CallbackError) {
        let values: [(String, String?)] = [
            ("access_token", accessToken), ("token_type", tokenType), ("refresh_token", refreshToken), ("scope", scope),
            ("id_token", idToken),
        ]
        for (name, value) in values where value?.isEmpty == true {
            throw CallbackError(.invalidParameter, "the stored token set's \(name) is empty")
        }
        if let expiresIn, expiresIn < 0 {
            throw CallbackError(.invalidParameter, "the stored token set's expires_in is negative")
        }
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
        self.idToken = idToken
        self.otherMemberNames = []
    }

    /// This token set brought up to date by a refresh response's tokens (RFC 6749 §6): the
    /// new access token, type, lifetime and expiry; the new refresh token when the server
    /// rotated it (sent one), else this one's, which stays valid (RFC 6749 §6: the server
    /// MAY issue a new one); the new `scope` and `id_token` when sent, else this one's
    /// (OpenID Connect Core §12.2: a refresh response need not carry an ID token, and the
    /// login's one is what the next refresh's ID token is compared with).
    public func refreshed(by response: TokenSet) -> TokenSet {
        TokenSet(
            merging: response, refreshToken: response.refreshToken ?? refreshToken, scope: response.scope ?? scope,
            idToken: response.idToken ?? idToken)
    }

    /// `response` with the refresh token, scope and ID token given.
    private init(merging response: TokenSet, refreshToken: String?, scope: String?, idToken: String?) {
        self.accessToken = response.accessToken
        self.tokenType = response.tokenType
        self.expiresIn = response.expiresIn
        self.expiresAt = response.expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
        self.idToken = idToken
        self.otherMemberNames = response.otherMemberNames
    }

    /// Whether the access token has expired, or will within `leeway`, by `clock`'s calendar
    /// time; false when no expiry is known (no `expires_in` was sent).
    public func isExpired(leeway: Duration = .seconds(60), clock: any AttemptClock = SystemAttemptClock()) -> Bool {
        guard let expiresAt else { return false }
        let now = clock.wallClockNanoseconds() / 1_000_000_000
        return now.addingReportingOverflow(leeway.components.seconds).partialValue >= expiresAt
    }

    /// The member `name` as a non-empty string; nil when absent; `invalid_parameter` for
    /// another JSON type or the empty string.
    static func string(_ name: String, in object: JSONObject) throws(CallbackError) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.string else {
            throw CallbackError(.invalidParameter, "the token response's \(name) is a JSON \(value.typeName), not a string")
        }
        guard !text.isEmpty else {
            throw CallbackError(.invalidParameter, "the token response's \(name) is empty")
        }
        return text
    }

    /// Token type, lifetime, scope and the lengths of the tokens.
    public var description: String {
        var parts = ["token_type: \(ParameterName.shown(tokenType))", "access_token: <redacted, \(accessToken.utf8.count) bytes>"]
        if let expiresIn { parts.append("expires_in: \(expiresIn)") }
        if let expiresAt { parts.append("expires_at: \(expiresAt)") }
        if let refreshToken { parts.append("refresh_token: <redacted, \(refreshToken.utf8.count) bytes>") }
        if let scope { parts.append("scope: <\(scope.utf8.count) bytes>") }
        if let idToken { parts.append("id_token: <redacted, \(idToken.utf8.count) bytes>") }
        return "TokenSet(" + parts.joined(separator: ", ") + ")"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never a token.
    public var customMirror: Mirror { Mirror(self, children: ["tokens": description], displayStyle: .struct) }
}
