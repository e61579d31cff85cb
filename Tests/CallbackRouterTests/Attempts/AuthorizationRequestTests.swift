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
import TestVectorSupport
@testable import CallbackRouter

@Suite struct AuthorizationRequestTests {
    static let endpoint = "https://example.auth0.com/authorize"
    static let rfcPKCE: PKCE = {
        // RFC 7636 Appendix B's verifier; known valid, so the fallback is never taken.
        (try? PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")) ?? PKCE()
    }()

    static func request(
        endpoint: String = endpoint, clientID: String = "abc123",
        redirectURI: String = "com.example.app:/oauth2redirect", scope: String? = "openid",
        state: String = "af0ifjsldkj", nonce: String? = "n-0S6_WzA2Mj",
        extra: [(String, String)] = []
    ) throws(CallbackError) -> AuthorizationRequest {
        try AuthorizationRequest(
            endpoint: endpoint, clientID: clientID, redirectURI: redirectURI, scope: scope,
            state: state, pkce: rfcPKCE, nonce: nonce, extraParameters: extra)
    }

    /// What the Auth0 seed builds by hand with URLComponents, with our encoding.
    @Test func buildsTheAuth0SeedRequest() throws {
        let request = try AuthorizationRequest(
            endpoint: Self.endpoint, clientID: "iV2lnrgSBw64uzf1x0MN3svQTYQYcBl2", redirectURI: "auth0test1://test",
            scope: "openid profile", state: "af0ifjsldkj", pkce: Self.rfcPKCE, nonce: "n-0S6_WzA2Mj")
        #expect(
            request.url == "https://example.auth0.com/authorize?response_type=code"
                + "&client_id=iV2lnrgSBw64uzf1x0MN3svQTYQYcBl2&redirect_uri=auth0test1%3A%2F%2Ftest"
                + "&scope=openid%20profile&state=af0ifjsldkj&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
                + "&code_challenge_method=S256&nonce=n-0S6_WzA2Mj")
    }

    @Test func sendsTheParametersInOrderAndDecodesBackToThem() throws {
        let request = try Self.request(extra: [("audience", "https://api.example.com"), ("prompt", "login")])
        let url = try CallbackURL(parsing: request.url)
        #expect(
            url.queryParameters.names == [
                "response_type", "client_id", "redirect_uri", "scope", "state",
                "code_challenge", "code_challenge_method", "nonce", "audience", "prompt",
            ])
        #expect(Array(url.queryParameters) == request.parameters)
        let query = url.queryParameters
        #expect(try query.value(named: "response_type") == "code")
        #expect(try query.value(named: "redirect_uri") == "com.example.app:/oauth2redirect")
        #expect(try query.value(named: "code_challenge") == Self.rfcPKCE.challenge)
        #expect(try query.value(named: "code_challenge_method") == "S256")
        #expect(try query.value(named: "audience") == "https://api.example.com")
        #expect(request.state == "af0ifjsldkj")
        #expect(request.nonce == "n-0S6_WzA2Mj")
    }

    @Test func leavesOutANilScopeAndANilNonce() throws {
        let request = try Self.request(scope: nil, nonce: nil)
        let names = try CallbackURL(parsing: request.url).queryParameters.names
        #expect(!names.contains("scope"))
        #expect(!names.contains("nonce"))
        #expect(names.contains("state"))
    }

    @Test func buildsFromAttemptSecrets() throws {
        let secrets = AttemptSecrets()
        let request = try AuthorizationRequest(
            endpoint: Self.endpoint, clientID: "abc", redirectURI: "myapp://cb",
            secrets: secrets)
        let query = try CallbackURL(parsing: request.url).queryParameters
        #expect(try query.value(named: "state") == secrets.state)
        #expect(try query.value(named: "nonce") == secrets.nonce)
        #expect(try query.value(named: "code_challenge") == secrets.pkce.challenge)
        #expect(try query.value(named: "scope") == "openid")

        let withoutNonce = try AuthorizationRequest(
            endpoint: Self.endpoint, clientID: "abc", redirectURI: "myapp://cb",
            secrets: secrets, includeNonce: false)
        #expect(try !CallbackURL(parsing: withoutNonce.url).queryParameters.contains(named: "nonce"))
    }

    @Test(arguments: [
        (
            "https://example.auth0.com/authorize?connection=github",
            "https://example.auth0.com/authorize?connection=github&response_type=code"
        ),
        ("https://example.auth0.com/authorize?", "https://example.auth0.com/authorize?response_type=code"),
        ("https://example.auth0.com/authorize?a=1&", "https://example.auth0.com/authorize?a=1&response_type=code"),
        ("https://EXAMPLE.auth0.com:8443/authorize", "https://example.auth0.com:8443/authorize?response_type=code"),
        ("http://127.0.0.1:8080/authorize", "http://127.0.0.1:8080/authorize?response_type=code"),
        ("http://[::1]/authorize", "http://[::1]/authorize?response_type=code"),
        ("https://login.example.com", "https://login.example.com?response_type=code"),
    ])
    func keepsTheEndpointAndItsOwnQuery(endpoint: String, prefix: String) throws {
        let request = try Self.request(endpoint: endpoint)
        #expect(request.url.hasPrefix(prefix + "&client_id="), "\(request.url)")
    }

    @Test(arguments: [
        "http://example.com/authorize", // http to a remote host
        "http://localhost/authorize", // localhost is a name, not a loopback literal
        "http://10.0.0.1/authorize",
        "ftp://example.com/authorize",
        "myapp://authorize",
        "https:///authorize", // empty host
        "https:/authorize", // no authority
        "https://user:pw@example.com/authorize", // userinfo
        "https://example.com/authorize#x", // fragment
        "https://example.com/authorize#", // an empty fragment is still a fragment
        "example.com/authorize", // relative
        "https://exa mple.com/authorize",
        "",
        "https://example.com/authorize?state=fixed", // would be sent twice
        "https://example.com/authorize?client_id=other",
        "https://example.com/authorize?code_challenge_method=plain",
        "https://example.com/authorize?st%61te=fixed", // names are compared decoded
    ])
    func refusesBadEndpoints(endpoint: String) {
        expectRefusal(.invalidConfiguration) { try Self.request(endpoint: endpoint) }
        do { _ = try Self.request(endpoint: endpoint) } catch {
            #expect(error.reason == .invalidConfiguration)
            #expect(!error.detail.contains("af0ifjsldkj"))
        }
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd",
        "vbscript:msgbox", "about:blank", "blob:https://example.com/0f8c", "urn:ietf:wg:oauth:2.0:oob",
        "com.example.app:/cb#frag", "myapp://cb#", "https://user@app.example.com/cb",
        "/oauth2redirect", "oauth2redirect", "", "https:///cb", "https:/cb", "myapp://c b",
        "com.example.app:/cb?state=fixed", "com.example.app:/cb?code=x", "myapp://cb?a=1&a=2",
    ])
    func refusesBadRedirectURIs(redirectURI: String) {
        expectRefusal(.invalidConfiguration) { try Self.request(redirectURI: redirectURI) }
        if redirectURI.hasPrefix("urn:") || redirectURI.lowercased().hasPrefix("javascript:") {
            // The scheme rules every policy shares, named as RedirectURI names them.
            let error = refusal { _ = try Self.request(redirectURI: redirectURI) }
            #expect(error?.detail.contains(redirectURI.hasPrefix("urn:") ? "rule not_a_location:" : "rule forbidden_scheme:") == true)
        }
        do { _ = try Self.request(redirectURI: redirectURI) } catch {
            #expect(error.reason == .invalidConfiguration)
        }
    }

    @Test(arguments: [
        "com.example.app:/oauth2redirect", "myapp://oauth-callback", "http://127.0.0.1:49152/callback",
        "http://[::1]:8400/cb", "https://app.example.com/cb?tenant=a%2Bb&x=1", "auth0test1://test",
    ])
    func sendsGoodRedirectURIsVerbatim(redirectURI: String) throws {
        let request = try Self.request(redirectURI: redirectURI)
        #expect(try CallbackURL(parsing: request.url).queryParameters.value(named: "redirect_uri") == redirectURI)
    }

    @Test(arguments: AuthorizationRequest.reservedParameterNames.sorted())
    func refusesExtraParametersThatOverrideTheRequest(name: String) {
        expectRefusal(.invalidConfiguration) { try Self.request(extra: [(name, "x")]) }
    }

    @Test func reservesExactlyTheParametersTheRequestSets() throws {
        let names = try CallbackURL(parsing: Self.request().url).queryParameters.names
        #expect(Set(names) == AuthorizationRequest.reservedParameterNames)
    }

    @Test func refusesDuplicatedOrEmptyExtraParameters() {
        expectRefusal(.invalidConfiguration) { try Self.request(extra: [("prompt", "login"), ("prompt", "none")]) }
        expectRefusal(.invalidConfiguration) { try Self.request(extra: [("", "x")]) }
        expectRefusal(.invalidConfiguration) {
            try Self.request(endpoint: Self.endpoint + "?audience=a", extra: [("audience", "b")])
        }
    }

    /// RFC 8707 §2: several `resource` parameters are allowed.
    @Test func allowsRepeatedResourceIndicators() throws {
        let request = try Self.request(
            endpoint: Self.endpoint + "?resource=https%3A%2F%2Fa.example",
            extra: [("resource", "https://b.example"), ("resource", "https://c.example")])
        #expect(
            try CallbackURL(parsing: request.url).queryParameters.values(named: "resource")
                == ["https://a.example", "https://b.example", "https://c.example"])
    }

    @Test(arguments: ["openid", "openid profile email", "openid offline_access https://api.example.com/read", "a!#[]~"])
    func acceptsScopesOfRFC6749(scope: String) throws {
        let request = try Self.request(scope: scope)
        #expect(try CallbackURL(parsing: request.url).queryParameters.value(named: "scope") == scope)
    }

    @Test(arguments: ["", " openid", "openid ", "openid  profile", "open\"id", "open\\id", "openid\tprofile", "é"])
    func refusesScopesOutsideRFC6749(scope: String) {
        expectRefusal(.invalidConfiguration) { try Self.request(scope: scope) }
    }

    @Test func checksClientIDStateAndNonce() {
        expectRefusal(.invalidConfiguration) { try Self.request(clientID: "") }
        expectRefusal(.invalidConfiguration) { try Self.request(clientID: "a\nb") }
        expectRefusal(.invalidConfiguration) { try Self.request(clientID: "clïent") }
        expectRefusal(.invalidConfiguration) { try Self.request(state: "") }
        expectRefusal(.invalidConfiguration) { try Self.request(state: String(repeating: "s", count: 513)) }
        expectRefusal(.invalidConfiguration) { try Self.request(nonce: "") }
        expectRefusal(.invalidConfiguration) { try Self.request(nonce: "a\u{0}b") }
        #expect(throws: Never.self) { try Self.request(clientID: "client id with spaces & symbols=+") }
    }

    /// A state is the client's opaque value: any characters go out percent-encoded as
    /// UTF-8 and our parser reads back exactly the state sent.
    @Test(arguments: ["état-✓-東京", "a\u{0}b", "line\nbreak", "a+b c&d=e#f"])
    func sendsAStateWhateverItsCharacters(state: String) throws {
        let request = try Self.request(state: state)
        #expect(request.state == state)
        #expect(try CallbackURL(parsing: request.url).queryParameters.value(named: "state") == state)
    }

    /// A request our own parser would refuse is refused when it is built.
    @Test func refusesRequestsBeyondTheParsingLimits() {
        expectRefusal(.invalidConfiguration) { try Self.request(extra: [("login_hint", String(repeating: "x", count: 17_000))]) }
        let many = (0 ..< 57).map { ("p\($0)", "v") } // 8 + 57 = 65 > 64 parameters
        expectRefusal(.invalidConfiguration) { try Self.request(extra: many) }
        #expect(throws: Never.self) { try Self.request(extra: Array(many.dropLast())) }
    }

    /// `+` stays a plus and a space is %20: the disagreement between form decoding and
    /// RFC 3986 decoding never arises.
    @Test func encodesPlusAndSpaceUnambiguously() throws {
        let request = try Self.request(extra: [("login_hint", "a+b c")])
        #expect(request.url.hasSuffix("&login_hint=a%2Bb%20c"))
        #expect(try CallbackURL(parsing: request.url).queryParameters.value(named: "login_hint") == "a+b c")
    }

    /// The property: for generated client ids, redirect URIs, scopes, states, nonces and
    /// extra parameters full of separators, `%`, `+`, spaces, non-ASCII and emoji, our
    /// parser reads back exactly the values put in, and nothing else.
    @Test func ourParserDecodesEveryBuiltURLBackToItsValues() throws {
        var generator = SplitMix64(propertyTest: "ourParserDecodesEveryBuiltURLBackToItsValues", defaultSeed: 0x7636)
        let replay = generator.replay
        print("AuthorizationRequestTests: \(replay)")
        let vschar = Array(" !\"#$%&'()*+,-./0123456789:;<=>?@AZ[\\]^_`az{|}~")
        let anything = [
            " ", "+", "&", "=", "#", "%", "%20", "%2B", "?", "/", ";", "\\", "a", "Z", "9", "~",
            "é", "ß", "中文", "😀", "👩‍👩‍👧", "e\u{301}", "\u{0}", "\n", "\u{202E}", "[", "]", "'", "\"",
        ]
        let redirectURIs = [
            "com.example.app:/oauth2redirect", "myapp://cb?a=1&b=2", "http://127.0.0.1:8400/cb?x=a+b&y=%2B",
            "https://app.example.com/cb;p?q=%26", "x-app:cb/%F0%9F%98%80",
        ]
        func vscharText(_ range: ClosedRange<Int>) -> String {
            String((0 ..< Int.random(in: range, using: &generator)).map { _ in vschar.randomElement(using: &generator) ?? "a" })
        }
        func anyText(_ range: ClosedRange<Int>) -> String {
            (0 ..< Int.random(in: range, using: &generator)).map { _ in anything.randomElement(using: &generator) ?? "" }.joined()
        }
        var cases = 0
        for _ in 0 ..< 300 {
            let clientID = vscharText(1 ... 20)
            let state = vscharText(1 ... 30)
            let nonce = vscharText(1 ... 30)
            let scopeTokens = (0 ..< Int.random(in: 1 ... 3, using: &generator)).map { _ in
                vscharText(1 ... 8).filter { $0 != " " && $0 != "\"" && $0 != "\\" }
            }.filter { !$0.isEmpty }
            let scope = scopeTokens.isEmpty ? "openid" : scopeTokens.joined(separator: " ")
            let extra = (0 ..< Int.random(in: 0 ... 4, using: &generator)).map { index in
                ("x\(index)" + anyText(0 ... 3), anyText(0 ... 6))
            }
            let endpointQuery = Bool.random(using: &generator) ? "?connection=github&tenant=a%26b" : ""
            let request = try #require(
                try? AuthorizationRequest(
                    endpoint: Self.endpoint + endpointQuery, clientID: clientID,
                    redirectURI: redirectURIs.randomElement(using: &generator) ?? "myapp://cb", scope: scope,
                    state: state, pkce: PKCE(), nonce: nonce, extraParameters: extra), "\(replay)")

            let decoded = Array(try #require(try? CallbackURL(parsing: request.url), "\(replay)").queryParameters)
            let expectedEndpoint =
                endpointQuery.isEmpty
                ? []
                : [
                    Parameter(name: "connection", value: "github"),
                    Parameter(name: "tenant", value: "a&b"),
                ]
            #expect(decoded == expectedEndpoint + request.parameters, "\(replay)")
            #expect(
                request.parameters.map(\.value) == [
                    "code", clientID, request.parameters[2].value, scope, state,
                    request.pkce.challenge, "S256", nonce,
                ] + extra.map(\.1), "\(replay)")
            #expect(request.parameters.suffix(extra.count).map(\.name) == extra.map(\.0), "\(replay)")
            cases += 1
        }
        #expect(cases == 300)
    }

    @Test func descriptionsRedactSecretsButShowTheSetting() throws {
        let request = try Self.request(extra: [("login_hint", "alice@example.com")])
        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, request.debugDescription, "\(request)", dumped] {
            for secret in ["af0ifjsldkj", "n-0S6_WzA2Mj", Self.rfcPKCE.challenge, Self.rfcPKCE.verifier, "alice@example.com"] {
                #expect(!text.contains(secret), "\(text)")
            }
            #expect(text.contains("example.auth0.com/authorize"))
            #expect(text.contains("client_id: abc123"))
            #expect(text.contains("state: <redacted, 11 bytes>"))
        }
    }
}
