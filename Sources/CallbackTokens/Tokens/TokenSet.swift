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

/// The tokens of a successful token response (RFC 6749 §5.1). Made only by reading a
/// response (``TokenResponse``), so its ID token is known to come from the token endpoint.
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
    /// `refresh_token`, when sent.
    public let refreshToken: String?
    /// `scope`, when sent (RFC 6749 §5.1: when it differs from the requested one).
    public let scope: String?
    /// `id_token`, the raw JWT, when sent (OpenID Connect). Check it with
    /// ``checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)`` before trusting any claim.
    public let idToken: String?
    /// The names of the members this package does not read, in document order.
    public let otherMemberNames: [String]

    init(_ object: JSONObject, allowedTokenTypes: [String]) throws(CallbackError) {
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
        self.refreshToken = try TokenSet.string("refresh_token", in: object)
        self.scope = try TokenSet.string("scope", in: object)
        self.idToken = try TokenSet.string("id_token", in: object)
        let known: Set<String> = ["access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"]
        self.otherMemberNames = object.names.filter { !known.contains($0) }
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
