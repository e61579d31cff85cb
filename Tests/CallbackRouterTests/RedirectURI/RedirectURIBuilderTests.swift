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

/// The redirect URI shapes providers document (seeds 003 and 004).
@Suite struct RedirectURIBuilderTests {
    @Test func buildsClerksDefault() throws {
        let redirect = try RedirectURI.clerk(bundleID: "com.example.app")
        #expect(redirect.description == "com.example.app://callback")
        #expect(redirect.matches(try CallbackURL(parsing: "com.example.app://callback?rotating_token_nonce=rtn_1")))
        #expect(!redirect.matches(try CallbackURL(parsing: "com.example.app://sso-callback?rotating_token_nonce=rtn_1")))
    }

    @Test func buildsAuth0sSeedCallback() throws {
        // Seed 004: "Auth0.Centralized-Login-Test-2://speyrott.auth0.com/ios/Auth0.Centralized-Login-Test-2/callback"
        let redirect = try RedirectURI.auth0(bundleID: "Auth0.Centralized-Login-Test-2", domain: "speyrott.auth0.com")
        #expect(redirect.description == "auth0.centralized-login-test-2://speyrott.auth0.com/ios/Auth0.Centralized-Login-Test-2/callback")
        let callback = try CallbackURL(
            parsing:
                "Auth0.Centralized-Login-Test-2://speyrott.auth0.com/ios/Auth0.Centralized-Login-Test-2/callback?code=AbC&state=xyz")
        #expect(redirect.matches(callback))
        // The path keeps the bundle's case: a lowercased path is another URI.
        #expect(
            !redirect.matches(
                try CallbackURL(
                    parsing:
                        "auth0.centralized-login-test-2://speyrott.auth0.com/ios/auth0.centralized-login-test-2/callback?code=AbC")))
    }

    @Test func buildsAuth0sUniversalLink() throws {
        let redirect = try RedirectURI.auth0(bundleID: "com.example.app", domain: "example.us.auth0.com", https: true)
        #expect(redirect.description == "https://example.us.auth0.com/ios/com.example.app/callback")
        #expect(redirect.matches(try CallbackURL(parsing: "https://example.us.auth0.com/ios/com.example.app/callback?code=x&state=y")))
    }

    @Test(arguments: ["", "1app", "com.example_app", "com example", "com/example", "é.app", "-app"])
    func refusesABundleIDThatIsNotAScheme(_ bundleID: String) {
        for error in [
            refusal { try RedirectURI.clerk(bundleID: bundleID) },
            refusal { try RedirectURI.auth0(bundleID: bundleID, domain: "a.auth0.com") },
        ] {
            #expect(error?.reason == .invalidConfiguration)
            #expect(error?.detail.hasPrefix("rule invalid_bundle_id: ") == true)
        }
    }

    @Test(arguments: [("http", RedirectURIRule.customSchemeRequired), ("HTTPS", .customSchemeRequired), ("javascript", .forbiddenScheme)])
    func clerkRefusesBundleIDsThatAreWebSchemes(_ bundleID: String, _ rule: RedirectURIRule) {
        let error = refusal { try RedirectURI.clerk(bundleID: bundleID) }
        #expect(error?.detail.hasPrefix("rule \(rule.rawValue): ") == true)
    }

    @Test(arguments: [
        "", "https://example.auth0.com", "example.auth0.com/", "example.auth0.com:443", "user@example.auth0.com",
        "127.0.0.1", "[::1]", "exa mple.com",
    ])
    func auth0RefusesADomainThatIsNotAHostName(_ domain: String) {
        let error = refusal { try RedirectURI.auth0(bundleID: "com.example.app", domain: domain) }
        #expect(error?.reason == .invalidConfiguration)
        #expect(error?.detail.hasPrefix("rule invalid_domain: ") == true)
    }
}
