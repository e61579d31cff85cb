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

/// Prelude social login (seed 000): `myapp://oauth-callback?challenge_token=…`. The token is a
/// compact JWS for both Prelude SDKs (android-auth-sdk `crypto/Jwt.kt` `JwtDecoder.decode`,
/// apple-auth-sdk `JWT.decode`): three non-empty base64url segments, or `invalidChallengeToken`
/// before any request.
@Suite struct DialectPreludeTests {
    /// Realistic tokens: `{"alg":"ES256"}`, a small claim set, a signature-sized last segment.
    static let seedToken = "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdF85ZjhlN2Q2YzViNGEifQ.rzRN4bwnENKH4UA9uWHIXtAZGyySkaU6vfjYjrr9D9E"
    static let token = "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdF8xIn0.zRxqz8OUemtFQO9U6gzsvWGFKsTTawPh9DlkCYA0kLY"
    static let otherToken = "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0.47mKTaMaEn1L3m5DAz9muidMqw636xxw7EFAK_YnPdg"

    static let accepted: [Accepted] = [
        Accepted(
            source: "seed 000 redirect", url: "myapp://oauth-callback?challenge_token=" + seedToken,
            dialect: .prelude, kind: .challengeToken, decided: .prelude, fields: [Pair("challenge_token", seedToken)]),
        Accepted(
            source: "demo://oauth with an extra parameter", url: "demo://oauth?challenge_token=\(token)&provider=google",
            dialect: .prelude, kind: .challengeToken, decided: .prelude,
            fields: [Pair("challenge_token", token)], extra: [Pair("provider", "google")]),
        Accepted(
            source: "picked by auto", url: "myapp://oauth-callback?challenge_token=" + token,
            kind: .challengeToken, decided: .prelude, fields: [Pair("challenge_token", token)]),
        Accepted(
            source: "percent-encoded token",
            url: "myapp://oauth-callback?challenge_token=" + token.replacingOccurrences(of: ".", with: "%2E"),
            dialect: .prelude, kind: .challengeToken, decided: .prelude, fields: [Pair("challenge_token", token)]),
        Accepted(
            source: "code is only an extra to Prelude", url: "demo://oauth?challenge_token=\(otherToken)&code=c",
            dialect: .prelude, kind: .challengeToken, decided: .prelude,
            fields: [Pair("challenge_token", otherToken)], extra: [Pair("code", "c")]),
        Accepted(
            source: "apple-auth-sdk's end-to-end token (a three-character signature segment)",
            url: "demo://oauth?challenge_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.sig", dialect: .prelude,
            kind: .challengeToken, decided: .prelude,
            fields: [Pair("challenge_token", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.sig")]),
        Accepted(
            source: "provider error", url: "myapp://oauth-callback?error=access_denied",
            dialect: .prelude, kind: .authorizationError, decided: .prelude, fields: [Pair("error", "access_denied")]),
    ]

    @Test(arguments: accepted)
    func readsTheChallengeToken(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    static let refused: [Refused] = [
        Refused(source: "no token", url: "myapp://oauth-callback", dialect: .prelude, reason: .missingParameter),
        Refused(
            source: "an OAuth code is not a challenge token", url: "myapp://oauth-callback?code=c", dialect: .prelude,
            reason: .missingParameter),
        Refused(
            source: "empty token: none, to both SDKs (missing_challenge_token)", url: "myapp://oauth-callback?challenge_token=",
            dialect: .prelude, reason: .missingParameter),
        Refused(
            source: "empty token, picked by auto", url: "myapp://oauth-callback?challenge_token=", reason: .missingParameter),
        Refused(
            source: "token with a control", url: "myapp://oauth-callback?challenge_token=a%0D", dialect: .prelude, reason: .invalidParameter
        ),
        Refused(
            source: "token in the fragment", url: "myapp://oauth-callback#challenge_token=" + token, dialect: .prelude,
            reason: .parametersInFragment),
        Refused(
            source: "an empty error with no token: missing_challenge_token to both SDKs", url: "myapp://oauth-callback?error=",
            dialect: .prelude, reason: .missingParameter),
        Refused(
            source: "a non-empty error with a token: the SDKs let the error win",
            url: "myapp://oauth-callback?error=x&challenge_token=" + token,
            dialect: .prelude, reason: .ambiguousResponse),
    ]

    @Test(arguments: refused)
    func refusesWhatIsNotAChallengeToken(_ testCase: Refused) {
        expectRefused(testCase)
    }

    /// What both SDKs' JWT decoders refuse (android-auth-sdk `JwtDecoderTest`: `only.two`, `..`,
    /// `a.b.c.d`, a payload that is not base64url), and the fake tokens this project's own
    /// examples used to show (`ct_9f8e7d6c5b4a`, `ct_1`).
    static let notCompactJWS: [String] = [
        "ct_9f8e7d6c5b4a", "ct_1", "only.two", "..", "a.b.c.d", "aGVhZGVy.!!!not-base64!!!.c2ln", "aGVhZGVy..c2ln",
        ".eyJqdGkiOiJ0In0.c2ln", "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0.", "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0=.c2ln",
        "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0.c2ln+", "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0.c2lu/", "a.eyJqdGkiOiJ0In0.c2ln",
        "eyJhbGciOiJFUzI1NiJ9 .eyJqdGkiOiJ0In0.c2ln", "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0.c2ln.", "東",
    ]

    @Test(arguments: notCompactJWS)
    func refusesATokenThatIsNotACompactJWS(_ value: String) throws {
        let url = "myapp://oauth-callback?challenge_token=" + Self.percentEncoded(value)
        let error = refusal { try classify(url, .prelude) }
        #expect(error?.reason == .invalidParameter, "\(String(describing: error))")
        #expect(error?.offset == 39)
        #expect(error?.detail.contains("compact JWS") == true)
        #expect(error.map { !$0.detail.contains(value) } == true, "the detail repeats the token")
        // The common path agrees (it decides Prelude's usual callback).
        #expect(CallbackClassifier.classifyCommon(try CallbackURL(parsing: url), dialect: .prelude, expectations: .init()) == nil)
    }

    /// Both SDKs read `error` only when it is not empty: `?error=&challenge_token=<jwt>` finalizes.
    @Test func anEmptyErrorIsNoError() throws {
        for dialect in [Dialect.prelude, .auto] {
            let outcome = try classify("myapp://oauth-callback?error=&challenge_token=" + Self.token, dialect)
            #expect(outcome.kind == .challengeToken)
            #expect(outcome.challengeToken == Self.token)
            #expect(outcome.extra.map { Pair($0.name, $0.value) } == [Pair("error", "")])
        }
        // Another dialect keeps the rule: an empty error is an invalid one.
        #expect(refusal { try classify("myapp://cb?error=&code=c", .oauth2) }?.reason == .ambiguousResponse)
    }

    /// Every byte but RFC 3986's unreserved ones as `%XX`.
    static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
                UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }

    @Test func isStateless() {
        #expect(Dialect.prelude.isStateless)
    }

    @Test func exposesTheToken() throws {
        #expect(try classify("myapp://oauth-callback?challenge_token=" + Self.token, .prelude).challengeToken == Self.token)
    }

    // MARK: Through the router

    /// A token that is no compact JWS reaches no attempt and ends none; `?error=&challenge_token=<jwt>`
    /// finalizes, delivered to the pending attempt.
    @Test func theRouterDeliversOnlyACompactJWS() throws {
        var builder = RouterBuilder()
        builder.add(Route("prelude", redirectURI: try RedirectURI("myapp://oauth-callback"), dialect: .prelude))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "prelude")
        expectRefusal(.invalidParameter) { try router.handle("myapp://oauth-callback?challenge_token=ct_9f8e7d6c5b4a") }
        expectRefusal(.missingParameter) { try router.handle("myapp://oauth-callback?challenge_token=") }
        #expect(router.pendingCount == 1)
        let delivery = try router.handle("myapp://oauth-callback?error=&challenge_token=" + Self.token)
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.challengeToken == Self.token)
    }
}
