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

import CallbackRouter

/// What a callback must be to end a ``LoopbackReceiver``'s wait when no ``CallbackRouter``
/// is involved: the checks of `callback-router parse`.
public struct LoopbackExpectations: Sendable {
    /// The provider dialect; `auto` picks by the parameters present.
    public var dialect: Dialect
    /// The `state` sent in the authorization request. Only a callback carrying exactly this
    /// state ends the wait. Nil for dialects without state: then any valid callback ends
    /// it, and any local process or web page can send one.
    public var state: String?
    /// The expected `iss` (RFC 9207), checked when present.
    public var issuer: String?
    /// Refuse a callback without `iss`.
    public var requiresIssuer: Bool
    /// Parsing limits for the callback URL.
    public var limits: ParsingLimits
    /// The provider profiles the login opts into (``ProviderProfile``): each relaxes one
    /// named rule for that provider's known quirk. Empty: every rule holds. Not for a logout.
    public var profiles: [ProviderProfile]
    /// What the wait is for. ``AttemptPurpose/login`` (the default): a login's callback.
    /// ``AttemptPurpose/logout``: the provider's redirect to the post-logout redirect URI
    /// (OpenID Connect RP-Initiated Logout 1.0), validated as
    /// ``CallbackValidator/validateLogout(_:allowingNoState:)-(CallbackURL,_)`` with
    /// ``state`` (`callback-router parse --logout`): the outcome is `logout_complete`, and
    /// a callback carrying a login's parameter (`code`, `error`, `iss`…) is refused with
    /// `invalid_parameter`, so a login's callback never completes a logout, nor a logout's
    /// a login. Without ``state`` the logout is unbound (``CallbackOutcome/isUnbound``):
    /// any local process or web page can end it. ``issuer`` and ``requiresIssuer`` must
    /// stay unset (a logout's callback carries no `iss`), else the wait is refused with
    /// `invalid_configuration`.
    public var purpose: AttemptPurpose

    /// Expectations for a wait; `purpose` ``AttemptPurpose/logout`` waits for the end of a
    /// logout instead of a login's callback.
    public init(
        dialect: Dialect = .auto, state: String? = nil, issuer: String? = nil, requiresIssuer: Bool = false,
        limits: ParsingLimits = .default, profiles: [ProviderProfile] = [], purpose: AttemptPurpose = .login
    ) {
        self.dialect = dialect
        self.state = state
        self.issuer = issuer
        self.requiresIssuer = requiresIssuer
        self.limits = limits
        self.profiles = profiles
        self.purpose = purpose
    }

    /// The old name of ``requiresIssuer``.
    @available(*, deprecated, renamed: "requiresIssuer")
    public var requireIssuer: Bool {
        get { requiresIssuer }
        set { requiresIssuer = newValue }
    }

    /// The old spelling of ``init(dialect:state:issuer:requiresIssuer:limits:profiles:purpose:)``.
    @available(*, deprecated, renamed: "init(dialect:state:issuer:requiresIssuer:limits:profiles:purpose:)")
    public init(
        dialect: Dialect = .auto, state: String? = nil, issuer: String? = nil, requireIssuer: Bool,
        limits: ParsingLimits = .default, profiles: [ProviderProfile] = [], purpose: AttemptPurpose = .login
    ) {
        self.init(
            dialect: dialect, state: state, issuer: issuer, requiresIssuer: requireIssuer, limits: limits, profiles: profiles,
            purpose: purpose)
    }
}
