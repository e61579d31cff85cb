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

/// Matching a callback to a registered redirect URI (RFC 9700 §2.1 exact matching,
/// RFC 8252 §7.3 loopback ports, RFC 6749 §3.1.2 registered query).
@Suite struct RedirectURIMatchingTests {
    @Test(arguments: [
        ("com.example.app:/oauth2redirect", "com.example.app:/oauth2redirect?code=x&state=y"),
        ("com.example.app:/oauth2redirect", "COM.EXAMPLE.APP:/oauth2redirect?code=x"),
        ("com.example.app:/oauth2redirect", "com.example.app:/oauth2redirect#_=_"),
        ("myapp://oauth-callback", "myapp://OAuth-Callback?challenge_token=\(preludeToken("t"))"),
        ("https://app.example.com/cb", "https://APP.example.com/cb?code=x"),
        ("https://app.example.com/cb", "https://app.example.com:443/cb?code=x"),
        ("https://app.example.com:443/cb", "https://app.example.com/cb?code=x"),
        ("https://app.example.com", "https://app.example.com/?code=x"),
        ("http://127.0.0.1/callback", "http://127.0.0.1:49152/callback?code=x"),
        ("http://127.0.0.1:8080/callback", "http://127.0.0.1:9090/callback?code=x"),
        ("http://127.0.0.1:8080/callback", "http://127.0.0.1/callback?code=x"),
        ("http://[::1]/cb", "http://[0:0:0:0:0:0:0:1]:5000/cb?code=x"),
        ("myapp://cb?tenant=acme", "myapp://cb?code=x&tenant=acme"),
        ("myapp://cb?tenant=acme", "myapp://cb?tenant=acm%65&code=x"),
        ("myapp://cb?tenant=a+b", "myapp://cb?tenant=a%20b&code=x"),
    ])
    func matchesTheSameRedirectURI(_ registered: String, _ callback: String) throws {
        let redirect = try RedirectURI(registered)
        let url = try CallbackURL(parsing: callback)
        #expect(redirect.matches(url))
        try redirect.check(url)
    }

    @Test(arguments: [
        ("com.example.app:/oauth2redirect", "com.example.other:/oauth2redirect?code=x", "scheme"),
        ("com.example.app:/oauth2redirect", "com.example.app://oauth2redirect?code=x", "authority"),
        ("myapp://oauth-callback", "myapp://evil-callback?code=x", "host"),
        ("https://app.example.com/cb", "https://app.example.com.evil.example/cb?code=x", "host"),
        ("https://app.example.com/cb", "https://app.example.com:8443/cb?code=x", "port"),
        ("https://app.example.com:8443/cb", "https://app.example.com/cb?code=x", "port"),
        ("myapp://cb:1/x", "myapp://cb/x?code=x", "port"),
        ("http://127.0.0.1/cb", "http://[::1]:5000/cb?code=x", "host"),
        ("http://127.0.0.1/cb", "http://127.0.0.2:5000/cb?code=x", "host"),
        ("com.example.app:/oauth2redirect", "com.example.app:/oauth2redirect/?code=x", "path"),
        ("com.example.app:/oauth2redirect", "com.example.app:/OAuth2Redirect?code=x", "path"),
        ("com.example.app:/oauth2redirect", "com.example.app:/oauth2redirect/../oauth2redirect?code=x", "path"),
        ("com.example.app:/oauth2redirect", "com.example.app:/oauth2redirec%74?code=x", "path"),
        ("myapp://cb/a/b", "myapp://cb/a%2Fb?code=x", "path"),
        ("myapp://cb", "myapp://cb/?code=x", "path"),
        ("https://app.example.com/cb", "https://app.example.com/cb/extra?code=x", "path"),
        ("myapp://cb?tenant=acme", "myapp://cb?code=x", "query parameter 'tenant'"),
        ("myapp://cb?tenant=acme", "myapp://cb?code=x&tenant=ACME", "query parameter 'tenant'"),
        ("myapp://cb?tenant=acme", "myapp://cb?code=x#tenant=acme", "query parameter 'tenant'"),
    ])
    func refusesAnyOtherURI(_ registered: String, _ callback: String, _ component: String) throws {
        let redirect = try RedirectURI(registered)
        let url = try CallbackURL(parsing: callback)
        #expect(!redirect.matches(url))
        let error = refusal { try redirect.check(url) }
        #expect(error?.reason == .redirectURIMismatch)
        #expect(error?.detail == "the callback's \(component) differs from the registered redirect URI")
    }

    @Test(arguments: ["https://evil@app.example.com/cb?code=x", "https://app.example.com:pw@app.example.com/cb", "myapp://@oauth-callback"])
    func refusesUserinfoInACallback(_ callback: String) throws {
        let redirect = try RedirectURI(callback.hasPrefix("myapp") ? "myapp://oauth-callback" : "https://app.example.com/cb")
        let url = try CallbackURL(parsing: callback)
        #expect(!redirect.matches(url))
        #expect(refusal { try redirect.check(url) }?.reason == .userinfoNotAllowed)
    }

    @Test func refusesARepeatedRegisteredParameter() throws {
        let redirect = try RedirectURI("myapp://cb?tenant=a")
        let url = try CallbackURL(parsing: "myapp://cb?tenant=a&code=x&tenant=a")
        let error = refusal { try redirect.check(url) }
        #expect(error?.reason == .duplicateParameter)
        #expect(error?.offset == 27)
    }

    @Test func localhostAllowedMatchesAnyPort() throws {
        let redirect = try RedirectURI("http://localhost/cb", allowsLocalhost: true)
        #expect(redirect.matches(try CallbackURL(parsing: "http://LOCALHOST:5173/cb?code=x")))
        #expect(!redirect.matches(try CallbackURL(parsing: "http://127.0.0.1:5173/cb?code=x")))
    }

    @Test func aListFindsTheRedirectURIItAnswers() throws {
        let list = [try RedirectURI("myapp://a"), try RedirectURI("myapp://b"), try RedirectURI("http://127.0.0.1/cb")]
        #expect(try list.check(CallbackURL(parsing: "myapp://b?code=x")) == list[1])
        #expect(try list.check(CallbackURL(parsing: "http://127.0.0.1:4000/cb?code=x")) == list[2])
        let error = refusal { try list.check(CallbackURL(parsing: "myapp://c?code=x")) }
        #expect(error?.reason == .redirectURIMismatch)
        #expect(error?.detail == "the callback answers none of the 3 registered redirect URIs")
        #expect(refusal { try list.check(CallbackURL(parsing: "myapp://u@a?code=x")) }?.reason == .userinfoNotAllowed)
    }
}
