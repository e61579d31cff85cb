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

/// A redirect URI an app registers with a provider, validated when it is created, before
/// any network call: a bad one is an `invalid_configuration` error whose detail names the
/// rule it broke (``RedirectURIRule``), never a late surprise.
///
/// ```swift
/// let redirect = try RedirectURI("com.example.app:/oauth2redirect")          // ✅ native
/// let loopback = try RedirectURI("http://127.0.0.1/callback")                 // ✅ any port
/// try RedirectURI("https://app.example.com/cb", policy: .customSchemeOnly)   // ❌ custom_scheme_required
/// try RedirectURI("http://localhost:8080/cb")                                // ❌ localhost_not_allowed
/// try redirect.check(callback)   // redirect_uri_mismatch / userinfo_not_allowed
/// ```
///
/// What is *not* checked: that the provider's dashboard has the same URI, or that this app
/// is the one the OS hands the scheme to (any app can claim a private-use scheme: that is
/// what PKCE and `state` are for).
public struct RedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// The parsed URI.
    public let url: CallbackURL
    /// Whether this is a loopback redirect (`http://127.0.0.1`, `http://[::1]`, or an
    /// explicitly allowed `http://localhost`): callbacks may then use any port.
    public let isLoopback: Bool
    /// Whether the scheme is private-use (neither `http` nor `https`).
    public let isPrivateUseScheme: Bool
    /// False for a private-use scheme without a dot (`myapp`): RFC 8252 §7.1 asks for a
    /// reverse domain name (`com.example.app`) so that apps do not collide. Accepted, but
    /// tools should warn. True for every other redirect URI.
    public let isReverseDNS: Bool
    /// Whether `localhost` was explicitly allowed when this URI was created.
    public let allowsLocalhost: Bool
    /// For a URI without port or query whose host, if any, is a registered name
    /// (`com.example.app:/oauth2redirect`, `myapp://oauth-callback`): its text and how much of
    /// it compares case-insensitively. A callback with the same bytes up to its query
    /// matches (``CallbackURL/isPlain(_:foldedLength:)``).
    /// The text is kept as UTF-8 bytes: an array's storage is read without the checks a
    /// `String` needs to find its bytes.
    let plain: (text: [UInt8], foldedLength: Int)?

    /// Validates `string` as a redirect URI under `policy`.
    /// - Throws: `invalid_configuration`, the detail starting with `rule <name>:`.
    public init(_ string: String, policy: RedirectURIPolicy = .native, allowsLocalhost: Bool = false) throws(CallbackError) {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: string)
        } catch {
            throw CallbackError(
                .invalidConfiguration, at: error.offset,
                RuleViolation(rule: .syntax, explanation: "the redirect URI does not parse: \(error.detail)").detail)
        }
        try self.init(url: url, policy: policy, allowsLocalhost: allowsLocalhost)
    }

    /// The old spelling of ``init(_:policy:allowsLocalhost:)``: the label now reads as the
    /// ``allowsLocalhost`` property it sets.
    @available(*, deprecated, renamed: "init(_:policy:allowsLocalhost:)")
    public init(_ string: String, policy: RedirectURIPolicy = .native, allowLocalhost: Bool) throws(CallbackError) {
        try self.init(string, policy: policy, allowsLocalhost: allowLocalhost)
    }

    /// The old spelling of ``init(url:policy:allowsLocalhost:)``.
    @available(*, deprecated, renamed: "init(url:policy:allowsLocalhost:)")
    public init(url: CallbackURL, policy: RedirectURIPolicy = .native, allowLocalhost: Bool) throws(CallbackError) {
        try self.init(url: url, policy: policy, allowsLocalhost: allowLocalhost)
    }

    /// Validates an already parsed URI as a redirect URI under `policy`.
    public init(url: CallbackURL, policy: RedirectURIPolicy = .native, allowsLocalhost: Bool = false) throws(CallbackError) {
        if let violation = RedirectURI.violation(of: url, policy: policy, allowLocalhost: allowsLocalhost) {
            throw CallbackError(.invalidConfiguration, at: nil, violation.detail)
        }
        self.url = url
        let scheme = url.scheme
        isPrivateUseScheme = scheme != "http" && scheme != "https"
        isReverseDNS = !isPrivateUseScheme || scheme.utf8.contains(UInt8(ascii: "."))
        isLoopback =
            scheme == "http"
            && url.host.map {
                RedirectURIPolicy.isLoopbackIPLiteral($0) || (allowsLocalhost && RedirectURIPolicy.isLocalhost($0))
            } ?? false
        self.allowsLocalhost = allowsLocalhost
        plain = url.plainFoldedLength.map { (Array(url.string.utf8), $0) }
    }

    static func violation(of url: CallbackURL, policy: RedirectURIPolicy, allowLocalhost: Bool) -> RuleViolation? {
        if url.userinfo != nil {
            return RuleViolation(rule: .noUserinfo, explanation: "a redirect URI must not contain userinfo (user@host)")
        }
        if url.fragment != nil {
            return RuleViolation(rule: .noFragment, explanation: "a redirect URI must not contain a fragment (RFC 6749 §3.1.2)")
        }
        if let violation = policy.violation(of: url, allowLocalhost: allowLocalhost) { return violation }
        let query = url.queryParameters
        if let duplicate = query.firstDuplicate() {
            return RuleViolation(
                rule: .duplicateQueryParameter,
                explanation: "the query repeats '\(ParameterName.shown(duplicate.name))' (RFC 6749 §3.1)")
        }
        if let reserved = query.names.first(where: { KnownField.responseParameters.contains($0) }) {
            return RuleViolation(
                rule: .reservedQueryParameter,
                explanation: "the query uses '\(reserved)', a name of the provider's response")
        }
        if case .allowlist(let entries) = policy {
            let isListed = entries.contains { entry in
                entry.url.scheme == url.scheme && entry.matches(url) && entry.url.queryParameters.count == query.count
            }
            if !isListed {
                return RuleViolation(rule: .notAllowlisted, explanation: "the redirect URI is not on the allowlist")
            }
        }
        return nil
    }

    /// The URI as registered (scheme and host lowercased).
    public var description: String { url.serialized }

    /// Whether two redirect URIs are the same registration: equal parsed URLs (scheme and
    /// host compared case-insensitively) and the same `localhost` allowance.
    public static func == (a: RedirectURI, b: RedirectURI) -> Bool {
        a.url == b.url && a.allowsLocalhost == b.allowsLocalhost
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url.serialized)
        hasher.combine(allowsLocalhost)
    }
}
