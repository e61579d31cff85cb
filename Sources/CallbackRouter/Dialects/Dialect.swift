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
    /// The dialect as a small number: its place in ``table`` and ``allCases``, so equal
    /// tags mean equal names, and the classifier compares an integer, not a string.
    let tag: UInt8

    /// The dialect with this name; nil for a name that is not one of ``allCases``.
    public init?(rawValue: String) {
        guard let index = Dialect.table.firstIndex(where: { $0.name == rawValue }) else { return nil }
        self.init(tag: UInt8(index))
    }

    /// The dialect of ``table``'s entry `tag`.
    init(tag: UInt8) {
        self.rawValue = Dialect.table[Int(tag)].name
        self.tag = tag
    }

    /// A dialect of ``table`` (Dialect+Table.swift), by its entry's name.
    init(named name: String) {
        guard let known = Dialect(rawValue: name) else { preconditionFailure("no dialect '\(name)' in Dialect.table") }
        self = known
    }

    /// Equal names (every dialect is one of ``allCases``: equal tags).
    public static func == (a: Dialect, b: Dialect) -> Bool { a.tag == b.tag }

    /// Hashes the name, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Every dialect, ``auto`` first, in the order of ``table``.
    public static let allCases: [Dialect] = table.indices.map { Dialect(tag: UInt8($0)) }

    /// ``auto``'s tag: ``table`` begins with it (`DialectTableTests`), so that the classifier
    /// tells it from the others without loading ``auto``.
    static let autoTag: UInt8 = 0

    /// Whether ``auto`` picks this dialect by a parameter of its own (never ``ory``): the
    /// CLI's help names the others.
    package var isPickedByAuto: Bool { rules.marker != nil }

    /// The dialect's entry in ``table``.
    var rules: Rules { Dialect.table[Int(tag)] }

    /// Each entry of ``table`` as the classifier's common path reads it, by tag.
    static let commonTable: [CommonRules] = table.map(\.compiled)

    /// Whether the dialect reads email magic links (``Rules/readsMagicLinks``): a plain load,
    /// for the redirect-URI check of every callback.
    var readsMagicLinks: Bool { Dialect.commonTable[Int(tag)].readsMagicLinks }

    /// Whether the provider's callback carries no `state` of the app's own (Prelude, Zephr,
    /// Ory, Clerk's native OAuth): such a route can have only one pending attempt at a time.
    /// (A Clerk route with ``ProviderProfile/clerkHosted`` carries one: it is not stateless.)
    public var isStateless: Bool { rules.isStateless }

    /// The redirect-URI policy the provider itself enforces, if any: Prelude and Clerk accept
    /// only a custom scheme ("Passing an http/https redirect throws an invalid-configuration
    /// error before any network call"; Clerk's hosted auth and native flows alike). A route
    /// or `parse` with such a dialect refuses an http/https redirect URI whatever policy it
    /// was given (`invalid_configuration`).
    public var impliedPolicy: RedirectURIPolicy? { rules.impliedPolicy }

    /// The dialect's command-line and JSON name (`oauth2`, `prelude`…).
    public var description: String { rawValue }
}
