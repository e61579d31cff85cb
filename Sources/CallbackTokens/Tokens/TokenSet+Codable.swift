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

/// A token set an app can keep: encoded under the token response's own member names plus
/// `expires_at`, the absolute expiry (seconds since 1970), so that a stored set still knows
/// when its access token expires.
///
/// ```json
/// {"access_token":"…","token_type":"Bearer","expires_in":3600,"expires_at":1795000000,
///  "refresh_token":"…","scope":"openid profile","id_token":"…"}
/// ```
///
/// What it encodes is secret (docs/tokens.md, "Keeping tokens"): keep it in the Keychain on
/// Apple platforms or the Secret Service (libsecret) on Linux, never in `UserDefaults`, a
/// file or a log. Decoding checks what ``init(accessToken:tokenType:expiresIn:expiresAt:refreshToken:scope:idToken:)``
/// checks; a refusal is a `DecodingError.dataCorrupted` whose description names the member,
/// never its value. The names of members this package does not read are not kept.
extension TokenSet: Codable {
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
        case scope
        case idToken = "id_token"
    }

    /// Rebuilds a stored token set.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                accessToken: container.decode(String.self, forKey: .accessToken),
                tokenType: container.decode(String.self, forKey: .tokenType),
                expiresIn: container.decodeIfPresent(Int64.self, forKey: .expiresIn),
                expiresAt: container.decodeIfPresent(Int64.self, forKey: .expiresAt),
                refreshToken: container.decodeIfPresent(String.self, forKey: .refreshToken),
                scope: container.decodeIfPresent(String.self, forKey: .scope),
                idToken: container.decodeIfPresent(String.self, forKey: .idToken))
        } catch let error as CallbackError {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.detail))
        }
    }

    /// Stores the token set: every value, the tokens included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(expiresIn, forKey: .expiresIn)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(idToken, forKey: .idToken)
    }
}
