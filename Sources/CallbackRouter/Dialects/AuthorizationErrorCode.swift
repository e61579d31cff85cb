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

/// The `error` of an error response, kept exactly as it came.
///
/// Every code RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6 define is a static
/// member; any other code the provider sends (`redirect_uri_mismatch` from GitHub,
/// `invalid_client`…) is kept as is, and ``isStandard`` says whether it is one of those.
///
/// ```swift
/// if outcome.error == .accessDenied { /* the user said no */ }
/// ```
public struct AuthorizationErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `error` parameter exactly as the provider sent it (decoded).
    public let rawValue: String

    /// Wraps any error code; ``isStandard`` says whether the RFCs define it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The error code as sent, e.g. `access_denied`.
    public var description: String { rawValue }

    // MARK: RFC 6749 §4.1.2.1

    /// `invalid_request`: the request is missing a parameter, or is otherwise malformed.
    public static let invalidRequest = AuthorizationErrorCode(rawValue: "invalid_request")
    /// `unauthorized_client`: the client may not use this method.
    public static let unauthorizedClient = AuthorizationErrorCode(rawValue: "unauthorized_client")
    /// `access_denied`: the resource owner or the server denied the request.
    public static let accessDenied = AuthorizationErrorCode(rawValue: "access_denied")
    /// `unsupported_response_type`: the server does not support this response type.
    public static let unsupportedResponseType = AuthorizationErrorCode(rawValue: "unsupported_response_type")
    /// `invalid_scope`: the scope is invalid, unknown or malformed.
    public static let invalidScope = AuthorizationErrorCode(rawValue: "invalid_scope")
    /// `server_error`: the server met an unexpected condition.
    public static let serverError = AuthorizationErrorCode(rawValue: "server_error")
    /// `temporarily_unavailable`: the server is overloaded or under maintenance.
    public static let temporarilyUnavailable = AuthorizationErrorCode(rawValue: "temporarily_unavailable")

    // MARK: OpenID Connect Core §3.1.2.6

    /// `interaction_required`: `prompt=none` but the user must interact.
    public static let interactionRequired = AuthorizationErrorCode(rawValue: "interaction_required")
    /// `login_required`: `prompt=none` but the user must log in.
    public static let loginRequired = AuthorizationErrorCode(rawValue: "login_required")
    /// `account_selection_required`: the user must pick an account.
    public static let accountSelectionRequired = AuthorizationErrorCode(rawValue: "account_selection_required")
    /// `consent_required`: the user must consent.
    public static let consentRequired = AuthorizationErrorCode(rawValue: "consent_required")
    /// `invalid_request_uri`: the `request_uri` is invalid or unreachable.
    public static let invalidRequestURI = AuthorizationErrorCode(rawValue: "invalid_request_uri")
    /// `invalid_request_object`: the `request` object is invalid.
    public static let invalidRequestObject = AuthorizationErrorCode(rawValue: "invalid_request_object")
    /// `request_not_supported`: the server does not support the `request` parameter.
    public static let requestNotSupported = AuthorizationErrorCode(rawValue: "request_not_supported")
    /// `request_uri_not_supported`: the server does not support `request_uri`.
    public static let requestURINotSupported = AuthorizationErrorCode(rawValue: "request_uri_not_supported")
    /// `registration_not_supported`: the server does not support the `registration` parameter.
    public static let registrationNotSupported = AuthorizationErrorCode(rawValue: "registration_not_supported")

    /// Every code of RFC 6749 §4.1.2.1, then OpenID Connect Core §3.1.2.6.
    public static let standardCodes: [AuthorizationErrorCode] = [
        .invalidRequest, .unauthorizedClient, .accessDenied, .unsupportedResponseType,
        .invalidScope, .serverError, .temporarilyUnavailable,
        .interactionRequired, .loginRequired, .accountSelectionRequired, .consentRequired,
        .invalidRequestURI, .invalidRequestObject, .requestNotSupported,
        .requestURINotSupported, .registrationNotSupported,
    ]

    /// Whether the code is one the two specifications define.
    public var isStandard: Bool { AuthorizationErrorCode.standardCodes.contains(self) }
}
