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
import CallbackTestSupport
import Testing
import TestVectorSupport

/// What real providers send back (Vectors/providers.json): each callback, with its source,
/// runs through `CallbackValidator` (what `callback-router parse` runs) and, where the case
/// says so, through a `CallbackRouter` with a pending attempt. Every case runs; the count
/// per provider is fixed, so a case cannot silently go missing.
@Suite struct ProviderVectorTests {
    enum Expectation: Sendable {
        case outcome(kind: String, fields: [String: String], extra: [String: String], withheld: [String], unbound: Bool)
        case rejected(String)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let index: Int
        let provider: String
        let note: String
        /// The callback as the app receives it; a form_post body is appended to the redirect
        /// URI as its query, as a form_post receiver hands it to the same byte parser.
        let url: String
        let redirectURI: String?
        let dialect: String
        let responseMode: String
        let allowLocalhost: Bool
        let state: String?
        let issuer: String?
        let requiresIssuer: Bool
        let profiles: [String]
        let expectation: Expectation
        let router: String?
        /// How close the URL is to its source: verbatim, adapted (the note says how) or shape.
        let fidelity: String
        let source: String
        var testDescription: String { "#\(index) \(provider): \(note)" }
    }

    static let expectedPerProvider: [String: Int] = [
        "google": 12, "entra": 15, "apple": 10, "github": 7, "gitlab": 3, "okta": 3, "auth0": 6,
        "keycloak": 9, "cognito": 6, "facebook": 6, "supabase": 9, "discord": 4, "slack": 3,
        "spotify": 4, "clerk": 3,
    ]
    static var expectedCount: Int { expectedPerProvider.values.reduce(0, +) }

    static func loadCases() throws -> [Case] {
        try TestVectors.cases(in: "providers.json") { entry in
            let redirectURI = entry["redirect_uri"]?.string
            let url: String
            if let body = entry["form_post"]?.string {
                guard let redirectURI else { throw entry.error("form_post needs a redirect_uri") }
                url = redirectURI + "?" + body
            } else {
                url = try entry.string("url")
            }
            guard let expect = entry["expect"] else { throw entry.error("no expect") }
            let expectation: Expectation
            if let reason = expect["reason"]?.string {
                expectation = .rejected(reason)
            } else {
                guard let kind = expect["outcome"]?.string else { throw entry.error("expect has neither outcome nor reason") }
                expectation = .outcome(
                    kind: kind, fields: try entry.strings(expect["fields"], "fields"), extra: try entry.strings(expect["extra"], "extra"),
                    withheld: expect["withheld"]?.array?.compactMap(\.string) ?? [],
                    unbound: expect["unbound"] == .bool(true))
            }
            return Case(
                index: entry.index, provider: try entry.string("provider"), note: try entry.string("note"), url: url,
                redirectURI: redirectURI, dialect: try entry.string("dialect"),
                responseMode: try entry.string("response_mode"), allowLocalhost: entry["allow_localhost"] == .bool(true),
                state: entry["state"]?.string, issuer: entry["issuer"]?.string,
                requiresIssuer: entry["require_issuer"] == .bool(true),
                profiles: entry["profiles"]?.array?.compactMap(\.string) ?? [], expectation: expectation,
                router: entry["router"]?.string, fidelity: try entry.string("fidelity"), source: try entry.string("source"))
        }
    }

    static func profiles(of testCase: Case) throws -> [ProviderProfile] {
        try testCase.profiles.map { name in try #require(ProviderProfile(name: name), "unknown profile \(name)") }
    }

    // MARK: The catalogue

    @Test func theCatalogueHoldsEveryCase() throws {
        let cases = try Self.loadCases()
        let file = try TestVectors.json("providers.json")
        #expect(file["count"] == .number(Double(Self.expectedCount)), "the file's own count is stale")
        #expect(cases.count == Self.expectedCount)
        var perProvider: [String: Int] = [:]
        for testCase in cases { perProvider[testCase.provider, default: 0] += 1 }
        #expect(perProvider == Self.expectedPerProvider)
        for testCase in cases {
            #expect(testCase.source.hasPrefix("https://"), "#\(testCase.index) cites no URL")
            if case .rejected(let reason) = testCase.expectation {
                #expect(ReasonCode.allCases.contains(ReasonCode(rawValue: reason)), "\(reason) is no reason code")
            }
            #expect(["query", "fragment", "form_post"].contains(testCase.responseMode))
            #expect(["verbatim", "adapted", "shape"].contains(testCase.fidelity), "#\(testCase.index): fidelity")
            #expect(testCase.router == nil || testCase.redirectURI != nil, "#\(testCase.index): a router case needs a redirect URI")
        }
        // Every profile is exercised, both where it helps and where it must not.
        let used = Set(cases.flatMap(\.profiles))
        #expect(used == Set(ProviderProfile.allCases.map(\.name)))
    }

    // MARK: Classification (what `parse` runs)

    @Test(arguments: try loadCases())
    func comesOutRight(_ testCase: Case) throws {
        let redirects =
            try testCase.redirectURI.map { [try RedirectURI($0, policy: .native, allowsLocalhost: testCase.allowLocalhost)] } ?? []
        let dialect = try #require(Dialect(rawValue: testCase.dialect))
        let validator = try CallbackValidator(
            redirectURIs: redirects, policy: .native, allowsLocalhost: testCase.allowLocalhost, dialect: dialect,
            expecting: CallbackExpectations(
                state: testCase.state, issuer: testCase.issuer, requiresIssuer: testCase.requiresIssuer,
                responseMode: testCase.responseMode == "fragment" ? .fragment : .query,
                profiles: try Self.profiles(of: testCase)))
        switch testCase.expectation {
        case .rejected(let reason):
            do {
                let outcome = try validator.validate(testCase.url)
                Issue.record("accepted as \(outcome), expected \(reason)")
            } catch {
                #expect(error.reason.rawValue == reason)
                if let state = testCase.state { #expect(!error.detail.contains(state), "a rejection's detail shows the state") }
            }
        case let .outcome(kind, fields, extra, withheld, unbound):
            let outcome = try validator.validate(testCase.url)
            Self.check(outcome, kind: kind, fields: fields, extra: extra, withheld: withheld, unbound: unbound)
        }
    }

    static func check(
        _ outcome: CallbackOutcome, kind: String, fields: [String: String], extra: [String: String],
        withheld: [String], unbound: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.kind.rawValue == kind, sourceLocation: sourceLocation)
        #expect(Dictionary(uniqueKeysWithValues: outcome.fields.map { ($0.name, $0.value) }) == fields, sourceLocation: sourceLocation)
        #expect(Dictionary(uniqueKeysWithValues: outcome.extra.map { ($0.name, $0.value) }) == extra, sourceLocation: sourceLocation)
        #expect(outcome.withheldFields == withheld, sourceLocation: sourceLocation)
        #expect(outcome.isUnbound == unbound, sourceLocation: sourceLocation)
        // Secrets (codes, states, id tokens) never reach the description.
        for (name, value) in fields.merging(extra, uniquingKeysWith: { a, _ in a }) where name != "error" && value.utf8.count >= 8 {
            #expect(!outcome.description.contains(value), "the description shows \(name)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Routing (a pending attempt, delivered exactly once, or left alone)

    @Test(arguments: try loadCases().filter { $0.router != nil })
    func routesThroughTheRouter(_ testCase: Case) throws {
        let redirectText = try #require(testCase.redirectURI)
        let redirect = try RedirectURI(redirectText, policy: .native, allowsLocalhost: testCase.allowLocalhost)
        let profiles = try Self.profiles(of: testCase)
        var builder = RouterBuilder()
        builder.add(
            Route(
                "main", redirectURI: redirect, dialect: try #require(Dialect(rawValue: testCase.dialect)),
                issuer: testCase.issuer, requiresIssuer: testCase.requiresIssuer,
                responseMode: testCase.responseMode == "fragment" ? .fragment : .query, profiles: profiles))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "main")

        // The attempt's fresh state takes the place of the one the provider echoed.
        var url = testCase.url
        if let state = testCase.state, url.contains("state=" + state) {
            url = url.replacing("state=" + state, with: "state=" + attempt.state)
        }

        switch (testCase.router, testCase.expectation) {
        case let ("deliver", .outcome(kind, fields, extra, withheld, unbound)):
            let delivery = try router.handle(url)
            #expect(delivery.attempt.id == attempt.id)
            var expectedFields = fields
            if expectedFields["state"] != nil {
                #expect(url.contains("state=" + attempt.state), "the case's URL does not carry its state as written")
                expectedFields["state"] = attempt.state
            }
            Self.check(delivery.outcome, kind: kind, fields: expectedFields, extra: extra, withheld: withheld, unbound: unbound)
            #expect(router.pendingCount == 0)
            expectRefusal(.replayed) { try router.handle(url) }
        case ("unbound", .outcome(_, _, _, _, true)):
            expectRefusal(.stateMissing) { try router.handle(url) }
            #expect(router.pendingCount == 1, "an unbound provider error ended the login")
            // The login it could not end still completes.
            let separator = redirectText.contains("?") ? "&" : "?"
            let isStateless = profiles.contains(.supabase)
            let later = redirectText + separator + "code=later-code" + (isStateless ? "" : "&state=" + attempt.state)
            let delivery = try router.handle(later)
            #expect(delivery.attempt.id == attempt.id)
            #expect(delivery.outcome.code == "later-code")
        default:
            Issue.record("router '\(testCase.router ?? "")' does not fit the expectation of case #\(testCase.index)")
        }
    }
}
