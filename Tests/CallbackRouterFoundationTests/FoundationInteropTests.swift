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

import Foundation
import Testing
@testable import CallbackRouterFoundation

/// Callback shapes from the seeds, RFC 3986 §1.1.2 and the browsers' leniencies.
let interopVectors: [String] = [
    "com.example.app:/oauth2redirect?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj",
    "myapp://oauth-callback?challenge_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
    "demo://oauth?challenge_token=" + "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJhYmMifQ.ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0",
    "http://127.0.0.1:49152/callback?code=c&state=s",
    "http://[::1]:8080/callback?code=c&state=s",
    "https://myapp.com/oauthredirect?action=login&status=success&tracking_id=1234&session_id=1234",
    "my-app:/oauthRedirect?action=register&status=partial&state_key=1234&identifier=user%40example.com",
    "my-app:/oauthRedirect?action=login&status=failure&message=Access+denied%21",
    "com.example.app://callback?rotating_token_nonce=n0nce&created_session_id=sess_1",
    "com.example.app://example.auth0.com/ios/com.example.app/callback?code=c&state=s",
    "com.example.app:/oauth2redirect?code=c&state=s#",
    "https://example.com/cb?code=c&state=s#_=_",
    "com.example.app:/cb?scope=https://www.googleapis.com/auth/userinfo.email%20openid&code=c",
    "com.example.app:/cb?q=[a]{b}|c^d\\e`f",
    "com.example.app:/cb?error=access_denied&error_description=line%0D%0Anext",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
]

@Suite struct FoundationInteropTests {
    @Test(arguments: interopVectors)
    func roundTripsThroughFoundationURL(_ text: String) throws {
        let ours = try CallbackURL(parsing: text)
        let url = try #require(URL(ours), "Foundation reads \(text) differently")
        let back = try CallbackURL(url)
        #expect(back.scheme == ours.scheme)
        #expect(back.host == ours.host)
        #expect(back.port == ours.port)
        #expect(try back.decodedPath() == ours.decodedPath())
        #expect(Array(back.queryParameters) == Array(ours.queryParameters))
        #expect(Array(back.fragmentParameters) == Array(ours.fragmentParameters))
    }

    @Test func parsesAFoundationURLWithOurParserOnly() throws {
        let url = try #require(URL(string: "com.example.app:/oauth2redirect?code=a%2Bb+c&state=s"))
        let parsed = try CallbackURL(url)
        #expect(try parsed.queryParameters.value(named: "code") == "a+b c")
    }

    @Test func percentEncodesWhatRFC3986DoesNotAllowRaw() throws {
        let parsed = try CallbackURL(parsing: "com.example.app:/cb?q=[a]|b#x#y")
        #expect(parsed.rfc3986Serialized == "com.example.app:/cb?q=%5Ba%5D%7Cb#x%23y")
    }

    @Test func handsARouterAFoundationURL() throws {
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        let router = try builder.build()
        let attempt = try router.beginLogin(on: "app")
        let url = try #require(URL(string: "com.example.app:/oauth2redirect?code=c&state=\(attempt.state)"))
        let delivery = try router.handle(url)
        #expect(delivery.attempt == attempt)
    }

    @Test func buildsTheAuthorizationRequestAsAFoundationURL() throws {
        let redirect = try RedirectURI(try #require(URL(string: "com.example.app:/oauth2redirect")))
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: redirect, dialect: .oauth2))
        let attempt = try builder.build().beginLogin(on: "app")
        let request = try attempt.authorizationRequest(
            endpoint: "https://login.example.com/authorize?audience=api",
            clientID: "client id+1", scope: "openid profile")
        let url = try #require(request.foundationURL)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
        #expect(item("client_id") == "client id+1")
        #expect(item("scope") == "openid profile")
        #expect(item("state") == attempt.state)
        #expect(item("redirect_uri") == "com.example.app:/oauth2redirect")
        #expect(item("audience") == "api")
    }

    @Test func buildsTheEndSessionRequestAsAFoundationURLAndHandlesItsCallback() throws {
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        let router = try builder.build()
        let logout = try router.beginLogout(
            on: "app", endSessionEndpoint: "https://login.example.com/logout?tenant=a%20b",
            idTokenHint: "aGVhZGVy.cGF5bG9hZA.c2ln", uiLocales: "fr en")
        let url = try #require(logout.foundationURL)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
        #expect(item("post_logout_redirect_uri") == "com.example.app:/oauth2redirect")
        #expect(item("state") == logout.attempt.state)
        #expect(item("ui_locales") == "fr en")
        #expect(item("tenant") == "a b")
        let callback = try #require(URL(string: "com.example.app:/oauth2redirect?state=\(logout.attempt.state)"))
        #expect(try router.handle(callback).outcome.kind == .logoutComplete)
    }
}
