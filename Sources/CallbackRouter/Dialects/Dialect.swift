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

/// Which provider's callback grammar reads a callback: what its parameters mean.
///
/// A struct with static members rather than an enum, so that new dialects do not break
/// exhaustive `switch`es in users' code. See docs/dialects.md for every dialect's callback.
///
/// | dialect | callback | outcome |
/// |---|---|---|
/// | ``oauth2`` | `code`, `state`, optional `iss` | ``OutcomeKind/authorizationCode`` |
/// | ``prelude`` | `challenge_token` | ``OutcomeKind/challengeToken`` |
/// | ``ory`` | `code` | ``OutcomeKind/sessionTokenExchangeCode`` |
/// | ``ory`` | `flow` (a login flow's id), no `code` | ``OutcomeKind/continueLoginFlow`` |
/// | ``zephr`` | `status=success\|partial\|failure` | ``OutcomeKind/loginSuccess``, ``OutcomeKind/partialRegistration``, ``OutcomeKind/loginFailure`` |
/// | ``clerk`` | `rotating_token_nonce` | ``OutcomeKind/rotatingTokenNonce`` |
/// | ``clerk`` | `__clerk_status=failed`, `__clerk_error_code` | ``OutcomeKind/clerkFailure``, ``OutcomeKind/accountTransfer`` |
/// | ``clerk`` | `flow_id`, `approval_token` | ``OutcomeKind/magicLink`` |
/// | ``clerk`` | nothing | ``OutcomeKind/bareCallback`` |
/// | any | `error` | ``OutcomeKind/authorizationError`` |
/// | ``auto`` | picks by the parameters present, never ``ory`` | as above |
public struct Dialect: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name used on the command line and in the JSON output (`"oauth2"`).
    public let rawValue: String
    /// The dialect as a small number (``Tag``): every `Dialect` is one of ``allCases``, so
    /// equal tags mean equal names, and the classifier compares an integer, not a string.
    let tag: UInt8

    /// The tags: each dialect's place in ``allCases``.
    enum Tag {
        static let auto: UInt8 = 0, oauth2: UInt8 = 1, prelude: UInt8 = 2, ory: UInt8 = 3, zephr: UInt8 = 4, clerk: UInt8 = 5
    }

    /// The dialect with this name; nil for a name that is not one of ``allCases``.
    public init?(rawValue: String) {
        guard let known = Dialect.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    private init(uncheckedName: String, tag: UInt8) {
        self.rawValue = uncheckedName
        self.tag = tag
    }

    /// Equal names (every dialect is one of ``allCases``: equal tags).
    public static func == (a: Dialect, b: Dialect) -> Bool { a.tag == b.tag }

    /// Hashes the name, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Picks the dialect from the parameters present: `code` → ``oauth2``,
    /// `challenge_token` → ``prelude``, `rotating_token_nonce` → ``clerk``, `status` →
    /// ``zephr``, `error` alone → an ``OutcomeKind/authorizationError`` read as ``oauth2``.
    /// Never picks ``ory``: its `code` cannot be told apart from OAuth's.
    public static let auto = Dialect(uncheckedName: "auto", tag: Tag.auto)
    /// OAuth 2.0 / OpenID Connect authorization code response (RFC 6749 §4.1.2, RFC 9207).
    public static let oauth2 = Dialect(uncheckedName: "oauth2", tag: Tag.oauth2)
    /// Prelude social login: `challenge_token`.
    public static let prelude = Dialect(uncheckedName: "prelude", tag: Tag.prelude)
    /// Ory native flow `return_to`: `code`, the second half of a session token exchange code;
    /// or, when a social sign-up meets an existing identity (account linking), `flow` alone:
    /// the login flow to continue (``OutcomeKind/continueLoginFlow``).
    public static let ory = Dialect(uncheckedName: "ory", tag: Tag.ory)
    /// Zephr OAuth: `status=success|partial|failure` with a session id, a state key or a message.
    public static let zephr = Dialect(uncheckedName: "zephr", tag: Tag.zephr)
    /// Clerk: native OAuth's `rotating_token_nonce` (optional `created_session_id`), its
    /// failure, transfer and bare callbacks, and email magic links (`flow_id`,
    /// `approval_token`). Stateless: Clerk's native OAuth sends and checks no state of the
    /// app's. Hosted auth (state, nonce and session) is ``ProviderProfile/clerkHosted``.
    public static let clerk = Dialect(uncheckedName: "clerk", tag: Tag.clerk)

    /// Every dialect, ``auto`` first.
    public static let allCases: [Dialect] = [.auto, .oauth2, .prelude, .ory, .zephr, .clerk]

    /// Whether the provider's callback carries no `state` of the app's own (Prelude, Zephr,
    /// Ory, Clerk's native OAuth): such a route can have only one pending attempt at a time.
    /// (A Clerk route with ``ProviderProfile/clerkHosted`` carries one: it is not stateless.)
    public var isStateless: Bool { self == .prelude || self == .zephr || self == .ory || self == .clerk }

    /// The redirect-URI policy the provider itself enforces, if any: Prelude and Clerk accept
    /// only a custom scheme ("Passing an http/https redirect throws an invalid-configuration
    /// error before any network call"; Clerk's hosted auth and native flows alike). A route
    /// or `parse` with such a dialect refuses an http/https redirect URI whatever policy it
    /// was given (`invalid_configuration`).
    public var impliedPolicy: RedirectURIPolicy? {
        self == .prelude || self == .clerk ? .customSchemeOnly : nil
    }

    /// The dialect's command-line and JSON name (`oauth2`, `prelude`…).
    public var description: String { rawValue }
}

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

    /// Every kind, in the order docs/dialects.md lists them (the logins' kinds, then `logout_complete`, then the
    /// kinds added in the third round, then the fourth round's).
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

/// Where the provider puts its response parameters (OAuth 2.0 Multiple Response Type
/// Encoding Practices, `response_mode`).
public enum ResponseMode: String, Sendable, Hashable, CaseIterable {
    /// In the query (`?code=…`): the default for the authorization code flow.
    case query
    /// In the fragment (`#code=…`).
    case fragment
}

/// What the route, or the login attempt, expects of a callback.
public struct CallbackExpectations: Sendable, Hashable {
    /// The expected `state`; nil when it is not checked here (the router checks it against
    /// its attempts). Compared in constant time: missing → `state_missing`, different →
    /// `state_mismatch`.
    public var state: String?
    /// The expected `iss` (RFC 9207), compared as a simple string when the callback has one:
    /// different → `issuer_mismatch`.
    public var issuer: String?
    /// Whether the authorization server always sends `iss` (its metadata says
    /// `authorization_response_iss_parameter_supported`): then none is `issuer_missing`.
    public var requiresIssuer: Bool
    /// Where the response parameters are expected; the other component must not carry them.
    public var responseMode: ResponseMode
    /// The provider profiles the route opts into (``ProviderProfile``): each relaxes one
    /// named rule. Empty by default: every rule holds.
    public var profiles: [ProviderProfile]

    /// Expectations with the given checks; the defaults check nothing beyond the dialect's
    /// own rules (no state, no issuer, parameters in the query, no profile).
    public init(
        state: String? = nil, issuer: String? = nil, requiresIssuer: Bool = false,
        responseMode: ResponseMode = .query, profiles: [ProviderProfile] = []
    ) {
        self.state = state
        self.issuer = issuer
        self.requiresIssuer = requiresIssuer
        self.responseMode = responseMode
        self.profiles = profiles
    }

    /// The old name of ``requiresIssuer``.
    @available(*, deprecated, renamed: "requiresIssuer")
    public var requireIssuer: Bool {
        get { requiresIssuer }
        set { requiresIssuer = newValue }
    }

    /// The old spelling of ``init(state:issuer:requiresIssuer:responseMode:profiles:)``.
    @available(*, deprecated, renamed: "init(state:issuer:requiresIssuer:responseMode:profiles:)")
    public init(
        state: String? = nil, issuer: String? = nil, requireIssuer: Bool,
        responseMode: ResponseMode = .query, profiles: [ProviderProfile] = []
    ) {
        self.init(state: state, issuer: issuer, requiresIssuer: requireIssuer, responseMode: responseMode, profiles: profiles)
    }
}

extension CallbackExpectations: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The expected state is a secret: shown as its length only.
    public var description: String {
        "CallbackExpectations(state: " + (state.map(redacted) ?? "nil") + ", issuer: " + (issuer ?? "nil")
            + ", requiresIssuer: \(requiresIssuer), responseMode: \(responseMode.rawValue)"
            + (profiles.isEmpty ? "" : ", profiles: " + profiles.map(\.name).joined(separator: ",")) + ")"
    }

    /// The same redacted text as ``description``.
    public var debugDescription: String { description }

    /// What `dump()` shows: the redacted description, never the expected state.
    public var customMirror: Mirror { Mirror(self, children: ["expectations": description], displayStyle: .struct) }
}
