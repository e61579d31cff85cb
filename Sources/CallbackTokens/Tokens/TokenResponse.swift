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
/// ``TokenSet/checkIDToken(for:clientID:issuer:maxClockSkew:clock:)``.
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
        // The status comes first: a redirect's or a server error's body (often HTML) is
        // never read, so it cannot surface as a JSON refusal or pass for an answer.
        let endpoint = "the token endpoint"
        guard status == 200 || (400 ... 499).contains(status) else {
            throw EndpointStatus.refusal(status, from: endpoint)
        }
        guard body.count <= maxBodyBytes else {
            throw CallbackError(
                .tooLong, at: maxBodyBytes, "the token response is \(body.count) bytes long; at most \(maxBodyBytes) are read")
        }
        if status != 200 {
            // A 4xx: the token error its JSON body carries, else the status in words.
            guard let document = try? JSONReader.parse(body, limits: JSONLimits(maxBytes: maxBodyBytes)), let object = document.object,
                object["error"] != nil
            else {
                throw EndpointStatus.refusal(status, from: endpoint)
            }
            self = .error(try TokenError(object, status: status))
            return
        }
        let document = try JSONReader.parse(body, limits: JSONLimits(maxBytes: maxBodyBytes))
        guard let object = document.object else {
            throw CallbackError(.invalidParameter, at: 0, "the token response is a JSON \(document.typeName), not an object")
        }
        if let error = object["error"] {
            let code = error.string.map { "(\(ParameterName.shown($0)))" } ?? "(a JSON \(error.typeName))"
            throw CallbackError(
                .ambiguousResponse,
                "the token endpoint answered HTTP 200 (OK), success, with an error member \(code): refused, not read as tokens; "
                    + "the server contradicts itself, so tell the provider's operator")
        }
        self = .tokens(try TokenSet(object, allowedTokenTypes: allowedTokenTypes))
    }

    /// The tokens or the error, redacted.
    public var description: String {
        switch self {
        case .tokens(let tokens): "TokenResponse.tokens(\(tokens))"
        case .error(let error): "TokenResponse.error(\(error))"
        }
    }
}

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
    /// ``checkIDToken(for:clientID:issuer:maxClockSkew:clock:)`` before trusting any claim.
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

/// An error response of the token endpoint (RFC 6749 §5.2).
public struct TokenError: Error, Sendable, CustomStringConvertible {
    /// The `error` code, e.g. `invalid_grant`.
    public let code: TokenErrorCode
    /// `error_description`, when sent and RFC 6749 §5.2 NQSCHAR (%x20-21 / %x23-5B / %x5D-7E).
    public let errorDescription: String?
    /// `error_uri`, when sent and NQSCHAR.
    public let errorURI: String?
    /// The HTTP status it came with.
    public let status: Int
    /// `error_description` or `error_uri` when they broke their syntax: withheld, never passed on.
    public let withheldFields: [String]

    init(_ object: JSONObject, status: Int) throws(CallbackError) {
        guard let code = object["error"]?.string, !code.isEmpty, code.utf8.allSatisfy(TokenError.isNQSChar) else {
            throw CallbackError(.invalidParameter, "the error response's error is not a non-empty NQSCHAR string (RFC 6749 §5.2)")
        }
        var withheld: [String] = []
        func text(_ name: String) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.string, text.utf8.allSatisfy(TokenError.isNQSChar) else {
                withheld.append(name)
                return nil
            }
            return text
        }
        self.code = TokenErrorCode(rawValue: code)
        self.errorDescription = text("error_description")
        self.errorURI = text("error_uri")
        self.status = status
        self.withheldFields = withheld
    }

    static func isNQSChar(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x21 || (0x23 ... 0x5B).contains(byte) || (0x5D ... 0x7E).contains(byte)
    }

    /// The status and the code. The description and URI are the server's text, not secrets,
    /// but are left out so a log line stays one line of known shape.
    public var description: String {
        "TokenError(HTTP \(status), error: \(code.isStandard ? code.rawValue : ParameterName.shown(code.rawValue)))"
    }
}

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

extension TokenError {
    /// The NSError domain `CallbackRouterFoundation` bridges this error with.
    public static let errorDomain = "CallbackRouter.TokenError"

    /// The stable NSError code of the `error` code (docs/errors.md): the RFC 6749 §5.2 codes
    /// are 1–6, never renumbered; any other code is 0.
    public var errorCode: Int {
        switch code {
        case .invalidRequest: 1
        case .invalidClient: 2
        case .invalidGrant: 3
        case .unauthorizedClient: 4
        case .unsupportedGrantType: 5
        case .invalidScope: 6
        default: 0
        }
    }

    /// The closed category: the codes that mean the app's registration or request is wrong
    /// (`invalid_request`, `invalid_client`, `unauthorized_client`, `unsupported_grant_type`,
    /// `invalid_scope`) are `.misconfigured`; any other (`invalid_grant`:
    /// the code or refresh token was used, expired or revoked) is
    /// `.providerRefused`.
    public var category: CallbackErrorCategory {
        switch code {
        case .invalidRequest, .invalidClient, .unauthorizedClient, .unsupportedGrantType, .invalidScope: .misconfigured
        default: .providerRefused
        }
    }

    /// What happened, for people: the code and what it means, and the HTTP status.
    ///
    /// Not ``errorDescription``, which is the server's own `error_description` (its text,
    /// not ours); a code that does not look like a name is shown as its length only. With
    /// `import CallbackRouterFoundation` this is the bridged error's `localizedDescription`.
    public var presentableDescription: String {
        let meaning: String
        switch code {
        case .invalidRequest: meaning = "the request was not one it accepts"
        case .invalidClient: meaning = "it did not accept the app's client id or secret"
        case .invalidGrant: meaning = "the authorization code or refresh token is invalid, expired, revoked or already used"
        case .unauthorizedClient: meaning = "the app is not allowed this kind of sign-in"
        case .unsupportedGrantType: meaning = "it does not support this kind of sign-in"
        case .invalidScope: meaning = "it refused the permissions (scopes) asked for"
        default: meaning = "it gave a reason this app does not know"
        }
        let shown = code.isStandard ? code.rawValue : ParameterName.shown(code.rawValue)
        return "The sign-in service refused to issue tokens: \(meaning) (\(shown), HTTP \(status))."
    }

    /// What to do, for people.
    public var recoverySuggestion: String? {
        switch code {
        case .invalidGrant: "Sign in again."
        case .invalidClient, .unauthorizedClient:
            "Check the client id (and secret, for a confidential client) registered at the provider; tell the app's developers."
        case .invalidScope: "Ask for scopes the provider supports (its discovery document lists them); tell the app's developers."
        default: category.recoverySuggestion
        }
    }
}
