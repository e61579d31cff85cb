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

import Foundation

/// The provider's refusal carried by the callback itself (RFC 6749 §4.1.2.1, OpenID Connect
/// Core §3.1.2.6): `error=access_denied` when the user declined, `login_required`,
/// `invalid_scope`… What ``SignIn`` throws when the browser comes back with an error
/// instead of a code (the router delivers it as the outcome `authorization_error`).
///
/// `errorDescription` is our sentence; the provider's own `error_description` is
/// ``providerDescription``, its text, never shown as ours.
public struct AuthorizationError: Error, Sendable, PresentableError, CustomStringConvertible {
    /// The `error` the provider sent, e.g. `AuthorizationErrorCode/accessDenied`.
    public let code: AuthorizationErrorCode
    /// The provider's `error_description`, when sent: its text, for logs and developers.
    public let providerDescription: String?

    /// The provider's refusal `code`, with its `error_description` when there was one.
    public init(code: AuthorizationErrorCode, providerDescription: String? = nil) {
        self.code = code
        self.providerDescription = providerDescription
    }

    /// The NSError domain.
    public static let errorDomain = "CallbackRouterFoundation.AuthorizationError"

    /// The stable NSError code: the code's place in `AuthorizationErrorCode/standardCodes`
    /// plus one (RFC 6749 §4.1.2.1's seven, 1–7, then OpenID Connect Core §3.1.2.6's, 8–16),
    /// never renumbered; any other code is 0.
    public var errorCode: Int {
        AuthorizationErrorCode.standardCodes.firstIndex(of: code).map { $0 + 1 } ?? 0
    }

    /// The closed category: a refusal that says the app's request is wrong
    /// (`invalid_request`, `unauthorized_client`, `unsupported_response_type`,
    /// `invalid_scope`, and the request-object codes) is `.misconfigured`; `server_error` and
    /// `temporarily_unavailable` are `.network` (try again later); any other
    /// (`access_denied`, `login_required`, `consent_required`…) is `.providerRefused`.
    public var category: CallbackErrorCategory {
        switch code {
        case .invalidRequest, .unauthorizedClient, .unsupportedResponseType, .invalidScope, .invalidRequestURI, .invalidRequestObject,
            .requestNotSupported, .requestURINotSupported, .registrationNotSupported:
            .misconfigured
        case .serverError, .temporarilyUnavailable: .network
        default: .providerRefused
        }
    }

    /// What happened, for people: the provider's refusal and its code (shown only when it
    /// looks like a name).
    public var errorDescription: String? {
        let meaning: String
        switch code {
        case .accessDenied: meaning = "the request was denied (the user or the provider said no)"
        case .loginRequired, .interactionRequired, .consentRequired, .accountSelectionRequired:
            meaning = "the user must sign in or consent at the provider"
        case .serverError, .temporarilyUnavailable: meaning = "the provider could not answer now"
        default: meaning = "it refused the sign-in request"
        }
        let shown = code.isStandard ? code.rawValue : ParameterName.shown(code.rawValue)
        return "The sign-in service did not sign you in: \(meaning) (\(shown))."
    }

    /// What to do, for people.
    public var recoverySuggestion: String? {
        switch code {
        case .accessDenied: "Sign in again and allow the app's access, if you meant to."
        default: category.recoverySuggestion
        }
    }

    /// The code, as a log line of known shape (the provider's text left out).
    public var description: String {
        "AuthorizationError(\(code.isStandard ? code.rawValue : ParameterName.shown(code.rawValue)))"
    }
}
