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

/// Prelude social login (seed 000): `myapp://oauth-callback?challenge_token=…`.
@Suite struct DialectPreludeTests {
    static let accepted: [Accepted] = [
        Accepted(
            source: "seed 000 redirect", url: "myapp://oauth-callback?challenge_token=ct_9f8e7d6c5b4a",
            dialect: .prelude, kind: .challengeToken, decided: .prelude,
            fields: [Pair("challenge_token", "ct_9f8e7d6c5b4a")]),
        Accepted(
            source: "demo://oauth with an extra parameter", url: "demo://oauth?challenge_token=eyJhbGciOi.J9&provider=google",
            dialect: .prelude, kind: .challengeToken, decided: .prelude,
            fields: [Pair("challenge_token", "eyJhbGciOi.J9")], extra: [Pair("provider", "google")]),
        Accepted(
            source: "picked by auto", url: "myapp://oauth-callback?challenge_token=ct_1",
            kind: .challengeToken, decided: .prelude, fields: [Pair("challenge_token", "ct_1")]),
        Accepted(
            source: "percent-encoded token", url: "myapp://oauth-callback?challenge_token=a%2Bb%2Fc%3D",
            dialect: .prelude, kind: .challengeToken, decided: .prelude, fields: [Pair("challenge_token", "a+b/c=")]),
        Accepted(
            source: "code is only an extra to Prelude", url: "demo://oauth?challenge_token=t&code=c",
            dialect: .prelude, kind: .challengeToken, decided: .prelude,
            fields: [Pair("challenge_token", "t")], extra: [Pair("code", "c")]),
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
            source: "empty token", url: "myapp://oauth-callback?challenge_token=", dialect: .prelude, reason: .invalidParameter, offset: 39),
        Refused(
            source: "token with a control", url: "myapp://oauth-callback?challenge_token=a%0D", dialect: .prelude, reason: .invalidParameter
        ),
        Refused(
            source: "token in the fragment", url: "myapp://oauth-callback#challenge_token=t", dialect: .prelude,
            reason: .parametersInFragment),
    ]

    @Test(arguments: refused)
    func refusesWhatIsNotAChallengeToken(_ testCase: Refused) {
        expectRefused(testCase)
    }

    @Test func isStateless() {
        #expect(Dialect.prelude.isStateless)
    }

    @Test func exposesTheToken() throws {
        #expect(try classify("myapp://oauth-callback?challenge_token=ct_1", .prelude).challengeToken == "ct_1")
    }
}
