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

/// What the token endpoint answered (RFC 6749 §5.1, §5.2): tokens, or an error response.
///
/// ```swift
/// switch try TokenResponse(status: httpStatus, body: bytes) {
/// case .tokens(let tokens): tokens.accessToken
/// case .error(let error) where error.code == .invalidGrant: // the code was used or expired
/// case .error(let error): error.code
/// }
/// ```
///
/// Read strictly (docs/tokens.md):
/// - the body is at most ``maxBodyBytes`` (64 KiB by default; `too_long`) of strict JSON
///   (the JSON reader's refusals, docs/tokens.md: a duplicated member is `duplicate_parameter`), an object;
/// - HTTP 200: `access_token` (a non-empty string) is required (`missing_parameter`), so
///   is `token_type`, which must be `Bearer` compared case-insensitively unless listed in
///   `allowedTokenTypes` (`unsupported_token_type`); `expires_in` when present is a
///   non-negative JSON integer (not a string, not `3600.0`); `refresh_token`, `scope`
///   and `id_token` when present are non-empty strings; a wrong type is
///   `invalid_parameter`;
/// - the status comes first, its body unread (docs/tokens.md): a 3xx (a redirect, never
///   followed), a 5xx (the server failed), a 2xx other than 200 and any other status
///   are `unknown_status`, the detail naming the status in words;
/// - a 4xx: the error response its body carries (`error` is required and is RFC 6749 §5.2
///   NQSCHAR, else `invalid_parameter`; `error_description` and `error_uri` are kept only
///   when they are NQSCHAR, else withheld and named in ``TokenError/withheldFields``); a
///   4xx whose body is not a JSON object with `error` (an HTML page) is `unknown_status`;
/// - HTTP 200 with an `error` member is `ambiguous_response`, never read as tokens.
///
/// Not checked here: `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1
/// says the server MUST send them; many do not, and what matters is that the client
/// does not store the response: the `URLSession` transport uses an ephemeral session
/// without a cache). The ID token's claims are checked by
/// ``TokenSet/checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``.
public enum TokenResponse: Sendable, CustomStringConvertible {
    /// HTTP 200 with the tokens.
    case tokens(TokenSet)
    /// An error response (RFC 6749 §5.2), typically HTTP 400 or 401.
    case error(TokenError)

    /// The default ceiling on a response body: 64 KiB.
    public static let maxBodyBytes = 64 * 1024

    /// Reads the token endpoint's answer: its HTTP status and body.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code of the response.
    ///   - body: the response body's bytes (UTF-8 JSON).
    ///   - allowedTokenTypes: `token_type`s accepted besides `Bearer` (e.g. `["DPoP"]`),
    ///     compared case-insensitively.
    ///   - maxBodyBytes: the largest body read; a longer one is `too_long`.
    public init(
        status: Int, body: some Collection<UInt8>, allowedTokenTypes: [String] = [], maxBodyBytes: Int = TokenResponse.maxBodyBytes
    ) throws(CallbackError) {
        switch try EndpointStatus.read(
            status: status, body: body, maxBodyBytes: maxBodyBytes, endpoint: "the token endpoint", answer: "the token response",
            readingAs: "tokens")
        {
        case .success(let object): self = .tokens(try TokenSet(object, allowedTokenTypes: allowedTokenTypes))
        case .failure(let error): self = .error(error)
        }
    }

    /// The tokens or the error, redacted.
    public var description: String {
        switch self {
        case .tokens(let tokens): "TokenResponse.tokens(\(tokens))"
        case .error(let error): "TokenResponse.error(\(error))"
        }
    }
}
