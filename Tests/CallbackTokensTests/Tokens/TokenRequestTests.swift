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
@testable import CallbackTokens

/// Token requests (RFC 6749 §4.1.3, §6; RFC 7636 §4.5) built from a router's delivery.
@Suite struct TokenRequestTests {
    static let endpoint = "https://op.example.com/oauth/token"

    /// A router with a native OAuth route, a loopback route and a Prelude route, and a
    /// delivery of `callback` on the route `route`.
    static func delivery(_ query: (String) -> String = { "code=SplxlOBeZQQYbYS6WxSbIA&state=\($0)" }, route: RouteID = "op")
        throws -> Delivery
    {
        var builder = RouterBuilder()
        builder.add(Route("op", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        builder.add(Route("loopback", redirectURI: try RedirectURI("http://127.0.0.1/callback"), dialect: .oauth2))
        builder.add(
            Route("prelude", redirectURI: try RedirectURI("myapp://oauth-callback", policy: .customSchemeOnly), dialect: .prelude))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: route)
        let base =
            switch route {
            case "loopback": "http://127.0.0.1:49152/callback"
            case "prelude": "myapp://oauth-callback"
            default: "com.example.app:/oauth2redirect"
            }
        return try router.handle(base + "?" + query(attempt.state))
    }

    static func form(_ request: TokenRequest) -> [[String]] {
        let url = try? CallbackURL(parsing: "x:/?" + String(decoding: request.body, as: UTF8.self))
        return url?.queryParameters.map { [$0.name, $0.value] } ?? []
    }

    @Test func aPublicClientSendsTheCodeRedirectURIVerifierAndClientID() throws {
        let delivery = try Self.delivery()
        let request = try TokenRequest.authorizationCode(
            for: delivery, redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: Self.endpoint, clientID: "s6BhdRkqt3")
        #expect(request.method == "POST")
        #expect(request.url == Self.endpoint)
        #expect(
            Self.form(request) == [
                ["grant_type", "authorization_code"], ["code", "SplxlOBeZQQYbYS6WxSbIA"],
                ["redirect_uri", "com.example.app:/oauth2redirect"], ["code_verifier", delivery.attempt.pkce.verifier],
                ["client_id", "s6BhdRkqt3"],
            ])
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA&redirect_uri=com.example.app%3A%2Foauth2redirect"
                + "&code_verifier=\(delivery.attempt.pkce.verifier)&client_id=s6BhdRkqt3")
        #expect(request.headers.map(\.name) == ["Content-Type", "Accept"])
        #expect(request.header("content-type") == "application/x-www-form-urlencoded")
        #expect(request.header("ACCEPT") == "application/json")
        #expect(request.header("Authorization") == nil)
    }

    @Test func theLoopbackRedirectURIIsSentWithItsPort() throws {
        let delivery = try Self.delivery(route: "loopback")
        let request = try TokenRequest.authorizationCode(
            for: delivery, redirectURI: "http://127.0.0.1:49152/callback", tokenEndpoint: Self.endpoint, clientID: "cli")
        #expect(Self.form(request)[2] == ["redirect_uri", "http://127.0.0.1:49152/callback"])
    }

    /// RFC 6749 §2.3.1: the id and the secret are form-urlencoded before base64. The RFC's
    /// own example credentials, then ones with every character class that changes.
    @Test(arguments: [
        ("s6BhdRkqt3", "7Fjfp0ZBr1KtDRbnfVdmIw", "czZCaGRSa3F0Mzo3RmpmcDBaQnIxS3REUmJuZlZkbUl3"),
        // "a+b%2Fc:d e~" → "a%2Bb%252Fc%3Ad+e%7E", id "id:1" → "id%3A1"
        ("id:1", "a+b%2Fc:d e~", "aWQlM0ExOmElMkJiJTI1MkZjJTNBZCtlJTdF"),
    ])
    func clientSecretBasicFormEncodesBeforeBase64(_ id: String, _ secret: String, _ expected: String) throws {
        let request = try TokenRequest.authorizationCode(
            for: try Self.delivery(), redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: Self.endpoint, clientID: id,
            authentication: .clientSecretBasic(secret))
        #expect(request.header("Authorization") == "Basic " + expected)
        #expect(!Self.form(request).contains { $0[0] == "client_id" || $0[0] == "client_secret" })
    }

    @Test func clientSecretPostPutsIDAndSecretInTheBody() throws {
        let request = try TokenRequest.authorizationCode(
            for: try Self.delivery(), redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: Self.endpoint,
            clientID: "s6BhdRkqt3", authentication: .clientSecretPost("a b&c=d"))
        #expect(Array(Self.form(request).suffix(2)) == [["client_id", "s6BhdRkqt3"], ["client_secret", "a b&c=d"]])
        #expect(String(decoding: request.body, as: UTF8.self).hasSuffix("&client_secret=a+b%26c%3Dd"))
        #expect(request.header("Authorization") == nil)
    }

    @Test func aRefreshRequestCarriesTheRefreshTokenAndScope() throws {
        let request = try TokenRequest.refresh(
            "tGzv3JOkF0XG5Qx2TlKWIA", tokenEndpoint: Self.endpoint, clientID: "cli", scope: "openid email")
        #expect(
            Self.form(request) == [
                ["grant_type", "refresh_token"], ["refresh_token", "tGzv3JOkF0XG5Qx2TlKWIA"], ["scope", "openid email"],
                ["client_id", "cli"],
            ])
        expectRefusal(.invalidConfiguration) { try TokenRequest.refresh("", tokenEndpoint: Self.endpoint, clientID: "cli") }
        expectRefusal(.invalidConfiguration) {
            try TokenRequest.refresh("t", tokenEndpoint: Self.endpoint, clientID: "cli", scope: "a  b")
        }
    }

    @Test func aDeliveryThatIsNotAnAuthorizationCodeIsRefused() throws {
        let prelude = try Self.delivery({ _ in "challenge_token=\(preludeToken("abc"))" }, route: "prelude")
        expectRefusal(.invalidConfiguration) {
            try TokenRequest.authorizationCode(
                for: prelude, redirectURI: "myapp://oauth-callback", tokenEndpoint: Self.endpoint, clientID: "cli")
        }
        let error = try Self.delivery { "error=access_denied&state=\($0)" }
        expectRefusal(.invalidConfiguration) {
            try TokenRequest.authorizationCode(
                for: error, redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: Self.endpoint, clientID: "cli")
        }
    }

    @Test func aRedirectURIThatIsNotTheAttemptsIsRefused() throws {
        let delivery = try Self.delivery()
        expectRefusal(.redirectURIMismatch) {
            try TokenRequest.authorizationCode(
                for: delivery, redirectURI: "com.evil.app:/oauth2redirect", tokenEndpoint: Self.endpoint, clientID: "cli")
        }
    }

    @Test(arguments: [
        "http://op.example.com/token", "http://127.0.0.1:8080/token", "ftp://op.example.com/token",
        "https://user@op.example.com/token", "https://op.example.com/token#f", "https:///token", "not a url",
    ])
    func anEndpointThatIsNotHTTPSIsRefused(_ endpoint: String) throws {
        let delivery = try Self.delivery()
        expectRefusal(.invalidConfiguration) {
            try TokenRequest.authorizationCode(
                for: delivery, redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: endpoint, clientID: "cli")
        }
    }

    @Test func loopbackHTTPOnlyWhenExplicitlyAllowed() throws {
        let request = try TokenRequest.refresh(
            "t", tokenEndpoint: "http://127.0.0.1:8080/token", clientID: "cli", allowingLoopbackHTTP: true)
        #expect(request.url == "http://127.0.0.1:8080/token")
        expectRefusal(.invalidConfiguration) {
            try TokenRequest.refresh("t", tokenEndpoint: "http://localhost:8080/token", clientID: "cli", allowingLoopbackHTTP: true)
        }
        expectRefusal(.invalidConfiguration) {
            try TokenRequest.refresh("t", tokenEndpoint: "http://10.0.0.1/token", clientID: "cli", allowingLoopbackHTTP: true)
        }
    }

    @Test func descriptionsShowNoSecret() throws {
        let delivery = try Self.delivery()
        let secret = "client-secret-value-1234"
        for authentication in [ClientAuthentication.none, .clientSecretBasic(secret), .clientSecretPost(secret)] {
            let request = try TokenRequest.authorizationCode(
                for: delivery, redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: Self.endpoint, clientID: "cli",
                authentication: authentication)
            var dumped = ""
            dump(request, to: &dumped)
            var dumpedAuthentication = ""
            dump(authentication, to: &dumpedAuthentication)
            let basic = request.header("Authorization").map { String($0.dropFirst(6)) }
            for text in [request.description, request.debugDescription, dumped, authentication.description, dumpedAuthentication] {
                for value in ["SplxlOBeZQQYbYS6WxSbIA", delivery.attempt.pkce.verifier, secret] + (basic.map { [$0] } ?? []) {
                    #expect(!text.contains(value), "\(text)")
                }
            }
        }
    }

    /// Every way Swift renders a value: print, dump, String(describing:),
    /// String(reflecting:), interpolation.
    static func renderings(_ value: Any) -> [String] {
        var printed = "", dumped = ""
        print(value, to: &printed)
        dump(value, to: &dumped)
        return [printed, dumped, String(describing: value), String(reflecting: value), "\(value)"]
    }

    @Test func everyRenderingOfARequestAndItsHeadersShowsNoSecret() throws {
        let delivery = try Self.delivery()
        let secret = "client-secret-value-1234"
        let refreshToken = "RT-tGzv3JOkF0XG5Qx2TlKWIA"
        for authentication in [ClientAuthentication.none, .clientSecretBasic(secret), .clientSecretPost(secret)] {
            let requests = [
                try TokenRequest.authorizationCode(
                    for: delivery, redirectURI: "com.example.app:/oauth2redirect", tokenEndpoint: Self.endpoint, clientID: "cli",
                    authentication: authentication),
                try TokenRequest.refresh(refreshToken, tokenEndpoint: Self.endpoint, clientID: "cli", authentication: authentication),
            ]
            for request in requests {
                let credentials = request.header("Authorization").map { [$0, String($0.dropFirst(6))] } ?? []
                let values: [Any] = [request, request.headers, authentication] + request.headers.map { $0 as Any }
                for text in values.flatMap(Self.renderings) {
                    for value in ["SplxlOBeZQQYbYS6WxSbIA", delivery.attempt.pkce.verifier, secret, refreshToken] + credentials {
                        #expect(!text.contains(value), "\(text)")
                    }
                }
                if authentication.methodName == "client_secret_basic" {
                    // The transport still gets the real value.
                    let real = "Basic " + Base64.encode(Array("cli:\(secret)".utf8))
                    #expect(request.header("authorization") == real)
                    #expect(request.headers.last?.value == real)
                    #expect(String(describing: request.headers.last!) == "Authorization: <redacted, \(real.utf8.count) bytes>")
                    #expect(Self.renderings(request.headers).allSatisfy { $0.contains("<redacted, \(real.utf8.count) bytes>") })
                }
                #expect(String(describing: request.headers.first!) == "Content-Type: application/x-www-form-urlencoded")
            }
        }
    }
}
