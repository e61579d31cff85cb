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

import CallbackRouter
import Testing
import TestVectorSupport

/// The catalogue of hostile callbacks (Vectors/hostile.json): each URL, the configuration
/// it meets, and the reason it must get, through `CallbackValidator` or, for lifecycle
/// cases, through a `CallbackRouter` on a manual clock. Every case runs; the count is fixed.
@Suite struct HostileVectorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let index: Int
        let attackClass: String
        let url: String
        let reason: String
        let note: String
        let dialect: String
        let redirectURIs: [String]
        let policy: String
        let allowLocalhost: Bool
        let state: String?
        let issuer: String?
        let requiresIssuer: Bool
        let responseMode: String
        let scenario: String?
        var testDescription: String { "#\(index) \(attackClass): \(note)" }
    }

    static let expectedCount = 238

    static func loadCases() throws -> [Case] {
        try TestVectors.cases(in: "hostile.json") { entry in
            Case(
                index: entry.index, attackClass: try entry.string("class"), url: expand(try entry.string("url")),
                reason: try entry.string("reason"), note: try entry.string("note"), dialect: try entry.string("dialect"),
                redirectURIs: entry["redirect_uris"]?.array?.compactMap(\.string) ?? [],
                policy: try entry.string("policy"), allowLocalhost: entry["allow_localhost"] == .bool(true),
                state: entry["state"]?.string, issuer: entry["issuer"]?.string,
                requiresIssuer: entry["require_issuer"] == .bool(true),
                responseMode: entry["response_mode"]?.string ?? "query", scenario: entry["scenario"]?.string)
        }
    }

    /// `{{X*N}}` → X repeated N times (keeps the overlong cases readable).
    static func expand(_ template: String) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            out += rest[..<open.lowerBound]
            let body = rest[open.upperBound ..< close.lowerBound]
            if let star = body.lastIndex(of: "*"), let count = Int(body[body.index(after: star)...]) {
                out += String(repeating: String(body[..<star]), count: count)
            } else {
                out += "{{" + body + "}}"
            }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    @Test func theCatalogueHoldsEveryCase() throws {
        let cases = try Self.loadCases()
        #expect(cases.count == Self.expectedCount)
        #expect(cases.count >= 150)
        let file = try TestVectors.json("hostile.json")
        #expect(file["count"] == .number(Double(Self.expectedCount)), "the file's own count is stale")
        for testCase in cases {
            #expect(ReasonCode.allCases.contains(ReasonCode(rawValue: testCase.reason)), "\(testCase.reason) is no reason code")
        }
        #expect(Set(cases.map(\.attackClass)).count == 17)
        #expect(cases.filter { $0.scenario != nil }.count == 10)
    }

    @Test(arguments: try loadCases())
    func getsItsReason(_ testCase: Case) throws {
        let got: ReasonCode?
        if let scenario = testCase.scenario {
            got = try Self.runScenario(scenario, testCase)
        } else {
            got = try Self.validate(testCase)
        }
        #expect(got?.rawValue == testCase.reason, "\(testCase.url.prefix(120))")
    }

    static func validate(_ testCase: Case) throws -> ReasonCode? {
        let policy: RedirectURIPolicy = testCase.policy == "custom-scheme-only" ? .customSchemeOnly : .native
        let redirects = try testCase.redirectURIs.map {
            try RedirectURI($0, policy: policy, allowsLocalhost: testCase.allowLocalhost)
        }
        let dialect = try #require(Dialect(rawValue: testCase.dialect))
        let mode = try #require(ResponseMode(rawValue: testCase.responseMode))
        let validator = try CallbackValidator(
            redirectURIs: redirects, policy: policy, allowsLocalhost: testCase.allowLocalhost, dialect: dialect,
            expecting: CallbackExpectations(
                state: testCase.state, issuer: testCase.issuer,
                requiresIssuer: testCase.requiresIssuer, responseMode: mode))
        do {
            let outcome = try validator.validate(testCase.url)
            Issue.record("accepted as \(outcome)")
            return nil
        } catch {
            #expect(!error.detail.contains("af0ifjsldkj"), "a rejection's detail shows the state")
            return error.reason
        }
    }

    /// Lifecycle cases: a router whose route `main` has the case's first redirect URI and
    /// dialect (`no-route`: a route elsewhere; `cross-route`: a second route `other` at
    /// `com.example.app:/other`; `issuer`: the route expects https://issuer.example).
    static func runScenario(_ scenario: String, _ testCase: Case) throws -> ReasonCode? {
        let clock = ManualAttemptClock()
        let dialect = try #require(Dialect(rawValue: testCase.dialect))
        let mainURI =
            scenario == "no-route"
            ? "com.example.app:/elsewhere"
            : dialect == .prelude ? "myapp://oauth-callback" : "com.example.app:/oauth2redirect"
        var builder = RouterBuilder()
        builder.add(
            Route(
                "main", redirectURI: try RedirectURI(mainURI), dialect: dialect,
                issuer: scenario == "issuer" ? "https://issuer.example" : nil))
        if scenario == "cross-route" {
            builder.add(Route("other", redirectURI: try RedirectURI("com.example.app:/other"), dialect: .oauth2))
        }
        let router = try builder.build(clock: clock)
        let attempt = try router.beginLogin(on: "main")
        let url = testCase.url.replacingState(with: attempt.state)

        switch scenario {
        case "replay": try router.handle(url)
        case "expired": clock.advance(by: .seconds(601))
        case "cancelled": router.cancel(attempt)
        case "conflict":
            do { _ = try router.beginLogin(on: "main"); return nil } catch { return error.reason }
        default: break
        }
        do {
            try router.handle(url)
            return nil
        } catch {
            #expect(!error.detail.contains(attempt.state), "a rejection's detail shows the state")
            return error.reason
        }
    }
}

extension String {
    func replacingState(with state: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: "{STATE}") {
            out += rest[..<range.lowerBound] + state
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
