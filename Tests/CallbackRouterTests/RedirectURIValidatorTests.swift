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

import CallbackTestSupport
import Testing
@testable import CallbackRouter

/// The whole validation, in its order: scheme policy → userinfo and redirect-URI match →
/// dialect → state → issuer.
@Suite struct RedirectURIValidatorTests {
    @Test func validatesAFullOAuthCallback() throws {
        let validator = try CallbackValidator(
            redirectURIs: [RedirectURI("com.example.app:/oauth2redirect")], dialect: .oauth2,
            expecting: CallbackExpectations(state: "af0ifjsldkj", issuer: "https://as.example", requiresIssuer: true))
        let outcome = try validator.validate("com.example.app:/oauth2redirect?code=SplxlOBe&state=af0ifjsldkj&iss=https://as.example")
        #expect(outcome.kind == .authorizationCode)
        #expect(outcome.code == "SplxlOBe")
    }

    @Test(arguments: [
        // scheme policy comes first, even before a registered redirect URI is compared.
        ("https://app.example.com/cb?code=x&error=y", RedirectURIPolicy.customSchemeOnly, ReasonCode.schemeNotAllowed),
        ("HTTP://127.0.0.1:5000/cb?code=x", .customSchemeOnly, .schemeNotAllowed),
        ("http://example.com/cb?code=x", .native, .schemeNotAllowed),
        ("http://localhost:5000/cb?code=x", .native, .schemeNotAllowed),
        ("javascript:alert(1)?code=x", .native, .schemeNotAllowed),
        ("urn:ietf:wg:oauth:2.0:oob?code=x", .native, .schemeNotAllowed),
        ("data:text/plain,x?code=x", .customSchemeOnly, .schemeNotAllowed),
        // userinfo before the dialect.
        ("myapp://user@cb?code=x&error=y", .native, .userinfoNotAllowed),
        // then the dialect.
        ("myapp://cb?code=x&error=y", .native, .ambiguousResponse),
        ("https://app.example.com/cb?code=x", .native, .stateMissing),
    ])
    func refusesInOrderWithoutRegisteredURIs(_ callback: String, _ policy: RedirectURIPolicy, _ reason: ReasonCode) throws {
        let validator = try CallbackValidator(policy: policy, expecting: CallbackExpectations(state: "s"))
        #expect(refusal { try validator.validate(callback) }?.reason == reason)
    }

    @Test(arguments: [
        ("myapp://other?code=x&error=y", ReasonCode.redirectURIMismatch),
        ("myapp://u@oauth-callback?code=x", .userinfoNotAllowed),
        ("myapp://oauth-callback?code=x&error=y", .ambiguousResponse),
        ("myapp://oauth-callback?code=x&state=t", .stateMismatch),
        ("https://myapp.example/oauth-callback?code=x&state=s", .schemeNotAllowed),
    ])
    func refusesInOrderWithARegisteredURI(_ callback: String, _ reason: ReasonCode) throws {
        let validator = try CallbackValidator(
            redirectURIs: [RedirectURI("myapp://oauth-callback", policy: .customSchemeOnly)],
            policy: .customSchemeOnly, expecting: CallbackExpectations(state: "s"))
        #expect(refusal { try validator.validate(callback) }?.reason == reason)
    }

    @Test func refusesARedirectURIThatBreaksTheValidatorsPolicy() throws {
        let https = try RedirectURI("https://app.example.com/cb")
        let error = refusal { try CallbackValidator(redirectURIs: [https], policy: .customSchemeOnly) }
        #expect(error?.reason == .invalidConfiguration)
        #expect(error?.detail.hasPrefix("rule custom_scheme_required: ") == true)
    }

    @Test func keepsTheParsersReasonAndOffset() throws {
        let error = refusal { try CallbackValidator().validate("myapp://cb?code=%zz") }
        #expect(error?.reason == .invalidPercentEncoding)
        #expect(error?.offset == 16)
    }

    @Test func acceptsLocalhostWhenARegisteredURIAllowsIt() throws {
        let validator = try CallbackValidator(redirectURIs: [RedirectURI("http://localhost/cb", allowsLocalhost: true)])
        #expect(try validator.validate("http://localhost:8123/cb?code=x").code == "x")
        #expect(try CallbackValidator(allowsLocalhost: true).validate("http://localhost:8123/cb?code=x").code == "x")
    }

    @Test func allowlistPolicyMatchesItsEntries() throws {
        let validator = try CallbackValidator(policy: .allowlist([RedirectURI("com.example.app:/oauth2redirect")]))
        #expect(try validator.validate("com.example.app:/oauth2redirect?code=x").code == "x")
        #expect(refusal { try validator.validate("com.example.app:/other?code=x") }?.reason == .redirectURIMismatch)
        #expect(refusal { try validator.validate("com.other.app:/oauth2redirect?code=x") }?.reason == .schemeNotAllowed)
    }

    @Test func returnsTheRedirectURIItAnswers() throws {
        let list = [try RedirectURI("myapp://a"), try RedirectURI("myapp://b")]
        let validator = try CallbackValidator(redirectURIs: list)
        #expect(try validator.checkRedirect(CallbackURL(parsing: "myapp://b?code=x")) == list[1])
        #expect(try CallbackValidator().checkRedirect(CallbackURL(parsing: "myapp://b?code=x")) == nil)
    }

    @Test func freeFunctionDoesTheSame() throws {
        let outcome = try validateCallback(
            CallbackURL(parsing: "myapp://callback?challenge_token=\(preludeToken("ct"))"),
            redirectURIs: [RedirectURI.clerk(bundleID: "myapp")],
            policy: .customSchemeOnly, dialect: .prelude)
        #expect(outcome.challengeToken == "\(preludeToken("ct"))")
    }
}
