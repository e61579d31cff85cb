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

/// Which redirect URIs an app may register, and which callbacks it accepts.
///
/// Every policy refuses the schemes that run code or read local data (`javascript`,
/// `data`, `file`, `vbscript`, `about`, `blob`), a `urn:` (a name no redirect can reach,
/// such as the out-of-band `urn:ietf:wg:oauth:2.0:oob`), a fragment and userinfo in a
/// registered redirect URI. See docs/redirect-uris.md for ✅/❌ examples.
public enum RedirectURIPolicy: Sendable, Hashable {
    /// RFC 8252 (OAuth 2.0 for Native Apps): a private-use scheme (§7.1; reverse-DNS
    /// recommended, see ``RedirectURI/isReverseDNS``), the loopback IP literals
    /// `http://127.0.0.1` and `http://[::1]` with any port (§7.3; `localhost` only when
    /// explicitly allowed, §8.3), or a claimed `https` URI on a domain (§7.2: not an IP
    /// literal or a single label, which no app can claim).
    case native
    /// A private-use scheme only: `http` and `https` are refused whatever their case
    /// (Prelude, Clerk: "Passing an http/https redirect throws an invalid-configuration
    /// error before any network call").
    case customSchemeOnly
    /// Only these redirect URIs (each already validated under its own policy): a
    /// registration must match one of them.
    case allowlist([RedirectURI])
}

extension RedirectURIPolicy {
    /// Schemes that run code or read local data in a browser or an OS: never a redirect.
    static let forbiddenSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "about", "blob"]

    /// The rules on the scheme alone, which every policy and every redirect URI an app
    /// sends (``AuthorizationRequest``, ``EndSessionRequest``) share: `forbidden_scheme`,
    /// and `not_a_location` for a `urn` (RFC 8141: a name, not a location; no callback is
    /// ever delivered to one).
    static func schemeViolation(_ scheme: String) -> RuleViolation? {
        if forbiddenSchemes.contains(scheme) {
            return RuleViolation(rule: .forbiddenScheme, explanation: "the scheme '\(scheme)' is never allowed for a redirect")
        }
        if scheme == "urn" {
            return RuleViolation(
                rule: .notALocation,
                explanation:
                    "a urn: names something but locates nothing, so no redirect reaches an app there (urn:ietf:wg:oauth:2.0:oob has the provider show the code to the user instead); use a private-use scheme or a loopback redirect (RFC 8252)"
            )
        }
        return nil
    }

    /// Whether the scheme, host and (for `http`) loopback rules of this policy hold for
    /// `url`. Fragment and userinfo are the caller's business (they differ between a
    /// registered redirect URI and a callback).
    func violation(of url: CallbackURL, allowLocalhost: Bool) -> RuleViolation? {
        let scheme = url.scheme
        if let violation = RedirectURIPolicy.schemeViolation(scheme) { return violation }
        switch self {
        case .customSchemeOnly:
            if scheme == "http" || scheme == "https" {
                return RuleViolation(
                    rule: .customSchemeRequired,
                    explanation: "this policy accepts only a custom scheme (myapp://callback), not \(scheme)")
            }
        case .native:
            if scheme == "http" {
                guard let host = url.host else {
                    return RuleViolation(
                        rule: .httpRequiresLoopbackIP, explanation: "an http redirect must name the loopback IP 127.0.0.1 or [::1]")
                }
                if RedirectURIPolicy.isLoopbackIPLiteral(host) { return nil }
                if RedirectURIPolicy.isLocalhost(host) {
                    return allowLocalhost
                        ? nil
                        : RuleViolation(
                            rule: .localhostNotAllowed,
                            explanation:
                                "'localhost' depends on name resolution and firewalls (RFC 8252 §8.3); use 127.0.0.1 or [::1], or allow localhost explicitly"
                        )
                }
                return RuleViolation(
                    rule: .httpRequiresLoopbackIP,
                    explanation: "plain http is allowed only for the loopback IP literals 127.0.0.1 and [::1] (RFC 8252 §7.3)")
            }
            if scheme == "https" {
                guard let host = url.host, !host.text.isEmpty else {
                    return RuleViolation(rule: .httpsRequiresHost, explanation: "a claimed https redirect must name a host (RFC 8252 §7.2)")
                }
                return RedirectURIPolicy.claimedHTTPSViolation(host, allowLocalhost: allowLocalhost)
            }
        case .allowlist(let entries):
            if !entries.contains(where: { $0.url.scheme == scheme }) {
                return RuleViolation(rule: .notAllowlisted, explanation: "no allowlisted redirect URI has the scheme '\(scheme)'")
            }
        }
        return nil
    }

    /// `127.0.0.1` or `::1`: the two literals RFC 8252 §7.3 names.
    static func isLoopbackIPLiteral(_ host: Host) -> Bool {
        switch host.kind {
        case .ipv4: return host.addressBytes == [127, 0, 0, 1]
        case .ipv6: return host.isLoopbackAddress
        case .registeredName: return false
        }
    }

    /// A claimed https URI is delivered to the app that proves it owns the domain (an
    /// `apple-app-site-association` or `assetlinks.json` served over https). An IP literal
    /// or a single-label name cannot be proven that way, so a redirect there reaches
    /// whatever answers, not the app: refused. `localhost` follows the loopback rule.
    static func claimedHTTPSViolation(_ host: Host, allowLocalhost: Bool) -> RuleViolation? {
        if isLocalhost(host) {
            return allowLocalhost
                ? nil
                : RuleViolation(
                    rule: .localhostNotAllowed,
                    explanation:
                        "'localhost' cannot be a claimed https redirect (RFC 8252 §7.2, §8.3); use http://127.0.0.1 or [::1], or allow localhost explicitly"
                )
        }
        if host.kind != .registeredName {
            return RuleViolation(
                rule: .claimedHTTPSRequiresDomain,
                explanation:
                    "an https redirect to an IP address cannot be claimed by an app (RFC 8252 §7.2); use http://127.0.0.1 or [::1] for loopback (§7.3)"
            )
        }
        let name = host.text.utf8
        let labels = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true)
        if labels.count < 2 {
            return RuleViolation(
                rule: .claimedHTTPSRequiresDomain,
                explanation: "a claimed https redirect must name a domain the app can prove it owns (RFC 8252 §7.2), not a single label")
        }
        return nil
    }

    static func isLocalhost(_ host: Host) -> Bool {
        host.kind == .registeredName && (host.text == "localhost" || host.text == "localhost.")
    }
}
