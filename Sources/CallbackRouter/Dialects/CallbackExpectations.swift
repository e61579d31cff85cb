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
