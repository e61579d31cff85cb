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

/// The response parameters this library knows by name, in the order the outcome (and
/// the CLI's JSON) lists them.
enum KnownField {
    /// The fields the classifier's common path numbers (``CallbackClassifier/FieldID``):
    /// the response parameters that a registered redirect URI may not carry and the wrong
    /// component may not hold.
    static let classic: [String] = [
        "code", "state", "iss", "challenge_token", "action", "status", "session_id", "tracking_id",
        "state_key", "identifier", "message", "rotating_token_nonce", "created_session_id",
        "error", "error_description", "error_uri",
    ]

    /// Fields the common path does not number, read by one dialect each (Ory's `flow`,
    /// Clerk's magic link and failure parameters): a callback that carries one on the
    /// dialect that reads it goes the full way.
    static let added: [String] = ["flow", "flow_id", "approval_token", "__clerk_status", "__clerk_error_code"]

    /// Every known field, in the order the outcome (and the CLI's JSON) lists them.
    static let order: [String] = classic + added

    static func syntax(of name: String) -> ParameterSyntax {
        switch name {
        case "state": return .opaque
        case "error": return .errorCode
        case "error_description": return .errorDescription
        case "error_uri": return .errorURI
        case "message", "identifier": return .humanText
        case "challenge_token": return .compactJWS
        case "flow": return .uuid
        default: return .token
        }
    }

    /// Tokens of the implicit (and hybrid) grant: refused wherever they appear.
    static let implicitGrantTokens: [String] = ["access_token", "id_token"]

    /// Parameters that carry a success credential: with `error` they make a response ambiguous.
    static let successCredentials: [String] = [
        "code", "challenge_token", "rotating_token_nonce", "created_session_id", "session_id",
        "state_key", "status",
    ]

    /// Every name a provider response uses: in the wrong component they are refused.
    /// (``added`` fields are not among them: a registered redirect URI or the other
    /// component holding `flow` meant nothing before, and still means nothing.)
    static let responseParameters: Set<String> = Set(classic + implicitGrantTokens + ["token_type", "expires_in"])
}
