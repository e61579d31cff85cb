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

/// The `error` of a token error response (RFC 6749 §5.2), kept as sent.
public struct TokenErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent.
    public let rawValue: String
    /// Wraps any code; ``isStandard`` says whether RFC 6749 §5.2 defines it.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code as sent.
    public var description: String { rawValue }

    /// `invalid_request`: a parameter is missing, repeated or malformed.
    public static let invalidRequest = TokenErrorCode(rawValue: "invalid_request")
    /// `invalid_client`: client authentication failed.
    public static let invalidClient = TokenErrorCode(rawValue: "invalid_client")
    /// `invalid_grant`: the code or refresh token is invalid, expired, revoked, used, or
    /// was issued to another client or redirect URI (or the PKCE verifier does not match).
    public static let invalidGrant = TokenErrorCode(rawValue: "invalid_grant")
    /// `unauthorized_client`: the client may not use this grant type.
    public static let unauthorizedClient = TokenErrorCode(rawValue: "unauthorized_client")
    /// `unsupported_grant_type`: the server does not support the grant type.
    public static let unsupportedGrantType = TokenErrorCode(rawValue: "unsupported_grant_type")
    /// `invalid_scope`: the requested scope is invalid, unknown, or exceeds the grant.
    public static let invalidScope = TokenErrorCode(rawValue: "invalid_scope")

    /// The six codes of RFC 6749 §5.2.
    public static let standardCodes: [TokenErrorCode] = [
        .invalidRequest, .invalidClient, .invalidGrant, .unauthorizedClient, .unsupportedGrantType, .invalidScope,
    ]

    /// Whether RFC 6749 §5.2 defines the code.
    public var isStandard: Bool { TokenErrorCode.standardCodes.contains(self) }
}
