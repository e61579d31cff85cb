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

/// What a callback means, as a wire name (`"authorization_code"`).
public struct OutcomeKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire name printed as `"outcome"` by `callback-router parse`.
    public let rawValue: String

    /// Wraps a wire name as is; any name is accepted, so that kinds can be added later.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `authorization_code`: OAuth 2.0 `code` (+ `state`, `iss`), to redeem with PKCE.
    public static let authorizationCode = OutcomeKind(rawValue: "authorization_code")
    /// `challenge_token`: Prelude's single-use token, to finalize with the code verifier.
    public static let challengeToken = OutcomeKind(rawValue: "challenge_token")
    /// `session_token_exchange_code`: Ory's second half of the exchange code.
    public static let sessionTokenExchangeCode = OutcomeKind(rawValue: "session_token_exchange_code")
    /// `login_success`: Zephr `status=success` with a `session_id`.
    public static let loginSuccess = OutcomeKind(rawValue: "login_success")
    /// `partial_registration`: Zephr `status=partial` with a `state_key` to finish registering.
    public static let partialRegistration = OutcomeKind(rawValue: "partial_registration")
    /// `login_failure`: Zephr `status=failure`, optional `message`. A provider failure.
    public static let loginFailure = OutcomeKind(rawValue: "login_failure")
    /// `rotating_token_nonce`: Clerk's nonce, optional `created_session_id`.
    public static let rotatingTokenNonce = OutcomeKind(rawValue: "rotating_token_nonce")
    /// `authorization_error`: `error` (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6). A provider failure.
    public static let authorizationError = OutcomeKind(rawValue: "authorization_error")

    /// `clerk_failure`: Clerk reported that the sign-in failed or was cancelled
    /// (`__clerk_status=failed`, or Android's `__clerk_error_code` alone). A provider failure,
    /// always ``CallbackOutcome/isUnbound`` (it carries no secret: anyone can forge one).
    /// `__clerk_error_code` is normalised as clerk-js does: `oauth_access_denied` (the user
    /// cancelled or denied) kept, any other code `oauth_callback_failed`.
    public static let clerkFailure = OutcomeKind(rawValue: "clerk_failure")
    /// `account_transfer`: Clerk's `__clerk_status=failed` with `external_account_not_found`
    /// (the sign-in continues as a sign-up) or `external_account_exists` (the sign-up continues
    /// as a sign-in). Not a failure; always ``CallbackOutcome/isUnbound``: confirm with Clerk
    /// (reload the sign-in) before acting on it.
    public static let accountTransfer = OutcomeKind(rawValue: "account_transfer")
    /// `bare_callback`: a Clerk callback with no result in the URL. Neither a failure nor a
    /// transfer: the app must ask Clerk for the sign-in's status (clerk-ios and clerk-js
    /// reload it). Always ``CallbackOutcome/isUnbound``.
    public static let bareCallback = OutcomeKind(rawValue: "bare_callback")
    /// `magic_link`: a Clerk email magic link, `flow_id` and `approval_token` (a single-use
    /// secret, redeemed with the attempt's code verifier).
    public static let magicLink = OutcomeKind(rawValue: "magic_link")

    /// `logout_complete`: the provider ended the session and sent the browser back to the
    /// post-logout redirect URI (OpenID Connect RP-Initiated Logout 1.0 §3), with the
    /// logout's `state`, or with none on a route that accepts logouts without state
    /// (``CallbackOutcome/isUnbound``: not tied to any request).
    public static let logoutComplete = OutcomeKind(rawValue: "logout_complete")

    /// `continue_login_flow`: Ory's account linking. A native social sign-up met an identity
    /// that already exists, and Kratos sent the browser back to `return_to` with the id of a
    /// new login flow (`flow`, a UUID) and no `code`: the app fetches that login flow and
    /// continues it (the person signs in with the existing account to link the new one).
    /// Neither a success nor a provider failure: it ends the wait (no code follows) and the
    /// helper exits 0.
    public static let continueLoginFlow = OutcomeKind(rawValue: "continue_login_flow")

    /// Every kind. Its order is the order of the places the classifier keeps outcomes by:
    /// a new kind is appended.
    public static let allCases: [OutcomeKind] = [
        .authorizationCode, .challengeToken, .sessionTokenExchangeCode, .loginSuccess,
        .partialRegistration, .loginFailure, .rotatingTokenNonce, .authorizationError,
        .logoutComplete, .clerkFailure, .accountTransfer, .bareCallback, .magicLink, .continueLoginFlow,
    ]

    /// Whether the provider reported a failure (the helper exits 1): the login did not
    /// succeed (`authorization_error`, `login_failure`, `clerk_failure`).
    public var isProviderFailure: Bool { self == .authorizationError || self == .loginFailure || self == .clerkFailure }

    /// The wire name, as `callback-router parse` prints it in `"outcome"`.
    public var description: String { rawValue }
}
