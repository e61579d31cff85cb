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

/// One registered redirect URI, the dialect its callbacks speak, what it expects of the
/// issuer, and the handler of its callbacks.
public struct Route: Sendable {
    /// The route's fields, in one immutable box: the router reads a route on every callback,
    /// and copying a dozen references there would retain and release each (~500
    /// instructions a callback); copying a reference is one retain.
    private final class Storage: Sendable {
        let id: RouteID
        let redirectURI: RedirectURI
        let dialect: Dialect
        let issuer: String?
        let requiresIssuer: Bool
        let responseMode: ResponseMode
        let attemptLifetime: Duration
        let profiles: [ProviderProfile]
        let acceptsLogoutWithoutState: Bool
        let handler: CallbackHandler?
        let logoutHandler: CallbackHandler?
        let expectations: CallbackExpectations
        let isStateless: Bool
        /// ``Dialect/readsMagicLinks``, read once here rather than on every callback.
        let readsMagicLinks: Bool

        init(
            id: RouteID, redirectURI: RedirectURI, dialect: Dialect, issuer: String?, requiresIssuer: Bool,
            responseMode: ResponseMode, attemptLifetime: Duration, profiles: [ProviderProfile],
            acceptsLogoutWithoutState: Bool, handler: CallbackHandler?, logoutHandler: CallbackHandler?
        ) {
            self.id = id
            self.redirectURI = redirectURI
            self.dialect = dialect
            self.issuer = issuer
            self.requiresIssuer = requiresIssuer
            self.responseMode = responseMode
            self.attemptLifetime = attemptLifetime
            self.profiles = profiles
            self.acceptsLogoutWithoutState = acceptsLogoutWithoutState
            self.handler = handler
            self.logoutHandler = logoutHandler
            self.expectations = CallbackExpectations(
                state: nil, issuer: nil, requiresIssuer: false, responseMode: responseMode, profiles: profiles)
            let relaxations = profiles.relaxations
            self.isStateless =
                (dialect.isStateless && !relaxations.contains(.clerkHosted)) || relaxations.contains(.noState)
            self.readsMagicLinks = dialect.readsMagicLinks
        }
    }

    private let storage: Storage

    /// The name the app gives the route, unique within a router (`beginLogin(on:)` takes it).
    public var id: RouteID { storage.id }
    /// The registered redirect URI this route's callbacks must match exactly.
    public var redirectURI: RedirectURI { storage.redirectURI }
    /// The provider dialect this route's callbacks speak; never `auto` in a router.
    public var dialect: Dialect { storage.dialect }
    /// The issuer expected in `iss` (RFC 9207); checked when present.
    public var issuer: String? { storage.issuer }
    /// Whether `iss` must be present (the server is known to send it).
    public var requiresIssuer: Bool { storage.requiresIssuer }
    /// Where the response parameters arrive: the query (default) or the fragment.
    public var responseMode: ResponseMode { storage.responseMode }
    /// How long an attempt on this route stays valid. Default 10 minutes.
    public var attemptLifetime: Duration { storage.attemptLifetime }
    /// The provider quirks this route accepts (``ProviderProfile``); none by default.
    public var profiles: [ProviderProfile] { storage.profiles }
    /// Whether a logout callback without `state` completes the route's pending logout
    /// (Auth0's `/v2/logout` `returnTo` echoes none). Such a callback is delivered as
    /// ``OutcomeKind/logoutComplete`` marked ``CallbackOutcome/isUnbound``: anyone can send
    /// it, so it says only that *a* browser came back. At most one logout may then be
    /// pending on the route (a second is `conflict`). Default false: a logout callback
    /// must carry the state of the logout it answers.
    public var acceptsLogoutWithoutState: Bool { storage.acceptsLogoutWithoutState }
    var handler: CallbackHandler? { storage.handler }
    var logoutHandler: CallbackHandler? { storage.logoutHandler }
    /// What the dialect check expects. State and issuer are checked by the router after the
    /// attempt is found, so that a response tied to an attempt by its state ends that attempt.
    /// (Made once: every callback reads it.)
    var expectations: CallbackExpectations { storage.expectations }
    /// Whether the dialect (or a profile: ``ProviderProfile/supabase``) carries no state, so
    /// at most one attempt may be pending. (Clerk is stateless unless the route has
    /// ``ProviderProfile/clerkHosted``.)
    var isStateless: Bool { storage.isStateless }

    /// The configuration errors a route alone can have, checked by ``RouterBuilder`` before
    /// any login begins: a dialect whose provider accepts only a custom-scheme redirect URI
    /// (``Dialect/impliedPolicy``: Prelude, Clerk) with an http/https one is
    /// `invalid_configuration`, as the provider's own SDK refuses it before any network call.
    func validateConfiguration() throws(CallbackError) {
        if let implied = storage.dialect.impliedPolicy {
            do {
                _ = try RedirectURI(storage.redirectURI.url.string, policy: implied)
            } catch {
                throw CallbackError(
                    .invalidConfiguration,
                    error.detail
                        + " (route '\(storage.id)': the \(storage.dialect) dialect's provider accepts only a custom-scheme redirect URI)")
            }
        }
    }

    /// Checks `url` against the route's redirect URI and profiles (``RedirectURI/check(_:profiles:)``).
    /// Reads both in place in the box: going through the computed properties copied the
    /// `RedirectURI` on every callback (~320 instructions).
    func checkRedirect(_ url: CallbackURL) throws(CallbackError) {
        try storage.redirectURI.check(url, profiles: storage.profiles, magicLinks: storage.readsMagicLinks)
    }

    /// Reads `url` in the route's dialect with its expectations (``CallbackClassifier/classify(_:dialect:expecting:)``),
    /// both read in place in the box (the computed property copied the expectations).
    func classify(_ url: CallbackURL) throws(CallbackError) -> CallbackOutcome {
        try CallbackClassifier.classify(url, dialect: storage.dialect, expecting: storage.expectations)
    }

    /// Describes a route; `handler` receives its login callbacks and `logoutHandler` its
    /// logout callbacks (`logout_complete`), each only when no task awaits the attempt.
    /// ``RouterBuilder`` validates it with the others when it builds the
    /// router (overlapping redirect URIs, duplicate ids, `auto`, `requiresIssuer` without an
    /// issuer are `invalid_configuration`).
    public init(
        _ id: RouteID, redirectURI: RedirectURI, dialect: Dialect, issuer: String? = nil,
        requiresIssuer: Bool = false, responseMode: ResponseMode = .query,
        attemptLifetime: Duration = .seconds(600), profiles: [ProviderProfile] = [],
        acceptsLogoutWithoutState: Bool = false,
        handler: CallbackHandler? = nil, logoutHandler: CallbackHandler? = nil
    ) {
        storage = Storage(
            id: id, redirectURI: redirectURI, dialect: dialect, issuer: issuer, requiresIssuer: requiresIssuer,
            responseMode: responseMode, attemptLifetime: attemptLifetime, profiles: profiles,
            acceptsLogoutWithoutState: acceptsLogoutWithoutState, handler: handler, logoutHandler: logoutHandler)
    }

    /// The old spelling of the initializer, whose `requireIssuer` is now `requiresIssuer`.
    @available(
        *, deprecated,
        renamed:
            "init(_:redirectURI:dialect:issuer:requiresIssuer:responseMode:attemptLifetime:profiles:acceptsLogoutWithoutState:handler:logoutHandler:)"
    )
    public init(
        _ id: RouteID, redirectURI: RedirectURI, dialect: Dialect, issuer: String? = nil,
        requireIssuer: Bool, responseMode: ResponseMode = .query,
        attemptLifetime: Duration = .seconds(600), profiles: [ProviderProfile] = [],
        acceptsLogoutWithoutState: Bool = false,
        handler: CallbackHandler? = nil, logoutHandler: CallbackHandler? = nil
    ) {
        self.init(
            id, redirectURI: redirectURI, dialect: dialect, issuer: issuer, requiresIssuer: requireIssuer,
            responseMode: responseMode, attemptLifetime: attemptLifetime, profiles: profiles,
            acceptsLogoutWithoutState: acceptsLogoutWithoutState, handler: handler, logoutHandler: logoutHandler)
    }

    /// The old name of ``requiresIssuer``.
    @available(*, deprecated, renamed: "requiresIssuer")
    public var requireIssuer: Bool { requiresIssuer }
}
