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

/// The rule a redirect URI (or a callback's scheme and host) broke. Its raw value starts
/// the detail of the `invalid_configuration` / `scheme_not_allowed` error, so tools can
/// tell the rules apart: `rule custom_scheme_required: …`.
public struct RedirectURIRule: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The rule's wire name, which starts the error's detail (`rule syntax: …`).
    public let rawValue: String
    /// Makes a rule from its wire name; the static members are the rules this package checks.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The rule's wire name.
    public var description: String { rawValue }

    /// `syntax`: the string is not an absolute URI our parser accepts.
    public static let syntax = RedirectURIRule(rawValue: "syntax")
    /// `forbidden_scheme`: `javascript`, `data`, `file`, `vbscript`, `about` or `blob`.
    public static let forbiddenScheme = RedirectURIRule(rawValue: "forbidden_scheme")
    /// `not_a_location`: a `urn:` names something and locates nothing, so no redirect can
    /// reach an app there (`urn:ietf:wg:oauth:2.0:oob`, the out-of-band "redirect", has the
    /// provider show the code to the user instead).
    public static let notALocation = RedirectURIRule(rawValue: "not_a_location")
    /// `no_fragment`: a redirect URI must not have a fragment (RFC 6749 §3.1.2).
    public static let noFragment = RedirectURIRule(rawValue: "no_fragment")
    /// `no_userinfo`: a redirect URI must not have userinfo (`user@host`).
    public static let noUserinfo = RedirectURIRule(rawValue: "no_userinfo")
    /// `custom_scheme_required`: the custom-scheme-only policy refuses `http` and `https`.
    public static let customSchemeRequired = RedirectURIRule(rawValue: "custom_scheme_required")
    /// `http_requires_loopback_ip`: `http` only with `127.0.0.1` or `[::1]` (RFC 8252 §7.3, §8.3).
    public static let httpRequiresLoopbackIP = RedirectURIRule(rawValue: "http_requires_loopback_ip")
    /// `localhost_not_allowed`: `localhost` is refused unless explicitly allowed (RFC 8252 §8.3).
    public static let localhostNotAllowed = RedirectURIRule(rawValue: "localhost_not_allowed")
    /// `https_requires_host`: a claimed `https` redirect URI names a host (RFC 8252 §7.2).
    public static let httpsRequiresHost = RedirectURIRule(rawValue: "https_requires_host")
    /// `claimed_https_requires_domain`: a claimed `https` redirect URI names a domain an app
    /// can claim (RFC 8252 §7.2: Universal Links, App Links): not an IP literal, not a
    /// single label, not `localhost` unless explicitly allowed.
    public static let claimedHTTPSRequiresDomain = RedirectURIRule(rawValue: "claimed_https_requires_domain")
    /// `not_allowlisted`: the allowlist policy has no such redirect URI (or scheme).
    public static let notAllowlisted = RedirectURIRule(rawValue: "not_allowlisted")
    /// `duplicate_query_parameter`: the registered query repeats a name (RFC 6749 §3.1).
    public static let duplicateQueryParameter = RedirectURIRule(rawValue: "duplicate_query_parameter")
    /// `reserved_query_parameter`: the registered query uses a name the provider's response
    /// uses (`code`, `state`, `error`…): every callback would then repeat it.
    public static let reservedQueryParameter = RedirectURIRule(rawValue: "reserved_query_parameter")
    /// `invalid_bundle_id` / `invalid_domain`: a provider builder's input cannot form a URI.
    public static let invalidBundleID = RedirectURIRule(rawValue: "invalid_bundle_id")
    /// `invalid_domain`: a provider builder's domain (Auth0's tenant) cannot form a URI host.
    public static let invalidDomain = RedirectURIRule(rawValue: "invalid_domain")
}
