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
