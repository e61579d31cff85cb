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

/// Ory native app flow (seed 001): `return_to` receives `code`, the second half of the
/// session token exchange code.
@Suite struct DialectOryTests {
    static let accepted: [Accepted] = [
        Accepted(
            source: "seed 001 return_to (Expo dev callback)", url: "http://localhost:19006/Callback?code=ory_sec_2Y4bIa3xk",
            dialect: .ory, kind: .sessionTokenExchangeCode, decided: .ory, fields: [Pair("code", "ory_sec_2Y4bIa3xk")]),
        Accepted(
            source: "universal link return_to", url: "https://app.example.com/auth/callback?code=ory_sec_abc",
            dialect: .ory, kind: .sessionTokenExchangeCode, decided: .ory, fields: [Pair("code", "ory_sec_abc")]),
        Accepted(
            source: "custom scheme with extras", url: "myapp://callback?code=ory_sec_1&flow=3c5b0a4f",
            dialect: .ory, kind: .sessionTokenExchangeCode, decided: .ory,
            fields: [Pair("code", "ory_sec_1"), Pair("flow", "3c5b0a4f")]),
        Accepted(
            source: "kratos 2026-04: a failed registration's redirect (code and flow; proves nothing until the exchange)",
            url: "myapp://callback?code=ory_sec_2&flow=9f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b&foo=bar",
            dialect: .ory, kind: .sessionTokenExchangeCode, decided: .ory,
            fields: [Pair("code", "ory_sec_2"), Pair("flow", "9f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b")], extra: [Pair("foo", "bar")]),
        Accepted(
            source: "flow is Ory's field only: oauth2 keeps it as an extra", url: "myapp://callback?code=c1&flow=f1",
            dialect: .oauth2, kind: .authorizationCode, decided: .oauth2, fields: [Pair("code", "c1")], extra: [Pair("flow", "f1")]),
        Accepted(
            source: "auto never picks ory", url: "myapp://callback?code=ory_sec_1",
            kind: .authorizationCode, decided: .oauth2, fields: [Pair("code", "ory_sec_1")]),
    ]

    @Test(arguments: accepted)
    func readsTheExchangeCode(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    static let refused: [Refused] = [
        Refused(source: "no code", url: "myapp://callback?flow=1", dialect: .ory, reason: .missingParameter),
        Refused(source: "empty code", url: "myapp://callback?code=", dialect: .ory, reason: .invalidParameter),
        Refused(source: "code and error", url: "myapp://callback?code=a&error=b", dialect: .ory, reason: .ambiguousResponse),
        Refused(source: "empty flow", url: "myapp://callback?code=a&flow=", dialect: .ory, reason: .invalidParameter),
        Refused(source: "flow twice", url: "myapp://callback?code=a&flow=1&flow=2", dialect: .ory, reason: .duplicateParameter),
    ]

    @Test(arguments: refused)
    func refusesWhatIsNotAnExchangeCode(_ testCase: Refused) {
        expectRefused(testCase)
    }

    @Test func isStateless() {
        #expect(Dialect.ory.isStateless)
    }

    @Test func exposesTheFlow() throws {
        let outcome = try classify("myapp://callback?code=C&flow=F", .ory)
        #expect(outcome.flow == "F")
        #expect(outcome.code == "C")
    }
}
