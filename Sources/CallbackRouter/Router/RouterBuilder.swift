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

/// Collects routes, checks them, and freezes them into a ``CallbackRouter``.
///
/// ```swift
/// var builder = RouterBuilder()
/// builder.add(Route("google", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"),
///                   dialect: .oauth2, issuer: "https://accounts.google.com"))
/// let router = try builder.build()
/// ```
///
/// Two routes that could match the same callback are an `invalid_configuration` error
/// (the router never guesses between them), as are two routes with the same id.
public struct RouterBuilder: Sendable {
    private var routes: [Route] = []

    /// Starts a builder with no routes.
    public init() {}

    /// Adds a route; conflicts are reported by `build`, which checks all routes together.
    public mutating func add(_ route: Route) { routes.append(route) }

    /// Checks every pair of routes; throws `invalid_configuration` naming the pair that overlaps.
    public func validate() throws(CallbackError) {
        for (i, a) in routes.enumerated() {
            guard a.dialect != .auto else {
                throw CallbackError(.invalidConfiguration, "route '\(a.id)' must name its dialect: 'auto' guesses, a route must not")
            }
            _ = try SealedAttempt.checkLifetime(a.attemptLifetime, of: "the attemptLifetime of route '\(a.id)'")
            try a.validateConfiguration()
            if a.requiresIssuer && a.issuer == nil {
                // Fail closed: without an expected issuer, "required" could only mean "any
                // `iss` at all", which a mix-up attacker's server sends too (RFC 9207).
                throw CallbackError(
                    .invalidConfiguration,
                    "route '\(a.id)' requires an issuer ('requiresIssuer') but names none: set 'issuer' to the authorization server's issuer identifier (RFC 9207)"
                )
            }
            for b in routes[(i + 1)...] {
                if a.id == b.id {
                    throw CallbackError(.invalidConfiguration, "two routes are named '\(a.id)'")
                }
                if Self.overlap(
                    a.redirectURI, b.redirectURI,
                    relaxations: a.profiles.relaxations.union(b.profiles.relaxations))
                {
                    throw CallbackError(
                        .invalidConfiguration,
                        "routes '\(a.id)' and '\(b.id)' could both match the same callback (\(a.redirectURI) and \(b.redirectURI))")
                }
            }
        }
    }

    /// Validates and returns the immutable router.
    ///
    /// `maxPendingAttempts` bounds the logins in progress at once (one more is `conflict`).
    /// It must be at least 1. The router also remembers at most
    /// ``defaultMaxRememberedEndings`` ended attempts (or `maxPendingAttempts`, if more) so
    /// that a repeated callback is told `replayed`; past that, the oldest are forgotten early
    /// (see ``CallbackRouter/restore(_:key:)-(SealedAttempt,_)``).
    ///
    /// `consumedStates` is a store of consumed states shared with other routers (other
    /// instances of a backend that restore the same sealed record, or a router per request):
    /// a callback is delivered only by the router whose insert of its state's digest came
    /// first (see ``ConsumedStateStore``). Nil (the default): the router's own memory only.
    /// A store whose digest key is shorter than 32 bytes is `invalid_configuration`.
    public func build(
        clock: any AttemptClock = SystemAttemptClock(), limits: ParsingLimits = .default,
        maxPendingAttempts: Int = 65_536, consumedStates: (any ConsumedStateStore)? = nil
    ) throws(CallbackError) -> CallbackRouter {
        try build(
            clock: clock, limits: limits, maxPendingAttempts: maxPendingAttempts,
            maxRememberedEndings: max(maxPendingAttempts, Self.defaultMaxRememberedEndings), consumedStates: consumedStates)
    }

    /// The most ended attempts a router remembers by default: 65,536 (without a bound, a
    /// million `begin` + `cancel` in one lifetime would keep a million, 1 GB).
    public static let defaultMaxRememberedEndings = 65_536

    /// ``build(clock:limits:maxPendingAttempts:consumedStates:)`` with its bound on remembered endings set
    /// (tests: the bound without a million attempts).
    @_spi(Testing) public func build(
        clock: any AttemptClock = SystemAttemptClock(), limits: ParsingLimits = .default,
        maxPendingAttempts: Int, maxRememberedEndings: Int, consumedStates: (any ConsumedStateStore)? = nil
    ) throws(CallbackError) -> CallbackRouter {
        guard maxPendingAttempts >= 1, maxRememberedEndings >= 1 else {
            throw CallbackError(.invalidConfiguration, "maxPendingAttempts must be at least 1; it was \(maxPendingAttempts)")
        }
        if let consumedStates, consumedStates.digestKey.count < SealedAttempt.minimumKeyLength {
            throw CallbackError(
                .invalidConfiguration,
                "the store of consumed states has a digest key of \(consumedStates.digestKey.count) bytes; it needs at least \(SealedAttempt.minimumKeyLength) random bytes, the same on every instance"
            )
        }
        try validate()
        return CallbackRouter(
            routes: routes, clock: clock, limits: limits, maxPendingAttempts: maxPendingAttempts,
            maxRememberedEndings: maxRememberedEndings, consumedStates: consumedStates)
    }

    /// Whether one callback URL could match both registered URIs: same scheme, host and path,
    /// compatible ports (loopback matches any port), and no query parameter that both
    /// require with different values.
    ///
    /// The location is compared by the function matching uses
    /// (``RedirectURI/locationDifference(from:)``): scheme and host case aside, `""` and `/`
    /// alike for http(s), a missing port as the scheme's default, any port for a loopback
    /// redirect. A callback matches both when it matches one of them at the other's location
    /// (from the loopback side when only one of them accepts any port).
    /// A route's profile that widens matching (``ProviderProfile/entra``) widens the overlap
    /// check alike.
    static func overlap(_ a: RedirectURI, _ b: RedirectURI, relaxations: ProviderProfile.Relaxations = []) -> Bool {
        guard
            a.locationDifference(from: b.url, relaxations: relaxations) == nil
                || b.locationDifference(from: a.url, relaxations: relaxations) == nil
        else { return false }
        let x = a.url, y = b.url
        for parameter in x.queryParameters {
            let other = y.queryParameters.values(named: parameter.name)
            if !other.isEmpty && !other.contains(parameter.value) { return false }
        }
        return true
    }
}

extension Route {
    /// `exact` as the redirect URI a login on this route sends: one the route's registered
    /// redirect URI answers, with the same query, and a port when it is loopback.
    func exactRedirectURI(_ exact: String) throws(CallbackError) -> RedirectURI {
        let registered = redirectURI
        let candidate: RedirectURI
        do {
            candidate = try RedirectURI(exact, policy: .native, allowsLocalhost: registered.allowsLocalhost)
        } catch {
            throw CallbackError(.invalidConfiguration, "the redirect URI to send is not a valid one: \(error.detail)")
        }
        guard registered.matches(candidate.url, profiles: profiles), registered.url.query == candidate.url.query else {
            throw CallbackError(
                .invalidConfiguration,
                "the redirect URI to send (\(candidate)) is not route '\(id)''s (\(registered)): only its port may differ, and only for a loopback route"
            )
        }
        if registered.isLoopback && candidate.url.port == nil {
            throw CallbackError(
                .invalidConfiguration,
                "a loopback redirect URI to send needs the port the receiver listens on (RFC 8252 §7.3): \(candidate) has none")
        }
        return candidate
    }
}
