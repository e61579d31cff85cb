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
@_spi(Testing) @testable import CallbackRouter

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
            source: "custom scheme with extras", url: "myapp://callback?code=ory_sec_1&flow=3c5b0a4f-1d2e-4f60-8a7b-9c0d1e2f3a4b",
            dialect: .ory, kind: .sessionTokenExchangeCode, decided: .ory,
            fields: [Pair("code", "ory_sec_1"), Pair("flow", "3c5b0a4f-1d2e-4f60-8a7b-9c0d1e2f3a4b")]),
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
        Accepted(
            source: "account linking: the login flow to continue, no code (kratos strategy_test 'should use redirect_to URL on failure')",
            url: "myapp://callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c", dialect: .ory, kind: .continueLoginFlow,
            decided: .ory, fields: [Pair("flow", "5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c")]),
        Accepted(
            source: "account linking with duplicated credentials (kratos oidc strategy.go: no_org_ui=true)",
            url: "com.example.app://ory/callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&no_org_ui=true", dialect: .ory,
            kind: .continueLoginFlow, decided: .ory, fields: [Pair("flow", "5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c")],
            extra: [Pair("no_org_ui", "true")]),
    ]

    @Test(arguments: accepted)
    func readsTheExchangeCode(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    static let refused: [Refused] = [
        Refused(source: "neither code nor flow", url: "myapp://callback?no_org_ui=true", dialect: .ory, reason: .missingParameter),
        Refused(source: "a flow id that is no UUID", url: "myapp://callback?flow=1", dialect: .ory, reason: .invalidParameter, offset: 22),
        Refused(
            source: "a flow id in capitals (Kratos writes lowercase)", url: "myapp://callback?flow=5B1E3C2A-9D4F-4E8B-A7C6-0F2D1E3B4A5C",
            dialect: .ory, reason: .invalidParameter),
        Refused(
            source: "a flow id without hyphens", url: "myapp://callback?flow=5b1e3c2a9d4f4e8ba7c60f2d1e3b4a5c", dialect: .ory,
            reason: .invalidParameter),
        Refused(
            source: "a flow id in braces", url: "myapp://callback?flow=%7B5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c%7D", dialect: .ory,
            reason: .invalidParameter),
        Refused(
            source: "a flow id with a hyphen out of place", url: "myapp://callback?flow=5b1e3c2a9-d4f-4e8b-a7c6-0f2d1e3b4a5c",
            dialect: .ory, reason: .invalidParameter),
        Refused(source: "an empty flow id alone", url: "myapp://callback?flow=", dialect: .ory, reason: .invalidParameter),
        Refused(
            source: "a flow in the fragment", url: "myapp://callback#flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c", dialect: .ory,
            reason: .parametersInFragment),
        Refused(source: "empty code", url: "myapp://callback?code=", dialect: .ory, reason: .invalidParameter),
        Refused(source: "code and error", url: "myapp://callback?code=a&error=b", dialect: .ory, reason: .ambiguousResponse),
        Refused(source: "empty flow", url: "myapp://callback?code=a&flow=", dialect: .ory, reason: .invalidParameter),
        Refused(source: "flow twice", url: "myapp://callback?code=a&flow=1&flow=2", dialect: .ory, reason: .duplicateParameter),
        Refused(
            source: "flow twice, no code",
            url: "myapp://callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c", dialect: .ory,
            reason: .duplicateParameter),
        Refused(
            source: "auto never picks ory: a flow alone says nothing", url: "myapp://callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c",
            reason: .missingParameter),
    ]

    @Test(arguments: refused)
    func refusesWhatIsNotAnExchangeCode(_ testCase: Refused) {
        expectRefused(testCase)
    }

    @Test func isStateless() {
        #expect(Dialect.ory.isStateless)
    }

    @Test func exposesTheFlow() throws {
        let outcome = try classify("myapp://callback?code=C&flow=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", .ory)
        #expect(outcome.flow == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        #expect(outcome.code == "C")
    }

    /// Account linking is neither a success nor a provider failure, and it is tied to the
    /// pending attempt like the code it replaces (the helper exits 0; the wait ends).
    @Test func continuingTheLoginFlowIsNoFailureAndNotUnbound() throws {
        let outcome = try classify("myapp://callback?flow=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d&no_org_ui=true", .ory)
        #expect(outcome.kind == .continueLoginFlow)
        #expect(outcome.kind.rawValue == "continue_login_flow")
        #expect(!outcome.kind.isProviderFailure)
        #expect(!outcome.isUnbound)
        #expect(outcome.flow == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        #expect(outcome.code == nil)
        #expect(outcome.extraValue("no_org_ui") == "true")
        #expect(!outcome.description.contains("0a1b2c3d"), "the flow id is shown")
        #expect(outcome.description.hasPrefix("CallbackOutcome(continue_login_flow, dialect: ory, flow: <redacted, 36 bytes>"))
    }

    // MARK: Through the router

    static func router() throws -> CallbackRouter {
        var builder = RouterBuilder()
        builder.add(Route("ory", redirectURI: try RedirectURI("com.example.app://ory/callback"), dialect: .ory))
        return try builder.build(clock: ManualAttemptClock())
    }

    static let linking = "com.example.app://ory/callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&no_org_ui=true"

    /// Account linking (Kratos's `return_to?flow=<login flow id>`, no code): delivered to the
    /// pending Ory attempt, which it ends (no code follows), exactly once; refused with no
    /// attempt pending; a flow id that is no UUID reaches no attempt and ends none.
    @Test func accountLinkingIsDeliveredToThePendingAttempt() throws {
        let router = try Self.router()
        expectRefusal(.unknownState) { try router.handle(Self.linking) }
        let attempt = try router.beginLogin(on: "ory")
        expectRefusal(.invalidParameter) { try router.handle("com.example.app://ory/callback?flow=not-a-flow-id") }
        #expect(router.pendingCount == 1)
        let delivery = try router.handle(Self.linking)
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .continueLoginFlow)
        #expect(delivery.outcome.flow == "5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c")
        #expect(delivery.outcome.extraValue("no_org_ui") == "true")
        #expect(router.pendingCount == 0)
        expectRefusal(.replayed) { try router.handle(Self.linking) }
    }

    /// The waiting task hears of account linking as it hears of the code: the wait ends.
    @Test func aWaiterReceivesTheLoginFlowToContinue() async throws {
        let router = try Self.router()
        let attempt = try router.beginLogin(on: "ory")
        async let waited = router.callback(for: attempt, timeout: .seconds(30))
        while !router.isWaiting(for: attempt) { await Task.yield() }
        _ = try router.handle(Self.linking)
        let delivery = try await waited
        #expect(delivery.outcome.kind == .continueLoginFlow)
        #expect(delivery.attempt == attempt)
    }
}
