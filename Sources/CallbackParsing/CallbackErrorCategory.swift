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

/// What kind of failure an error is, in a closed set an app can switch over exhaustively.
///
/// Reason codes are open (a later version adds codes); categories are not: every error type
/// of this package (``ParseError``, `CallbackError`, `TokenError`, `LoopbackError`,
/// `DesktopError`) has a `category`, and every reason code maps to exactly one of these.
///
/// ```swift
/// switch error.category {
/// case .cancelled: break                        // the user closed the page: say nothing
/// case .timedOut, .network: offerRetry()
/// case .providerRefused: show(error.errorDescription)
/// case .unsafe: show("That sign-in link was not accepted. Start again from the app.")
/// case .misconfigured: reportToDevelopers(error)
/// }
/// ```
///
/// The table of codes to categories is docs/errors.md's; it never changes a code's
/// category without a note in the changelog.
public enum CallbackErrorCategory: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The sign-in was cancelled: the user closed the page, or the app cancelled the attempt.
    case cancelled
    /// Nothing came back in time, or the attempt's deadline passed.
    case timedOut
    /// The provider (the authorization server) said no, e.g. `invalid_grant` at the token endpoint.
    case providerRefused
    /// The answer was refused as unsafe or not understood: malformed, forged, replayed, a state,
    /// issuer or nonce that does not match, a callback that belongs to no sign-in of this app.
    case unsafe
    /// The app's own setup is wrong: a redirect URI, a client id, a port, a scheme registration.
    case misconfigured
    /// The other side could not be reached, or did not confirm: try again.
    case network

    /// The wire name (`timedOut` is `"timedOut"`), as `rawValue`.
    public var description: String { rawValue }

    /// What happened, as the start of a sentence for people.
    package var headline: String {
        switch self {
        case .cancelled: "The sign-in was cancelled"
        case .timedOut: "The sign-in took too long"
        case .providerRefused: "The sign-in service refused the sign-in"
        case .unsafe: "The sign-in was refused as unsafe"
        case .misconfigured: "The app's sign-in is not set up correctly"
        case .network: "The sign-in could not reach the other side"
        }
    }

    /// What to do, for the category as a whole.
    package var recoverySuggestion: String {
        switch self {
        case .cancelled: "Start the sign-in again when you are ready."
        case .timedOut: "Start the sign-in again and finish it in the browser before the time runs out."
        case .providerRefused: "Sign in again; if it is refused again, check the account at the sign-in service."
        case .unsafe: "Start a new sign-in from the app; do not reuse a sign-in link or a page from elsewhere."
        case .misconfigured:
            "The app's sign-in settings (its redirect URI, client id or registration at the provider) need correcting; tell the app's developers."
        case .network: "Check the connection and try again."
        }
    }
}

extension ReasonCode {
    /// The stable number and category of each known code: the table of docs/errors.md.
    ///
    /// The numbers are NSError codes (`errorCode`): once given, a number is never reused or
    /// changed; a new code takes the next free number. `nil` for a code this table does not
    /// know (one made with `init(rawValue:)`, or added without a row: a test fails then).
    package var presentation: (errorCode: Int, category: CallbackErrorCategory)? {
        switch rawValue {
        // Syntax: a callback that is not well-formed is refused, never guessed at.
        case "empty_input": (1, .unsafe)
        case "too_long": (2, .unsafe)
        case "invalid_character": (3, .unsafe)
        case "invalid_scheme": (4, .unsafe)
        case "relative_reference": (5, .unsafe)
        case "invalid_authority": (6, .unsafe)
        case "invalid_host": (7, .unsafe)
        case "invalid_port": (8, .unsafe)
        case "invalid_percent_encoding": (9, .unsafe)
        case "invalid_utf8": (10, .unsafe)
        case "too_many_parameters": (11, .unsafe)
        case "duplicate_parameter": (12, .unsafe)
        // Policy
        case "invalid_configuration": (13, .misconfigured)
        case "scheme_not_allowed": (14, .misconfigured)
        case "redirect_uri_mismatch": (15, .unsafe)
        case "userinfo_not_allowed": (16, .unsafe)
        // Meaning
        case "missing_parameter": (17, .unsafe)
        case "invalid_parameter": (18, .unsafe)
        case "ambiguous_response": (19, .unsafe)
        case "parameters_in_fragment": (20, .unsafe)
        case "implicit_grant_not_supported": (21, .misconfigured)
        case "unknown_status": (22, .providerRefused) // an answer not understood: a 503, a redirect, an unknown status value
        case "state_missing": (23, .unsafe)
        case "state_mismatch": (24, .unsafe)
        case "issuer_missing": (25, .unsafe)
        case "issuer_mismatch": (26, .unsafe)
        // Lifecycle
        case "unknown_state": (27, .unsafe)
        case "replayed": (28, .unsafe)
        case "attempt_expired": (29, .timedOut)
        case "conflict": (30, .misconfigured)
        case "cancelled": (31, .cancelled)
        case "timeout": (32, .timedOut)
        case "no_route": (33, .unsafe)
        // Added after the first table
        case "parameters_in_query": (34, .unsafe)
        case "invalid_record": (35, .unsafe)
        // Tokens, ID tokens, discovery
        case "unsupported_token_type": (36, .unsafe)
        case "nonce_mismatch": (37, .unsafe)
        case "audience_mismatch": (38, .unsafe)
        case "token_expired": (39, .unsafe)
        case "token_hash_mismatch": (40, .unsafe)
        case "unsupported_algorithm": (41, .unsafe)
        // A refreshed ID token compared with the login's
        case "subject_mismatch": (42, .unsafe)
        case "auth_time_mismatch": (43, .unsafe)
        default: nil
        }
    }

    /// The code's stable NSError code (docs/errors.md): never renumbered; 0 for a code this
    /// version does not know.
    public var errorCode: Int { presentation?.errorCode ?? 0 }

    /// The closed category of this code. A code this version does not know is ``CallbackErrorCategory/unsafe``:
    /// a refusal not understood is treated as the strictest kind.
    public var category: CallbackErrorCategory { presentation?.category ?? .unsafe }

    /// What to do about a refusal with this code, for people.
    public var recoverySuggestion: String {
        switch self {
        case .conflict: "Finish or cancel the sign-in already in progress, then try again."
        case .replayed: "That sign-in was already used. Start a new sign-in from the app."
        case .attemptExpired: "Start the sign-in again; a sign-in must be finished before it expires."
        case .tokenExpired: "Check that this device's clock is right, then sign in again."
        default: category.recoverySuggestion
        }
    }

    /// A sentence for people: the category's headline, the refusal's `detail` and the code.
    /// `detail` must be free of secrets, as every detail of this package is.
    package func errorDescription(detail: String) -> String {
        let detail = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        return "\(category.headline): \(detail) (\(rawValue))."
    }
}

extension ParseError {
    /// The NSError domain `CallbackRouterFoundation` bridges this error with.
    public static let errorDomain = "CallbackParsing.ParseError"
    /// The reason's stable NSError code (``ReasonCode/errorCode``; docs/errors.md).
    public var errorCode: Int { reason.errorCode }
    /// The reason's closed category, to switch over exhaustively.
    public var category: CallbackErrorCategory { reason.category }
    /// What happened, for people: never a secret (it is built from ``detail``).
    public var errorDescription: String? { reason.errorDescription(detail: detail) }
    /// What to do, for people.
    public var recoverySuggestion: String? { reason.recoverySuggestion }
}
