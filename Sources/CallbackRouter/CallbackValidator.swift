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

/// The whole validation of a callback, shared by the router, `callback-router parse`,
/// `listen` and `loopback`: one place decides, in one order.
///
/// 1. Scheme policy (``RedirectURIPolicy``) → `scheme_not_allowed`.
/// 2. Userinfo → `userinfo_not_allowed`; the registered redirect URIs → `redirect_uri_mismatch`
///    (none registered: any callback the policy allows).
/// 3. The dialect's rules, then state, then issuer (``CallbackClassifier``).
///
/// The provider profiles in `expectations.profiles` (``ProviderProfile``) relax the named
/// rules of steps 2 and 3, and nothing else.
///
/// ```swift
/// let validator = try CallbackValidator(
///     redirectURIs: [RedirectURI("com.example.app:/oauth2redirect")],
///     dialect: .oauth2, expecting: CallbackExpectations(state: attempt.state))
/// let outcome = try validator.validate(try CallbackURL(parsing: delivered))
/// ```
public struct CallbackValidator: Sendable {
    /// The registered redirect URIs a callback must match; empty: any the policy allows.
    public let redirectURIs: [RedirectURI]
    /// Which schemes and hosts a callback may use at all (native, custom scheme only, allowlist).
    public let policy: RedirectURIPolicy
    /// Whether an `http://localhost` callback passes the scheme policy (RFC 8252 §8.3 advises
    /// against it). Also true when a registered redirect URI allows localhost.
    public let allowsLocalhost: Bool
    /// The old name of ``allowsLocalhost``.
    @available(*, deprecated, renamed: "allowsLocalhost")
    public var allowLocalhost: Bool { allowsLocalhost }
    /// The provider dialect the callback is read in (`auto` picks one by its parameters).
    public let dialect: Dialect
    /// What the callback must carry: the expected state, issuer, response mode, profiles.
    public let expectations: CallbackExpectations

    /// - Throws: `invalid_configuration` when a redirect URI breaks `policy`.
    public init(
        redirectURIs: [RedirectURI] = [], policy: RedirectURIPolicy = .native, allowsLocalhost: Bool = false,
        dialect: Dialect = .auto, expecting expectations: CallbackExpectations = CallbackExpectations()
    )
        throws(CallbackError)
    {
        let allowLocalhost = allowsLocalhost
        for redirect in redirectURIs {
            if let violation = RedirectURI.violation(
                of: redirect.url, policy: policy,
                allowLocalhost: allowLocalhost || redirect.allowsLocalhost)
            {
                throw CallbackError(.invalidConfiguration, at: nil, violation.detail)
            }
        }
        self.redirectURIs = redirectURIs
        self.policy = policy
        self.allowsLocalhost = allowLocalhost || redirectURIs.contains(where: \.allowsLocalhost)
        self.dialect = dialect
        self.expectations = expectations
    }

    /// Steps 1 and 2: whether the callback is allowed and answers a registered redirect URI.
    /// Returns the redirect URI it answers, nil when none is registered.
    @discardableResult
    public func checkRedirect(_ callback: CallbackURL) throws(CallbackError) -> RedirectURI? {
        if let violation = policy.violation(of: callback, allowLocalhost: allowsLocalhost) {
            throw CallbackError(.schemeNotAllowed, at: nil, violation.detail)
        }
        try RedirectURI.checkUserinfo(callback)
        let magicLinks = dialect.readsMagicLinks
        if !redirectURIs.isEmpty { return try redirectURIs.check(callback, profiles: expectations.profiles, magicLinks: magicLinks) }
        if case .allowlist(let entries) = policy {
            return try entries.check(callback, profiles: expectations.profiles, magicLinks: magicLinks)
        }
        return nil
    }

    /// Every step; returns what the callback means.
    public func validate(_ callback: CallbackURL) throws(CallbackError) -> CallbackOutcome {
        try checkRedirect(callback)
        return try CallbackClassifier.classify(callback, dialect: dialect, expecting: expectations)
    }

    /// The old spelling of ``init(redirectURIs:policy:allowsLocalhost:dialect:expecting:)``.
    @available(*, deprecated, renamed: "init(redirectURIs:policy:allowsLocalhost:dialect:expecting:)")
    public init(
        redirectURIs: [RedirectURI] = [], policy: RedirectURIPolicy = .native, allowLocalhost: Bool,
        dialect: Dialect = .auto, expecting expectations: CallbackExpectations = CallbackExpectations()
    ) throws(CallbackError) {
        try self.init(
            redirectURIs: redirectURIs, policy: policy, allowsLocalhost: allowLocalhost, dialect: dialect, expecting: expectations)
    }

    /// Parses `string` (a parse failure keeps its syntax reason and offset), then validates.
    public func validate(_ string: String, limits: ParsingLimits = .default) throws(CallbackError) -> CallbackOutcome {
        let callback: CallbackURL
        do { callback = try CallbackURL(parsing: string, limits: limits) } catch { throw CallbackError(error) }
        return try validate(callback)
    }
}

/// ``CallbackValidator`` in one call.
public func validateCallback(
    _ callback: CallbackURL, redirectURIs: [RedirectURI] = [],
    policy: RedirectURIPolicy = .native, allowsLocalhost: Bool = false,
    dialect: Dialect = .auto,
    expecting expectations: CallbackExpectations = CallbackExpectations()
)
    throws(CallbackError) -> CallbackOutcome
{
    try CallbackValidator(
        redirectURIs: redirectURIs, policy: policy, allowsLocalhost: allowsLocalhost,
        dialect: dialect, expecting: expectations
    ).validate(callback)
}

/// The old spelling of ``validateCallback(_:redirectURIs:policy:allowsLocalhost:dialect:expecting:)``.
@available(*, deprecated, renamed: "validateCallback(_:redirectURIs:policy:allowsLocalhost:dialect:expecting:)")
public func validateCallback(
    _ callback: CallbackURL, redirectURIs: [RedirectURI] = [],
    policy: RedirectURIPolicy = .native, allowLocalhost: Bool,
    dialect: Dialect = .auto,
    expecting expectations: CallbackExpectations = CallbackExpectations()
) throws(CallbackError) -> CallbackOutcome {
    try validateCallback(
        callback, redirectURIs: redirectURIs, policy: policy, allowsLocalhost: allowLocalhost, dialect: dialect,
        expecting: expectations)
}
