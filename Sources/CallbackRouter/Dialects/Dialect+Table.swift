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

/// Every dialect, one entry each. Adding a dialect: its `public static let` and its
/// ``Dialect/Rules`` entry here, placed in ``table``; its outcome kinds in OutcomeKind.swift;
/// the fields it reads, if new, in KnownField.swift (docs/dialects.md, "Adding a dialect").
extension Dialect {
    /// Picks the dialect from the parameters present: `code` → ``oauth2``,
    /// `challenge_token` → ``prelude``, `rotating_token_nonce` → ``clerk``, `status` →
    /// ``zephr``, `error` alone → an ``OutcomeKind/authorizationError`` read as ``oauth2``.
    /// Never picks ``ory``: its `code` cannot be told apart from OAuth's.
    public static let auto = Dialect(named: "auto")
    /// OAuth 2.0 / OpenID Connect authorization code response (RFC 6749 §4.1.2, RFC 9207).
    public static let oauth2 = Dialect(named: "oauth2")
    /// Prelude social login: `challenge_token`.
    public static let prelude = Dialect(named: "prelude")
    /// Ory native flow `return_to`: `code`, the second half of a session token exchange code;
    /// or, when a social sign-up meets an existing identity (account linking), `flow` alone:
    /// the login flow to continue (``OutcomeKind/continueLoginFlow``).
    public static let ory = Dialect(named: "ory")
    /// Zephr OAuth: `status=success|partial|failure` with a session id, a state key or a message.
    public static let zephr = Dialect(named: "zephr")
    /// Clerk: native OAuth's `rotating_token_nonce` (optional `created_session_id`), its
    /// failure, transfer and bare callbacks, and email magic links (`flow_id`,
    /// `approval_token`). Stateless: Clerk's native OAuth sends and checks no state of the
    /// app's. Hosted auth (state, nonce and session) is ``ProviderProfile/clerkHosted``.
    public static let clerk = Dialect(named: "clerk")

    /// The dialects' rules, in the order of ``allCases`` (a dialect's tag is its place here).
    static let table: [Rules] = [
        Rules(
            name: "auto", credentials: KnownField.successCredentials, read: nil, common: nil),
        Rules(
            name: "oauth2", marker: ("code", 0), credentials: ["code"],
            read: Rules.reading(oauth2Code), common: .one(oauth2Code)),
        Rules(
            name: "prelude", marker: ("challenge_token", 1), credentials: ["code", "challenge_token"],
            isStateless: true, impliedPolicy: .customSchemeOnly, ignoresEmptyError: true,
            read: CallbackClassifier.readPrelude,
            common: .one(.init(kind: .challengeToken, known: ["challenge_token", "state", "iss"], required: "challenge_token"))),
        Rules(
            name: "ory", credentials: ["code"], isStateless: true, read: CallbackClassifier.readOry,
            common: .one(.init(kind: .sessionTokenExchangeCode, known: ["code", "state", "iss"], required: "code")),
            unnumberedNamesGoFullWay: true),
        Rules(
            name: "zephr", marker: ("status", 3), credentials: ["code", "status", "session_id", "state_key"],
            isStateless: true, read: CallbackClassifier.readZephr,
            common: .byStatus(
                success: .init(kind: .loginSuccess, known: zephrFields, required: "session_id"),
                partial: .init(kind: .partialRegistration, known: zephrFields, required: "state_key"),
                failure: .init(kind: .loginFailure, known: zephrFields, required: nil))),
        Rules(
            name: "clerk", marker: ("rotating_token_nonce", 2),
            credentials: ["code", "rotating_token_nonce", "created_session_id", "flow_id", "approval_token"],
            isStateless: true, impliedPolicy: .customSchemeOnly, errorsAreUnbound: true, readsMagicLinks: true,
            read: CallbackClassifier.readClerk,
            common: .one(
                .init(
                    kind: .rotatingTokenNonce, known: ["rotating_token_nonce", "created_session_id", "state", "iss"],
                    required: "rotating_token_nonce")),
            unnumberedNamesGoFullWay: true),
    ]

    private static let oauth2Code = Rules.Shape(kind: .authorizationCode, known: ["code", "state", "iss"], required: "code")

    /// Every field a Zephr callback reads, whatever its status.
    static let zephrFields = [
        "action", "status", "session_id", "tracking_id", "state_key", "identifier", "message", "state", "iss",
    ]
}
