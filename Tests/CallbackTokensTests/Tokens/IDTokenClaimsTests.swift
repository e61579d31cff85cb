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

/// The ID token checks of OpenID Connect Core §3.1.3.7, each refusal with its reason code.
@Suite struct IDTokenClaimsTests {
    static let issuer = "https://op.example.com"
    static let clientID = "s6BhdRkqt3"
    /// ManualAttemptClock's default calendar time: 2026-01-01T00:00:00Z.
    static let now: Int64 = 1_767_225_600
    static let code = "SplxlOBeZQQYbYS6WxSbIA"
    static let accessToken = "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y"

    static func jwt(header: String = #"{"alg":"RS256","kid":"1"}"#, _ payload: String) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2lnbmF0dXJl"
    }

    static func halfHash(_ value: String) -> String { Base64URL.encode(SHA256.hash(value.utf8).prefix(16)) }

    /// A delivery of a login, and a payload with every required claim right, to spoil one at a time.
    static func fixture() throws -> (Delivery, [String: String]) {
        let delivery = try TokenRequestTests.delivery()
        let claims: [String: String] = [
            "iss": #""\#(issuer)""#, "sub": #""248289761001""#, "aud": #""\#(clientID)""#, "exp": String(now + 600),
            "iat": String(now - 5), "nonce": #""\#(delivery.attempt.nonce)""#,
        ]
        return (delivery, claims)
    }

    static func payload(_ claims: [String: String]) -> String {
        "{" + claims.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
    }

    static func check(
        _ idToken: String, delivery: Delivery, accessToken: String = accessToken, skew: Duration = TokenSet.defaultMaxClockSkew,
        advance: Duration = .zero, algorithms: [String] = TokenSet.defaultSigningAlgorithms,
        maxIssuedAtAge: Duration = TokenSet.defaultMaxIssuedAtAge
    ) throws -> IDTokenClaims {
        let body = #"{"access_token":"\#(accessToken)","token_type":"Bearer","id_token":"\#(idToken)"}"#
        guard case .tokens(let tokens) = try TokenResponse(status: 200, body: Array(body.utf8)) else {
            throw CallbackError(.invalidParameter, "no tokens")
        }
        let clock = ManualAttemptClock()
        clock.advance(by: advance)
        return try tokens.checkIDToken(
            for: delivery, clientID: clientID, issuer: issuer, signingAlgorithms: algorithms, maxClockSkew: skew,
            maxIssuedAtAge: maxIssuedAtAge, clock: clock)
    }

    @Test func acceptsAGenuineIDTokenAndReturnsItsClaims() throws {
        var (delivery, claims) = try Self.fixture()
        claims["email"] = #""a@example.com""#
        claims["at_hash"] = #""\#(Self.halfHash(Self.accessToken))""#
        claims["c_hash"] = #""\#(Self.halfHash(Self.code))""#
        let checked = try Self.check(Self.jwt(Self.payload(claims)), delivery: delivery)
        #expect(checked.issuer == Self.issuer)
        #expect(checked.subject == "248289761001")
        #expect(checked.audience == [Self.clientID])
        #expect(checked.expiresAt == Self.now + 600)
        #expect(checked.issuedAt == Self.now - 5)
        #expect(checked.algorithm == "RS256")
        #expect(checked.accessTokenHashChecked)
        #expect(checked.codeHashChecked)
        #expect(checked.stringClaim("email") == "a@example.com")
        #expect(!checked.description.contains("248289761001"))
        #expect(!checked.description.contains(delivery.attempt.nonce))
    }

    /// OIDC Core §3.3.2.11's own example: at_hash of this access token with RS256.
    @Test func atHashMatchesTheSpecsExample() {
        #expect(Self.halfHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y") == "77QmUPtjPfzWtF2AnpK9RQ")
    }

    struct Spoiled: CustomTestStringConvertible, Sendable {
        let name: String
        let change: @Sendable (inout [String: String]) -> Void
        let reason: ReasonCode
        var testDescription: String { name }
    }

    static let spoiled: [Spoiled] = [
        Spoiled(name: "another issuer", change: { $0["iss"] = #""https://evil.example.com""# }, reason: .issuerMismatch),
        Spoiled(name: "issuer with a trailing slash", change: { $0["iss"] = #""https://op.example.com/""# }, reason: .issuerMismatch),
        Spoiled(name: "no issuer", change: { $0["iss"] = nil }, reason: .issuerMissing),
        Spoiled(name: "no sub", change: { $0["sub"] = nil }, reason: .missingParameter),
        Spoiled(name: "another audience", change: { $0["aud"] = #""other-client""# }, reason: .audienceMismatch),
        Spoiled(name: "no audience", change: { $0["aud"] = nil }, reason: .audienceMismatch),
        Spoiled(name: "audiences without azp", change: { $0["aud"] = #"["s6BhdRkqt3","api"]"# }, reason: .audienceMismatch),
        Spoiled(
            name: "azp of another client",
            change: {
                $0["aud"] = #"["s6BhdRkqt3","api"]"#
                $0["azp"] = #""api""#
            }, reason: .audienceMismatch),
        Spoiled(name: "expired", change: { $0["exp"] = String(now - 301) }, reason: .tokenExpired),
        Spoiled(name: "exp as a string", change: { $0["exp"] = #""1767226200""# }, reason: .invalidParameter),
        Spoiled(name: "exp with a fraction", change: { $0["exp"] = "1767226200.5" }, reason: .invalidParameter),
        Spoiled(name: "no exp", change: { $0["exp"] = nil }, reason: .missingParameter),
        Spoiled(name: "issued in the future", change: { $0["iat"] = String(now + 301) }, reason: .invalidParameter),
        Spoiled(name: "no iat", change: { $0["iat"] = nil }, reason: .missingParameter),
        Spoiled(name: "nbf in the future", change: { $0["nbf"] = String(now + 400) }, reason: .invalidParameter),
        Spoiled(name: "another nonce", change: { $0["nonce"] = #""n-0S6_WzA2Mj""# }, reason: .nonceMismatch),
        Spoiled(name: "no nonce", change: { $0["nonce"] = nil }, reason: .nonceMismatch),
        Spoiled(name: "a wrong at_hash", change: { $0["at_hash"] = #""LDktKdoQak3Pk0cnXxCltA""# }, reason: .tokenHashMismatch),
        Spoiled(name: "a wrong c_hash", change: { $0["c_hash"] = #""77QmUPtjPfzWtF2AnpK9RQ""# }, reason: .tokenHashMismatch),
    ]

    @Test(arguments: spoiled)
    func refusesASpoiledClaim(_ spoiled: Spoiled) throws {
        var (delivery, claims) = try Self.fixture()
        spoiled.change(&claims)
        expectRefusal(spoiled.reason) { try Self.check(Self.jwt(Self.payload(claims)), delivery: delivery) }
    }

    @Test func theSkewIsStatedAndInjectable() throws {
        var (delivery, claims) = try Self.fixture()
        claims["exp"] = String(Self.now - 200)
        claims["iat"] = String(Self.now + 200)
        #expect(throws: Never.self) { try Self.check(Self.jwt(Self.payload(claims)), delivery: delivery, skew: .seconds(300)) }
        expectRefusal(.tokenExpired) { try Self.check(Self.jwt(Self.payload(claims)), delivery: delivery, skew: .seconds(60)) }
        claims["exp"] = String(Self.now + 600)
        claims["iat"] = String(Self.now)
        expectRefusal(.tokenExpired) {
            try Self.check(Self.jwt(Self.payload(claims)), delivery: delivery, advance: .seconds(600 + 30))
        }
    }

    @Test(arguments: [
        (#"{"alg":"none"}"#, ReasonCode.unsupportedAlgorithm), (#"{"typ":"JWT"}"#, .unsupportedAlgorithm),
        (#"{"alg":"RS256","alg":"none"}"#, .duplicateParameter), (#"["RS256"]"#, .invalidParameter),
    ])
    func refusesAnUnsignedOrMalformedHeader(_ header: String, _ reason: ReasonCode) throws {
        let (delivery, claims) = try Self.fixture()
        expectRefusal(reason) { try Self.check(Self.jwt(header: header, Self.payload(claims)), delivery: delivery) }
    }

    @Test func aHashUnderAnAlgorithmWithoutSHA256IsRefusedNotSkipped() throws {
        var (delivery, claims) = try Self.fixture()
        #expect(throws: Never.self) {
            try Self.check(Self.jwt(header: #"{"alg":"RS384"}"#, Self.payload(claims)), delivery: delivery, algorithms: ["RS384"])
        }
        claims["at_hash"] = #""\#(Self.halfHash(Self.accessToken))""#
        let error = expectRefusal(.unsupportedAlgorithm) {
            try Self.check(Self.jwt(header: #"{"alg":"RS384"}"#, Self.payload(claims)), delivery: delivery, algorithms: ["RS384"])
        }
        #expect((error as? CallbackError)?.detail.contains("at_hash") == true)
    }

    @Test(arguments: ["a.b", "a.b.c.d", "", "!!.e30.x", "e30.!!.x", "e30.e30.x.y.z"])
    func refusesATokenThatIsNotACompactJWS(_ token: String) throws {
        let (delivery, _) = try Self.fixture()
        let error = expectRefusal(
            token.split(separator: ".", omittingEmptySubsequences: false).count == 5 ? .unsupportedAlgorithm : .invalidParameter
        ) {
            try Self.check(token.isEmpty ? "x" : token, delivery: delivery)
        }
        #expect(error != nil)
    }

    @Test func aResponseWithoutAnIDTokenIsMissingParameter() throws {
        let (delivery, _) = try Self.fixture()
        guard case .tokens(let tokens) = try TokenResponse(status: 200, body: Array(#"{"access_token":"a","token_type":"Bearer"}"#.utf8))
        else { return }
        expectRefusal(.missingParameter) {
            try tokens.checkIDToken(for: delivery, clientID: Self.clientID, issuer: Self.issuer, clock: ManualAttemptClock())
        }
    }
}

/// A refresh response's ID token (OIDC Core §12.2) against the one checked at login.
@Suite struct RefreshedIDTokenTests {
    typealias Base = IDTokenClaimsTests

    static func first() throws -> (IDTokenClaims, [String: String]) {
        var (delivery, claims) = try Base.fixture()
        claims["auth_time"] = String(Base.now - 60)
        let checked = try Base.check(Base.jwt(Base.payload(claims)), delivery: delivery)
        claims["nonce"] = nil
        return (checked, claims)
    }

    static func refreshed(_ claims: [String: String]?, previous: IDTokenClaims) throws -> IDTokenClaims? {
        let idToken = claims.map { #","id_token":""# + Base.jwt(Base.payload($0)) + #"""# } ?? ""
        let body = #"{"access_token":"new-access-token","token_type":"Bearer""# + idToken + "}"
        guard case .tokens(let tokens) = try TokenResponse(status: 200, body: Array(body.utf8)) else { return nil }
        return try tokens.checkRefreshedIDToken(previous: previous, clientID: Base.clientID, clock: ManualAttemptClock())
    }

    @Test func acceptsTheSameUserWithoutANonceAndReturnsNilWithoutAnIDToken() throws {
        let (first, claims) = try Self.first()
        #expect(try Self.refreshed(claims, previous: first)?.subject == first.subject)
        var withNonce = claims
        withNonce["nonce"] = #""\#(try #require(first.stringClaim("nonce")))""#
        #expect(try Self.refreshed(withNonce, previous: first) != nil)
        #expect(try Self.refreshed(nil, previous: first) == nil)
    }

    @Test(arguments: [
        ("sub", #""someone-else""#, ReasonCode.subjectMismatch), ("aud", #"["s6BhdRkqt3","api"]"#, .audienceMismatch),
        ("nonce", #""another-nonce""#, .nonceMismatch), ("iss", #""https://evil.example.com""#, .issuerMismatch),
        ("auth_time", "1767225000", .authTimeMismatch), ("c_hash", #""77QmUPtjPfzWtF2AnpK9RQ""#, .tokenHashMismatch),
        ("exp", "1767225000", .tokenExpired),
    ])
    func refusesARefreshedTokenForAnotherLogin(_ claim: String, _ value: String, _ reason: ReasonCode) throws {
        let (first, claims) = try Self.first()
        var changed = claims
        changed[claim] = value
        if claim == "aud" { changed["azp"] = #""s6BhdRkqt3""# }
        expectRefusal(reason) { try Self.refreshed(changed, previous: first) }
    }
}

/// A refresh response's ID token checked by a process that does not hold the login's
/// `IDTokenClaims` (the CLI): without the login's token, and against it given as a string.
extension RefreshedIDTokenTests {
    static func response(_ idToken: String?, accessToken: String = "new-access-token") throws -> TokenSet {
        let member = idToken.map { #","id_token":""# + $0 + #"""# } ?? ""
        let body = #"{"access_token":"\#(accessToken)","token_type":"Bearer""# + member + "}"
        guard case .tokens(let tokens) = try TokenResponse(status: 200, body: Array(body.utf8)) else {
            throw CallbackError(.invalidParameter, "no tokens")
        }
        return tokens
    }

    /// The login's ID token as a string, and the claims of a good refreshed one (no nonce).
    static func login() throws -> (String, [String: String]) {
        let (token, claims, _) = try loginWithNonce()
        return (token, claims)
    }

    /// The same, and the login's `nonce` claim as JSON.
    static func loginWithNonce() throws -> (String, [String: String], String) {
        var (delivery, claims) = try Base.fixture()
        claims["auth_time"] = String(Base.now - 60)
        let token = Base.jwt(Base.payload(claims))
        _ = try Base.check(token, delivery: delivery)
        let nonce = claims.removeValue(forKey: "nonce") ?? ""
        return (token, claims, nonce)
    }

    static func withoutLogin(_ claims: [String: String], header: String = #"{"alg":"RS256","kid":"1"}"#) throws -> IDTokenClaims? {
        try response(Base.jwt(header: header, Base.payload(claims))).checkRefreshedIDToken(
            clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock())
    }

    static func againstLogin(_ claims: [String: String]?, previous: String) throws -> IDTokenClaims? {
        try response(claims.map { Base.jwt(Base.payload($0)) }).checkRefreshedIDToken(
            previousIDToken: previous, clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock())
    }

    @Test func withoutTheLoginsTokenAGoodTokenPassesAndItsNonceIsNotClaimedChecked() throws {
        var (_, claims) = try Self.login()
        claims["sub"] = #""anyone""#
        let checked = try #require(try Self.withoutLogin(claims))
        #expect(checked.subject == "anyone" && !checked.nonceChecked && !checked.codeHashChecked)
        claims["nonce"] = #""whatever""#
        #expect(try Self.withoutLogin(claims)?.nonceChecked == false)
        #expect(String(describing: try #require(try Self.withoutLogin(claims))).contains("nonce: not checked"))
        #expect(try Self.response(nil).checkRefreshedIDToken(clientID: Base.clientID, issuer: Base.issuer) == nil)
    }

    @Test(
        arguments: [
            ("iss", #""https://evil.example.com""#, ReasonCode.issuerMismatch), ("iss", nil, .issuerMissing),
            ("aud", #""another-client""#, .audienceMismatch), ("aud", #"["s6BhdRkqt3","api"]"#, .audienceMismatch),
            ("exp", "1767225000", .tokenExpired), ("iat", "1767229200", .invalidParameter), ("sub", nil, .missingParameter),
            ("c_hash", #""77QmUPtjPfzWtF2AnpK9RQ""#, .tokenHashMismatch), ("at_hash", #""77QmUPtjPfzWtF2AnpK9RQ""#, .tokenHashMismatch),
        ] as [(String, String?, ReasonCode)])
    func withoutTheLoginsTokenEveryLoginCheckButTheNonceStillRefuses(_ claim: String, _ value: String?, _ reason: ReasonCode) throws {
        var (_, claims) = try Self.login()
        claims[claim] = value
        expectRefusal(reason) { try Self.withoutLogin(claims) }
    }

    @Test func withoutTheLoginsTokenAnUnsignedTokenIsRefused() throws {
        let (_, claims) = try Self.login()
        expectRefusal(.unsupportedAlgorithm) { try Self.withoutLogin(claims, header: #"{"alg":"none"}"#) }
    }

    @Test func againstTheLoginsTokenTheSameUserPassesAndItsNonceIsCompared() throws {
        let (previous, claims, nonce) = try Self.loginWithNonce()
        let checked = try #require(try Self.againstLogin(claims, previous: previous))
        #expect(checked.subject == "248289761001" && !checked.nonceChecked)
        var withNonce = claims
        withNonce["nonce"] = nonce
        #expect(try Self.againstLogin(withNonce, previous: previous)?.nonceChecked == true)
        #expect(try Self.againstLogin(nil, previous: previous) == nil)
    }

    @Test(arguments: [
        ("sub", #""someone-else""#, ReasonCode.subjectMismatch), ("aud", #"["s6BhdRkqt3","api"]"#, .audienceMismatch),
        ("nonce", #""another-nonce""#, .nonceMismatch), ("iss", #""https://evil.example.com""#, .issuerMismatch),
        ("auth_time", "1767225000", .authTimeMismatch), ("c_hash", #""77QmUPtjPfzWtF2AnpK9RQ""#, .tokenHashMismatch),
        ("exp", "1767225000", .tokenExpired),
    ])
    func againstTheLoginsTokenAnotherLoginIsRefused(_ claim: String, _ value: String, _ reason: ReasonCode) throws {
        let (previous, claims) = try Self.login()
        var changed = claims
        changed[claim] = value
        if claim == "aud" { changed["azp"] = #""s6BhdRkqt3""# }
        expectRefusal(reason) { try Self.againstLogin(changed, previous: previous) }
    }

    @Test func aNonceIsRefusedWhenTheLoginsTokenHadNone() throws {
        var (_, claims) = try Self.login()
        let previous = Base.jwt(Base.payload(claims))
        claims["nonce"] = #""invented""#
        expectRefusal(.nonceMismatch) { try Self.againstLogin(claims, previous: previous) }
    }

    /// The earlier token is read before anything else, even when no ID token came back, and
    /// every refusal names it; a tampered one can only refuse (here: never pass).
    @Test(arguments: [
        ("garbage", ReasonCode.invalidParameter), ("a.b", .invalidParameter), ("alg-none", .invalidParameter),
        ("iss-other", .issuerMismatch), ("iss-missing", .issuerMissing), ("aud-other", .audienceMismatch),
        ("sub-missing", .missingParameter), ("nonce-number", .invalidParameter), ("auth_time-string", .invalidParameter),
    ])
    func aMalformedOrForeignLoginTokenIsRefusedFirst(_ kind: String, _ reason: ReasonCode) throws {
        var (_, claims) = try Self.login()
        var header = #"{"alg":"RS256"}"#
        switch kind {
        case "alg-none": header = #"{"alg":"none"}"#
        case "iss-other": claims["iss"] = #""https://evil.example.com""#
        case "iss-missing": claims["iss"] = nil
        case "aud-other": claims["aud"] = #""another-client""#
        case "sub-missing": claims["sub"] = nil
        case "nonce-number": claims["nonce"] = "42"
        case "auth_time-string": claims["auth_time"] = #""yesterday""#
        default: break
        }
        let previous = kind == "garbage" ? "not-a-token" : kind == "a.b" ? "a.b" : Base.jwt(header: header, Base.payload(claims))
        let (_, good) = try Self.login()
        for refreshed in [good, nil] as [[String: String]?] {
            do {
                _ = try Self.againstLogin(refreshed, previous: previous)
                Issue.record("a malformed or foreign login ID token was accepted (\(kind))")
            } catch let error as CallbackError {
                #expect(error.reason == reason)
                #expect(error.detail.hasPrefix("the earlier (login's) ID token: "))
            }
        }
        expectRefusal(reason) { try TokenSet.checkPreviousIDToken(previous, clientID: Base.clientID, issuer: Base.issuer) }
    }
}
