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

/// Matching a callback to a registered redirect URI: exact (RFC 9700 §2.1), with only the
/// equivalences a browser introduces.
///
/// - scheme and host compare case-insensitively (hosts by address for IP literals);
/// - the port is exact, an absent port equal to the scheme's default (80, 443: browsers
///   drop it); a loopback redirect accepts any port (RFC 8252 §7.3);
/// - the path compares byte for byte as written (`/Callback` ≠ `/callback`, `%2F` ≠ `/`);
///   only an empty `http(s)` path equals `/`, which is how browsers send it;
/// - every query parameter of the registered URI is present once, with the same decoded
///   value (RFC 6749 §3.1.2); the callback adds the response parameters.
extension RedirectURI {
    enum Difference: Equatable {
        case scheme, authority, host, port, path
        case query(String)
        case duplicate(name: String, offset: Int)

        var component: String {
            switch self {
            case .scheme: return "scheme"
            case .authority: return "authority"
            case .host: return "host"
            case .port: return "port"
            case .path: return "path"
            case .query(let name): return "query parameter '\(ParameterName.shown(name))'"
            case .duplicate(let name, _): return "query parameter '\(ParameterName.shown(name))'"
            }
        }
    }

    /// Whether `callback` answers this redirect URI. Userinfo in the callback never matches.
    /// `profiles` add only the equivalence they name (``ProviderProfile/entra``: `""` ↔ `/`).
    public func matches(_ callback: CallbackURL, profiles: [ProviderProfile] = []) -> Bool {
        callback.userinfo == nil && difference(from: callback, relaxations: profiles.relaxations) == nil
    }

    /// Throws unless `callback` answers this redirect URI: `userinfo_not_allowed` for a
    /// callback with userinfo, `duplicate_parameter` when it repeats a registered query
    /// parameter, `redirect_uri_mismatch` naming the first component that differs.
    public func check(_ callback: CallbackURL, profiles: [ProviderProfile] = []) throws(CallbackError) {
        try check(callback, profiles: profiles, magicLinks: false)
    }

    /// ``check(_:profiles:)`` as a route of `dialect` reads it: the dialect adds only its
    /// provider's own tolerance (``relaxations(_:magicLinks:for:)``).
    public func check(_ callback: CallbackURL, profiles: [ProviderProfile] = [], dialect: Dialect) throws(CallbackError) {
        try check(callback, profiles: profiles, magicLinks: dialect.readsMagicLinks)
    }

    /// ``check(_:profiles:dialect:)`` for a route that knows whether its dialect is Clerk's (a
    /// flag, not the dialect: passing the `Dialect`, a string, cost every callback a retain).
    func check(_ callback: CallbackURL, profiles: [ProviderProfile], magicLinks: Bool) throws(CallbackError) {
        // The usual callback: its bytes up to the query are the registered URI's (no userinfo).
        if isPlainMatch(callback) { return }
        try RedirectURI.checkUserinfo(callback)
        switch difference(from: callback, relaxations: RedirectURI.relaxations(profiles, magicLinks: magicLinks, for: callback)) {
        case nil: return
        case .duplicate(let name, let offset)?:
            throw CallbackError(
                .duplicateParameter, at: offset,
                "the parameter '\(ParameterName.shown(name))' occurs more than once (RFC 6749 §3.1)")
        case let difference?:
            throw CallbackError(
                .redirectURIMismatch, at: nil,
                "the callback's \(difference.component) differs from the registered redirect URI")
        }
    }

    /// The profiles' relaxations, plus the one a dialect's provider applies itself: a Clerk
    /// email magic link (`flow_id` in the query or the fragment) on a redirect URI with an
    /// authority matches with the path `/` where the registered path is empty, and the reverse
    /// (clerk-ios `ClerkURLRoute` reads both as no path: `…://callback` ↔ `…://callback/`).
    /// Nothing else: `…://callback/extra`, `…:/callback`, another dialect's callback or a
    /// Clerk callback that is not a magic link are compared exactly.
    static func relaxations(_ profiles: [ProviderProfile], magicLinks: Bool, for callback: CallbackURL)
        -> ProviderProfile.Relaxations
    {
        var relaxations = profiles.relaxations
        if magicLinks
            && (callback.queryParameters.contains(named: "flow_id") || callback.fragmentParameters.contains(named: "flow_id"))
        {
            relaxations.insert(.emptyPathEqualsSlash)
        }
        return relaxations
    }

    static func checkUserinfo(_ callback: CallbackURL) throws(CallbackError) {
        if callback.userinfo != nil {
            throw CallbackError(.userinfoNotAllowed, at: nil, "the callback carries userinfo (user@host), which no redirect URI has")
        }
    }

    func difference(from callback: CallbackURL, relaxations: ProviderProfile.Relaxations = []) -> Difference? {
        if isPlainMatch(callback) { return nil }
        if let difference = locationDifference(from: callback, relaxations: relaxations) { return difference }
        // Most redirect URIs register no query: nothing more to compare.
        if url.queryParameterCount == 0 { return nil }
        let callbackQuery = callback.queryParameters
        for parameter in url.queryParameters {
            let values = callbackQuery.values(named: parameter.name)
            if values.count > 1 {
                let second = callbackQuery.indices.filter { callbackQuery[$0].name == parameter.name }[1]
                return .duplicate(name: parameter.name, offset: callbackQuery.offset(at: second))
            }
            if values.first != parameter.value { return .query(parameter.name) }
        }
        return nil
    }

    /// The usual private-use callback (`com.example.app:/oauth2redirect?…`,
    /// `myapp://oauth-callback?…`) of a redirect URI without port or query: the same bytes up
    /// to the query (scheme and host but for case) mean no difference. One reading of both
    /// strings, and the registered URL is not passed as an argument (Swift copied all 204
    /// bytes of it to pass it). Any other callback is compared component by component.
    @inline(__always)
    private func isPlainMatch(_ callback: CallbackURL) -> Bool {
        guard let plain else { return false }
        return plain.text.withUnsafeBufferPointer { callback.isPlain($0, foldedLength: plain.foldedLength) }
    }

    /// The first of scheme, authority, host, port and path in which `other` differs, by
    /// the equivalences above (the query aside). `RouterBuilder` finds overlapping routes
    /// with it, so that validation and matching can never disagree.
    func locationDifference(from other: CallbackURL, relaxations: ProviderProfile.Relaxations = []) -> Difference? {
        let registered = url
        if !registered.hasSameScheme(as: other) { return .scheme }
        if registered.hasAuthority != other.hasAuthority { return .authority }
        if registered.host != other.host { return .host }
        if !isLoopback && registered.port != other.port
            && RedirectURI.effectivePort(registered) != RedirectURI.effectivePort(other)
        {
            return .port
        }
        if !registered.hasSamePath(as: other) && !RedirectURI.areEquivalentEmptyPaths(registered, other)
            && !(relaxations.contains(.emptyPathEqualsSlash) && RedirectURI.areEmptyOrSlash(registered, other))
            && !(relaxations.contains(.loopbackTrailingSlash) && isLoopback
                && (RedirectURI.addsOneSlash(registered, other) || RedirectURI.addsOneSlash(other, registered)))
        {
            return .path
        }
        return nil
    }

    private static func effectivePort(_ url: CallbackURL) -> Int? {
        if let port = url.port { return port }
        if url.hasScheme("http") { return 80 }
        if url.hasScheme("https") { return 443 }
        return nil
    }

    /// `https://app.example.com` and `https://app.example.com/` are the same URL to a
    /// browser (it always sends the `/`).
    private static func areEquivalentEmptyPaths(_ a: CallbackURL, _ b: CallbackURL) -> Bool {
        guard a.hasAuthority, a.hasScheme("http") || a.hasScheme("https") else { return false }
        return (a.path == "" || a.path == "/") && (b.path == "" || b.path == "/")
    }

    /// ``ProviderProfile/spotify``: `b`'s path is `a`'s non-empty path plus one `/`
    /// (`/callback` and `/callback/`); never `//`, never another segment.
    private static func addsOneSlash(_ a: CallbackURL, _ b: CallbackURL) -> Bool {
        let path = a.path
        return !path.isEmpty && !path.hasSuffix("/") && b.path == path + "/"
    }

    /// ``ProviderProfile/entra``: `msauth.<bundle>://auth` and `…://auth/`, any scheme with
    /// an authority. Only these two paths; `//` or `/x` still differ.
    private static func areEmptyOrSlash(_ a: CallbackURL, _ b: CallbackURL) -> Bool {
        a.hasAuthority && (a.path == "" || a.path == "/") && (b.path == "" || b.path == "/")
    }
}

extension Collection where Element == RedirectURI {
    /// The first redirect URI `callback` answers; throws like ``RedirectURI/check(_:)``:
    /// with one redirect URI the detail names the component that differs.
    public func check(_ callback: CallbackURL, profiles: [ProviderProfile] = []) throws(CallbackError) -> RedirectURI {
        try check(callback, profiles: profiles, magicLinks: false)
    }

    /// ``check(_:profiles:)`` as a route of `dialect` reads it (see ``RedirectURI/check(_:profiles:dialect:)``).
    public func check(_ callback: CallbackURL, profiles: [ProviderProfile] = [], dialect: Dialect) throws(CallbackError)
        -> RedirectURI
    {
        try check(callback, profiles: profiles, magicLinks: dialect.readsMagicLinks)
    }

    /// ``check(_:profiles:dialect:)`` with the dialect as a flag (see ``RedirectURI/check(_:profiles:magicLinks:)``).
    func check(_ callback: CallbackURL, profiles: [ProviderProfile], magicLinks: Bool) throws(CallbackError) -> RedirectURI {
        try RedirectURI.checkUserinfo(callback)
        let relaxations = RedirectURI.relaxations(profiles, magicLinks: magicLinks, for: callback)
        var firstDuplicate: RedirectURI.Difference?
        for redirect in self {
            switch redirect.difference(from: callback, relaxations: relaxations) {
            case nil: return redirect
            case .duplicate(let name, let offset)?: firstDuplicate = firstDuplicate ?? .duplicate(name: name, offset: offset)
            default: continue
            }
        }
        if case .duplicate(let name, let offset)? = firstDuplicate {
            throw CallbackError(
                .duplicateParameter, at: offset,
                "the parameter '\(ParameterName.shown(name))' occurs more than once (RFC 6749 §3.1)")
        }
        if count == 1, let only = first, let difference = only.difference(from: callback, relaxations: relaxations) {
            throw CallbackError(
                .redirectURIMismatch, at: nil,
                "the callback's \(difference.component) differs from the registered redirect URI")
        }
        throw CallbackError(
            .redirectURIMismatch, at: nil,
            "the callback answers none of the \(count) registered redirect URIs")
    }
}
