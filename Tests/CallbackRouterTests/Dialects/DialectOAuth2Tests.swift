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

/// OAuth 2.0 / OpenID Connect authorization code responses (RFC 6749 §4.1.2, RFC 9207),
/// in the shapes real clients receive them.
@Suite struct DialectOAuth2Tests {
    static let accepted: [Accepted] = [
        Accepted(
            source: "AppAuth-iOS example redirect (com.example.app:/oauth2redirect)",
            url: "com.example.app:/oauth2redirect?code=4/P7q7W91a-oMsCeLvIaQm6bTrgtp7&state=xcoiv98y2kd22vusuye3kch",
            dialect: .oauth2, kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "4/P7q7W91a-oMsCeLvIaQm6bTrgtp7"), Pair("state", "xcoiv98y2kd22vusuye3kch")]),
        Accepted(
            source: "Auth0.swift custom-scheme callback (seed 004)",
            url: "com.example.app://example.us.auth0.com/ios/com.example.app/callback?code=6hPhnk2jAybMZ7Nq&state=u7OKr1xUJpQCS9v4",
            kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "6hPhnk2jAybMZ7Nq"), Pair("state", "u7OKr1xUJpQCS9v4")]),
        Accepted(
            source: "Auth0 universal-link callback",
            url: "https://example.us.auth0.com/ios/com.example.app/callback?code=6hPhnk2jAybMZ7Nq&state=u7OKr1xUJpQCS9v4",
            kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "6hPhnk2jAybMZ7Nq"), Pair("state", "u7OKr1xUJpQCS9v4")]),
        Accepted(
            source: "seed 004 manual flow (auth0test1://test), state before code",
            url: "auth0test1://test?state=Zg3n4Q&code=AUTHORIZATION_CODE",
            dialect: .oauth2, kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "AUTHORIZATION_CODE"), Pair("state", "Zg3n4Q")]),
        Accepted(
            source: "Google installed-app redirect with its extra parameters",
            url:
                "com.googleusercontent.apps.1234-abc:/oauth2redirect?state=s1&code=4/0AeaYSHB&scope=email%20openid%20https://www.googleapis.com/auth/userinfo.email&authuser=0&prompt=consent",
            kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "4/0AeaYSHB"), Pair("state", "s1")],
            extra: [
                Pair("scope", "email openid https://www.googleapis.com/auth/userinfo.email"),
                Pair("authuser", "0"), Pair("prompt", "consent"),
            ]),
        Accepted(
            source: "Facebook appends #_=_",
            url: "fb1234567890://authorize/?code=AQDx&state=abc#_=_",
            kind: .authorizationCode, decided: .oauth2, fields: [Pair("code", "AQDx"), Pair("state", "abc")]),
        Accepted(
            source: "RFC 9207 §2.1 response with iss",
            url:
                "https://client.example/cb?code=x1848ZT64p4IirMPT0R-X3141MFPTuBX-VFL_cvaplMH58&state=ZWVlNDBlYzA1NjdkMDNhYjg3ZjUxZjAyNGQzMTM2NzI&iss=https%3A%2F%2Fhonest.as.example",
            kind: .authorizationCode, decided: .oauth2,
            fields: [
                Pair("code", "x1848ZT64p4IirMPT0R-X3141MFPTuBX-VFL_cvaplMH58"),
                Pair("state", "ZWVlNDBlYzA1NjdkMDNhYjg3ZjUxZjAyNGQzMTM2NzI"),
                Pair("iss", "https://honest.as.example"),
            ]),
        Accepted(
            source: "RFC 8252 loopback redirect on an ephemeral port",
            url: "http://127.0.0.1:49152/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj",
            kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "SplxlOBeZQQYbYS6WxSbIA"), Pair("state", "af0ifjsldkj")]),
        Accepted(
            source: "response_mode=fragment",
            url: "com.example.app:/oauth2redirect#code=SplxlOBe&state=af0",
            dialect: .oauth2, mode: .fragment, kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "SplxlOBe"), Pair("state", "af0")]),
        Accepted(
            source: "a code without state (the route does not expect one)",
            url: "myapp://cb?code=abc", dialect: .oauth2, kind: .authorizationCode, decided: .oauth2,
            fields: [Pair("code", "abc")]),
    ]

    @Test(arguments: accepted)
    func readsTheAuthorizationCode(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    static let refused: [Refused] = [
        Refused(
            source: "no code", url: "com.example.app:/oauth2redirect?state=s", dialect: .oauth2, reason: .missingParameter, offset: nil),
        Refused(source: "only extras", url: "com.example.app:/oauth2redirect?scope=openid", dialect: .oauth2, reason: .missingParameter),
        Refused(source: "no query at all", url: "com.example.app:/oauth2redirect", dialect: .oauth2, reason: .missingParameter),
        Refused(
            source: "implicit grant (response_type=token)",
            url: "com.example.app:/oauth2redirect#access_token=2YotnFZFEjr1zCsicMWpAA&state=xyz&token_type=example&expires_in=3600",
            dialect: .oauth2, reason: .implicitGrantNotSupported),
    ]

    @Test(arguments: refused)
    func refusesWhatIsNotAnAuthorizationCode(_ testCase: Refused) {
        expectRefused(testCase)
    }

    @Test func exposesTypedAccessors() throws {
        let outcome = try classify("myapp://cb?code=c1&state=s1&iss=https://as.example", .oauth2)
        #expect(outcome.code == "c1")
        #expect(outcome.state == "s1")
        #expect(outcome.issuer == "https://as.example")
        #expect(outcome.value("code") == "c1")
        #expect(outcome.value("challenge_token") == nil)
        #expect(outcome.error == nil)
        #expect(!outcome.kind.isProviderFailure)
    }

    @Test func otherDialectsParametersAreExtrasWhenTheDialectIsNamed() throws {
        let outcome = try classify("myapp://cb?code=c1&challenge_token=\(preludeToken("t"))", .oauth2)
        #expect(outcome.extra.map { Pair($0.name, $0.value) } == [Pair("challenge_token", "\(preludeToken("t"))")])
    }
}
