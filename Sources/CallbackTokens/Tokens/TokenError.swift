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
