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

import CallbackParsing
import CallbackTestSupport
import Testing

/// Every callback shape the seed documents (shared/seeds/) and the OAuth RFCs show, plus
/// what real browsers and providers are known to deliver. None may be refused.
@Suite struct SeedCallbackTests {
    struct Callback: CustomTestStringConvertible, Sendable {
        let source: String
        let url: String
        let scheme: String
        let host: String?
        let path: String
        let query: [[String]]
        var fragment: [[String]] = []
        var testDescription: String { source }
    }

    static let callbacks: [Callback] = [
        Callback(
            source: "Prelude: custom scheme, challenge_token",
            url: "myapp://oauth-callback?challenge_token=\(preludeToken("ct_01HZY8k2-Qx_9"))",
            scheme: "myapp", host: "oauth-callback", path: "", query: [["challenge_token", "\(preludeToken("ct_01HZY8k2-Qx_9"))"]]),
        Callback(
            source: "Ory: return_to on localhost receives code",
            url: "http://localhost:19006/Callback?code=ory_sec_2b9c5c0e",
            scheme: "http", host: "localhost", path: "/Callback", query: [["code", "ory_sec_2b9c5c0e"]]),
        Callback(
            source: "Zephr: login success",
            url: "my-app:/oauthRedirect?action=login&status=success&tracking_id=1234&session_id=1234",
            scheme: "my-app", host: nil, path: "/oauthRedirect",
            query: [["action", "login"], ["status", "success"], ["tracking_id", "1234"], ["session_id", "1234"]]),
        Callback(
            source: "Zephr: partial registration, raw @ in the identifier",
            url: "my-app:/oauthRedirect?action=register&status=partial&state_key=1234&identifier=user@example.com",
            scheme: "my-app", host: nil, path: "/oauthRedirect",
            query: [["action", "register"], ["status", "partial"], ["state_key", "1234"], ["identifier", "user@example.com"]]),
        Callback(
            source: "Zephr: failure with a message",
            url: "my-app:/oauthRedirect?action=login&status=failure&message=User+denied+access%2E",
            scheme: "my-app", host: nil, path: "/oauthRedirect",
            query: [["action", "login"], ["status", "failure"], ["message", "User denied access."]]),
        Callback(
            source: "Zephr: app-claimed https",
            url: "https://myapp.com/oauthredirect?action=login&status=success&tracking_id=1&session_id=2",
            scheme: "https", host: "myapp.com", path: "/oauthredirect",
            query: [["action", "login"], ["status", "success"], ["tracking_id", "1"], ["session_id", "2"]]),
        Callback(
            source: "Clerk: {bundle_id}://callback",
            url: "com.example.MyApp://callback?rotating_token_nonce=rtn_abc&created_session_id=sess_1&state=s1",
            scheme: "com.example.myapp", host: "callback", path: "",
            query: [["rotating_token_nonce", "rtn_abc"], ["created_session_id", "sess_1"], ["state", "s1"]]),
        Callback(
            source: "Auth0: first example",
            url: "auth0test1://test?code=AUTH_CODE&state=STATE",
            scheme: "auth0test1", host: "test", path: "", query: [["code", "AUTH_CODE"], ["state", "STATE"]]),
        Callback(
            source: "Auth0: {bundle}://{domain}/ios/{bundle}/callback",
            url: "Auth0.Centralized-Login-Test-2://speyrott.auth0.com/ios/Auth0.Centralized-Login-Test-2/callback?code=c&state=s",
            scheme: "auth0.centralized-login-test-2", host: "speyrott.auth0.com",
            path: "/ios/Auth0.Centralized-Login-Test-2/callback", query: [["code", "c"], ["state", "s"]]),
        Callback(
            source: "RFC 6749 §4.1.2",
            url: "https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
            scheme: "https", host: "client.example.com", path: "/cb",
            query: [["code", "SplxlOBeZQQYbYS6WxSbIA"], ["state", "xyz"]]),
        Callback(
            source: "RFC 6749 §4.1.2.1 error",
            url: "https://client.example.com/cb?error=access_denied&state=xyz",
            scheme: "https", host: "client.example.com", path: "/cb", query: [["error", "access_denied"], ["state", "xyz"]]),
        Callback(
            source: "RFC 9207 iss",
            url: "https://client.example.com/cb?code=x&state=y&iss=https%3A%2F%2Fhonest.as.example",
            scheme: "https", host: "client.example.com", path: "/cb",
            query: [["code", "x"], ["state", "y"], ["iss", "https://honest.as.example"]]),
        Callback(
            source: "RFC 8252 private-use scheme",
            url: "com.example.app:/oauth2redirect/example-provider?code=c&state=s",
            scheme: "com.example.app", host: nil, path: "/oauth2redirect/example-provider",
            query: [["code", "c"], ["state", "s"]]),
        Callback(
            source: "RFC 8252 loopback IPv4",
            url: "http://127.0.0.1:51004/oauth2redirect/example-provider?code=c&state=s",
            scheme: "http", host: "127.0.0.1", path: "/oauth2redirect/example-provider", query: [["code", "c"], ["state", "s"]]),
        Callback(
            source: "RFC 8252 loopback IPv6",
            url: "http://[::1]:61023/oauth2redirect/example-provider?code=c&state=s",
            scheme: "http", host: "[::1]", path: "/oauth2redirect/example-provider", query: [["code", "c"], ["state", "s"]]),
        Callback(
            source: "Google: raw ':' and '/' in scope",
            url:
                "http://127.0.0.1:8080/?state=s&code=4/0AX4XfWh&scope=email%20profile%20https://www.googleapis.com/auth/userinfo.email%20openid&authuser=0&prompt=consent",
            scheme: "http", host: "127.0.0.1", path: "/",
            query: [
                ["state", "s"], ["code", "4/0AX4XfWh"],
                ["scope", "email profile https://www.googleapis.com/auth/userinfo.email openid"],
                ["authuser", "0"], ["prompt", "consent"],
            ]),
        Callback(
            source: "Facebook: #_=_ appended",
            url: "https://app.example.com/cb?code=AQD&state=s#_=_",
            scheme: "https", host: "app.example.com", path: "/cb", query: [["code", "AQD"], ["state", "s"]],
            fragment: [["_", "_"]]),
        Callback(
            source: "AppAuth tests: empty fragment",
            url: "com.example.app:/oauth2redirect?code=c&state=s#",
            scheme: "com.example.app", host: nil, path: "/oauth2redirect", query: [["code", "c"], ["state", "s"]]),
        Callback(
            source: "Azure AD: CR LF in error_description",
            url:
                "myapp://auth?error=invalid_request&error_description=AADSTS50011%3a+The+reply+URL+does+not+match.%0d%0aTrace+ID%3a+1f2e&state=s",
            scheme: "myapp", host: "auth", path: "",
            query: [
                ["error", "invalid_request"],
                ["error_description", "AADSTS50011: The reply URL does not match.\r\nTrace ID: 1f2e"], ["state", "s"],
            ]),
        Callback(
            source: "WHATWG: characters a browser leaves raw in a query",
            url: "myapp://cb?code=a[b]{c}|d^e\\f`g&state='s'",
            scheme: "myapp", host: "cb", path: "", query: [["code", "a[b]{c}|d^e\\f`g"], ["state", "'s'"]]),
        Callback(
            source: "Implicit grant response in the fragment (parsed; refusing it is policy)",
            url: "myapp://cb#access_token=at&token_type=bearer&state=s",
            scheme: "myapp", host: "cb", path: "", query: [],
            fragment: [["access_token", "at"], ["token_type", "bearer"], ["state", "s"]]),
    ]

    @Test(arguments: callbacks)
    func acceptsTheCallback(_ callback: Callback) throws {
        let url = try CallbackURL(parsing: callback.url)
        #expect(url.scheme == callback.scheme)
        #expect(url.host?.text == callback.host)
        #expect(url.path == callback.path)
        #expect(url.userinfo == nil)
        #expect(pairs(url.queryParameters) == callback.query)
        #expect(pairs(url.fragmentParameters) == callback.fragment)
        for parameter in url.queryParameters {
            #expect(try url.queryParameters.value(named: parameter.name) == parameter.value, "no duplicates in \(callback.source)")
        }
        #expect(try Components(CallbackURL(parsing: url.serialized)) == Components(url))
    }
}
