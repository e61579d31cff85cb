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

import Testing
@testable import CallbackRouter

/// Registration: a bad redirect URI is `invalid_configuration` naming the rule it broke,
/// before any network call.
@Suite struct RedirectURIValidationTests {
    @Test(arguments: [
        // RFC 8252 §7.1 private-use schemes.
        ("com.example.app:/oauth2redirect", true, false),
        ("com.example.app://callback", true, false),
        ("my-app:/oauthRedirect", false, false),
        ("myapp://oauth-callback", false, false),
        ("demo://oauth", false, false),
        ("com.example.app:/cb?tenant=acme", true, false),
        // RFC 8252 §7.3 loopback IP literals, any port.
        ("http://127.0.0.1/callback", true, true),
        ("http://127.0.0.1:8080/callback", true, true),
        ("http://[::1]:49152/cb", true, true),
        ("http://[0:0:0:0:0:0:0:1]/cb", true, true),
        // RFC 8252 §7.2 claimed https.
        ("https://app.example.com/oauth/callback", true, false),
        ("https://myapp.com/oauthredirect", true, false),
        ("HTTPS://App.Example.com/cb", true, false),
    ])
    func acceptsNativeRedirectURIs(_ string: String, _ isReverseDNS: Bool, _ isLoopback: Bool) throws {
        let redirect = try RedirectURI(string)
        #expect(redirect.isReverseDNS == isReverseDNS)
        #expect(redirect.isLoopback == isLoopback)
    }

    @Test(arguments: [
        ("javascript:alert(document.cookie)", RedirectURIRule.forbiddenScheme),
        ("JavaScript:alert(1)", .forbiddenScheme),
        ("data:text/html,<script>", .syntax),
        ("data:text/html,hello", .forbiddenScheme),
        ("file:///etc/passwd", .forbiddenScheme),
        ("vbscript:msgbox(1)", .forbiddenScheme),
        ("about:blank", .forbiddenScheme),
        ("blob:https://app.example.com/0f3c", .forbiddenScheme),
        ("urn:ietf:wg:oauth:2.0:oob", .notALocation),
        ("URN:ietf:wg:oauth:2.0:oob:auto", .notALocation),
        ("myapp://callback#frag", .noFragment),
        ("myapp://callback#", .noFragment),
        ("https://app.example.com/cb#_=_", .noFragment),
        ("https://user:pass@app.example.com/cb", .noUserinfo),
        ("myapp://user@callback", .noUserinfo),
        ("http://localhost/callback", .localhostNotAllowed),
        ("http://LocalHost:8080/callback", .localhostNotAllowed),
        ("http://localhost.:8080/callback", .localhostNotAllowed),
        ("http://example.com/callback", .httpRequiresLoopbackIP),
        ("HTTP://example.com/callback", .httpRequiresLoopbackIP),
        ("http://127.0.0.2/callback", .httpRequiresLoopbackIP),
        ("http://10.0.0.1/callback", .httpRequiresLoopbackIP),
        ("http:/callback", .httpRequiresLoopbackIP),
        ("https:///callback", .httpsRequiresHost),
        ("https:/callback", .httpsRequiresHost),
        ("https://localhost/callback", .localhostNotAllowed),
        ("https://LOCALHOST:8443/callback", .localhostNotAllowed),
        ("https://127.0.0.1/callback", .claimedHTTPSRequiresDomain),
        ("https://[::1]:8443/callback", .claimedHTTPSRequiresDomain),
        ("https://10.0.0.1/callback", .claimedHTTPSRequiresDomain),
        ("https://intranet/callback", .claimedHTTPSRequiresDomain),
        ("https://app./callback", .claimedHTTPSRequiresDomain),
        ("myapp://cb?tenant=a&tenant=b", .duplicateQueryParameter),
        ("myapp://cb?state=fixed", .reservedQueryParameter),
        ("myapp://cb?code=x", .reservedQueryParameter),
        ("", .syntax),
        ("/oauth2redirect", .syntax),
        ("myapp://cb?x=%zz", .syntax),
        ("my app://cb", .syntax),
    ])
    func refusesABadRedirectURINamingTheRule(_ string: String, _ rule: RedirectURIRule) {
        let error = refusal { try RedirectURI(string) }
        #expect(error?.reason == .invalidConfiguration)
        #expect(error?.detail.hasPrefix("rule \(rule.rawValue): ") == true, "\(String(describing: error))")
    }

    @Test func claimedHTTPSOnLocalhostOnlyWhenAllowed() throws {
        let redirect = try RedirectURI("https://localhost:8443/callback", allowsLocalhost: true)
        #expect(!redirect.isLoopback) // loopback means the http loopback flow (RFC 8252 §7.3)
        #expect(
            refusal { try RedirectURI("https://127.0.0.1/cb", allowsLocalhost: true) }?.detail
                .hasPrefix("rule claimed_https_requires_domain: ") == true)
        _ = try RedirectURI("https://app.example.com./callback") // a fully qualified name is a domain
    }

    @Test(arguments: ["http://localhost/callback", "http://localhost:8080/callback"])
    func acceptsLocalhostOnlyWhenAllowed(_ string: String) throws {
        #expect(refusal { try RedirectURI(string) }?.reason == .invalidConfiguration)
        let redirect = try RedirectURI(string, allowsLocalhost: true)
        #expect(redirect.isLoopback)
        #expect(redirect.allowsLocalhost)
    }

    @Test(arguments: [
        "https://app.example.com/cb", "http://127.0.0.1/cb", "HTTP://[::1]/cb", "Https://x.example",
        "http://localhost/cb",
    ])
    func customSchemeOnlyRefusesHTTPWhateverItsCase(_ string: String) {
        let error = refusal { try RedirectURI(string, policy: .customSchemeOnly, allowsLocalhost: true) }
        #expect(error?.reason == .invalidConfiguration)
        #expect(error?.detail.hasPrefix("rule custom_scheme_required: ") == true)
    }

    @Test(arguments: ["myapp://oauth-callback", "com.example.app://callback", "demo://oauth"])
    func customSchemeOnlyAcceptsCustomSchemes(_ string: String) throws {
        let redirect = try RedirectURI(string, policy: .customSchemeOnly)
        #expect(redirect.isPrivateUseScheme)
        #expect(!redirect.isLoopback)
    }

    @Test func customSchemeOnlyStillRefusesForbiddenSchemes() {
        let error = refusal { try RedirectURI("javascript:alert(1)", policy: .customSchemeOnly) }
        #expect(error?.detail.hasPrefix("rule forbidden_scheme: ") == true)
    }

    @Test func allowlistAcceptsOnlyListedURIs() throws {
        let listed = [try RedirectURI("com.example.app:/oauth2redirect"), try RedirectURI("http://127.0.0.1/cb")]
        let policy = RedirectURIPolicy.allowlist(listed)
        #expect(try RedirectURI("COM.EXAMPLE.APP:/oauth2redirect", policy: policy).url.scheme == "com.example.app")
        #expect(try RedirectURI("http://127.0.0.1:5000/cb", policy: policy).isLoopback)
        for string in [
            "com.example.app:/other", "com.example.other:/oauth2redirect", "com.example.app:/oauth2redirect?x=1",
            "https://app.example.com/cb",
        ] {
            let error = refusal { try RedirectURI(string, policy: policy) }
            #expect(error?.reason == .invalidConfiguration)
            #expect(error?.detail.hasPrefix("rule not_allowlisted: ") == true, "\(string)")
        }
    }

    @Test func reportsWhereASyntaxErrorIs() {
        let error = refusal { try RedirectURI("myapp://cb?x=%zz") }
        #expect(error?.offset == 13)
    }

    @Test func printsTheURIAsRegistered() throws {
        #expect(try RedirectURI("COM.Example.App://CallBack/Path").description == "com.example.app://callback/Path")
    }

    @Test func equalURIsAreEqualAndHashAlike() throws {
        let a = try RedirectURI("MyApp://CB/x")
        let b = try RedirectURI("myapp://cb/x")
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(try RedirectURI("myapp://cb/y") != a)
    }
}
