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

import CallbackParsing
import CallbackRouter
import CallbackTestSupport
import Testing
import TestVectorSupport

/// What real client SDKs' own tests feed their callback handling (Vectors/sdk-callbacks.json:
/// AppAuth for iOS, Android and JS, Auth0.swift, Clerk, Prelude, Ory, oauth4webapi,
/// httpx_auth, Okta, MSAL's IdentityCore and common4j, GoogleSignIn-iOS, MSAL.js,
/// oauthlib, OAuthSwift, Auth0.Android, p2/OAuth2), run through what an app calls:
/// `CallbackURL(parsing:)`, the redirect-URI policy and match, and the dialect
/// (`CallbackValidator`, what `callback-router parse` runs; the fields are its JSON's;
/// `validateLogout` for the ends of logouts). Each case records what we give and, where that
/// differs in substance from what the SDK expects, the verdict and why. Every case runs; the
/// tally per SDK is fixed, so a case cannot go missing and a difference cannot appear
/// without its verdict.
@Suite struct SDKCallbackVectorTests {
    enum Expectation: Sendable {
        /// `withheld`: the human-text fields whose value broke its syntax (not passed through).
        /// `unbound`: the outcome carries no state and no secret (``CallbackOutcome/isUnbound``).
        case outcome(kind: String, fields: [String: String], extra: [String: String], withheld: [String], unbound: Bool)
        case refused(reason: String, offset: Int?, rule: String?)
    }

    struct Pair: Sendable, Equatable, CustomStringConvertible {
        let name: String
        let value: String
        var description: String { "\(name)=\(value)" }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let index: Int
        let sdk: String
        let repository: String
        let path: String
        let commit: String
        let test: String
        let note: String
        /// nil: the case is the redirect URI alone (refused when registered).
        let url: String?
        let redirectURI: String?
        let policy: String
        let allowLocalhost: Bool
        let dialect: String
        let responseMode: String
        /// The route's provider profiles.
        let profiles: [ProviderProfile]
        /// The URL ends a logout: read by `validateLogout` (without a state: allowing none).
        let logout: Bool
        let state: String?
        let issuer: String?
        let requiresIssuer: Bool
        let sdkExpects: String
        let expectation: Expectation
        /// The query as `CallbackURL` decodes it, for the cases about the parser.
        let parameters: [Pair]?
        /// deliberate | reported | fixed; nil when we agree with the SDK in substance.
        let verdict: String?
        let why: String?
        let fidelity: String
        var testDescription: String { "#\(index) \(sdk): \(note)" }
    }

    /// Cases per SDK, and how many of them differ from the SDK's expectation, by verdict.
    struct Tally: Equatable, CustomStringConvertible {
        var cases = 0
        var deliberate = 0
        var reported = 0
        var fixed = 0
        var description: String { "\(cases) cases: \(deliberate) deliberate, \(reported) reported, \(fixed) fixed" }
    }

    static let expectedTally: [String: Tally] = [
        "AppAuth-iOS": Tally(cases: 9, deliberate: 3),
        "AppAuth-Android": Tally(cases: 12, deliberate: 5),
        "AppAuth-JS": Tally(cases: 12, deliberate: 7),
        "Auth0.swift": Tally(cases: 18, deliberate: 1),
        "Clerk": Tally(cases: 51, deliberate: 5),
        "Prelude": Tally(cases: 19, deliberate: 2),
        "Ory": Tally(cases: 7, deliberate: 1),
        "oauth4webapi": Tally(cases: 14, deliberate: 2),
        "httpx_auth": Tally(cases: 11, deliberate: 2),
        "Okta": Tally(cases: 9, deliberate: 3),
        "MSAL": Tally(cases: 24, deliberate: 9),
        "GoogleSignIn-iOS": Tally(cases: 3),
        "MSAL.js": Tally(cases: 10),
        "MSAL-Android": Tally(cases: 14, deliberate: 4),
        "oauthlib": Tally(cases: 9, deliberate: 2),
        "OAuthSwift": Tally(cases: 5, deliberate: 2),
        "Auth0.Android": Tally(cases: 7, deliberate: 2),
        "p2/OAuth2": Tally(cases: 6, deliberate: 2),
    ]

    static func loadCases() throws -> [Case] {
        try TestVectors.cases(in: "sdk-callbacks.json") { entry in
            guard let source = entry["source"], let expect = entry["expect"] else { throw entry.error("no source or expect") }
            func sourceString(_ key: String) throws -> String {
                guard let value = source[key]?.string, !value.isEmpty else { throw entry.error("source has no \(key)") }
                return value
            }
            let expectation: Expectation
            if let reason = expect["reason"]?.string {
                var offset: Int?
                if case .number(let number)? = expect["offset"] { offset = Int(number) }
                expectation = .refused(reason: reason, offset: offset, rule: expect["rule"]?.string)
            } else if let kind = expect["outcome"]?.string {
                expectation = .outcome(
                    kind: kind, fields: try entry.strings(expect["fields"], "fields", required: true),
                    extra: try entry.strings(expect["extra"], "extra", required: true),
                    withheld: expect["withheld"]?.array?.compactMap(\.string) ?? [],
                    unbound: expect["unbound"] == .bool(true) || (entry["logout"] == .bool(true) && entry["state"] == nil))
            } else {
                throw entry.error("expect has neither outcome nor reason")
            }
            let parameters = try expect["parameters"]?.array.map { pairs in
                try pairs.map { pair in
                    guard let both = pair.array, both.count == 2, let name = both[0].string, let value = both[1].string else {
                        throw entry.error("a parameter is not [name, value]")
                    }
                    return Pair(name: name, value: value)
                }
            }
            var profiles: [ProviderProfile] = []
            for name in entry["profiles"]?.array ?? [] {
                guard let name = name.string, let profile = ProviderProfile(name: name) else { throw entry.error("unknown profile") }
                profiles.append(profile)
            }
            return Case(
                index: entry.index, sdk: try entry.string("sdk"), repository: try sourceString("repository"),
                path: try sourceString("path"), commit: try sourceString("commit"), test: try sourceString("test"),
                note: try entry.string("note"), url: entry["url"]?.string, redirectURI: entry["redirect_uri"]?.string,
                policy: try entry.string("policy"), allowLocalhost: entry["allow_localhost"] == .bool(true),
                dialect: try entry.string("dialect"), responseMode: try entry.string("response_mode"), profiles: profiles,
                logout: entry["logout"] == .bool(true),
                state: entry["state"]?.string, issuer: entry["issuer"]?.string,
                requiresIssuer: entry["require_issuer"] == .bool(true), sdkExpects: try entry.string("sdk_expects"),
                expectation: expectation,
                parameters: parameters, verdict: entry["difference"]?["verdict"]?.string,
                why: entry["difference"]?["why"]?.string, fidelity: try entry.string("fidelity"))
        }
    }

    /// The case's policy, or the one its dialect implies (Prelude, Clerk: custom scheme only),
    /// as `parse --dialect` and a `Route` apply it.
    static func policy(of testCase: Case) throws -> RedirectURIPolicy {
        if let implied = Dialect(rawValue: testCase.dialect)?.impliedPolicy { return implied }
        switch testCase.policy {
        case "native": return .native
        case "custom-scheme-only": return .customSchemeOnly
        default: throw TestVectors.ReadError(description: "#\(testCase.index): unknown policy \(testCase.policy)")
        }
    }

    // MARK: The catalogue

    @Test func theFileHoldsEveryCaseWithItsProvenance() throws {
        let cases = try Self.loadCases()
        let file = try TestVectors.json("sdk-callbacks.json")
        #expect(file["count"] == .number(Double(cases.count)), "the file's own count is stale")
        var tally: [String: Tally] = [:]
        for testCase in cases {
            tally[testCase.sdk, default: Tally()].cases += 1
            switch testCase.verdict {
            case nil: break
            case "deliberate": tally[testCase.sdk, default: Tally()].deliberate += 1
            case "reported": tally[testCase.sdk, default: Tally()].reported += 1
            case "fixed": tally[testCase.sdk, default: Tally()].fixed += 1
            case let other?: Issue.record("#\(testCase.index): unknown verdict \(other)")
            }
            #expect(testCase.repository.split(separator: "/").count == 2, "#\(testCase.index): repository is owner/name")
            #expect(
                testCase.commit.utf8.count == 40
                    && testCase.commit.utf8.allSatisfy { (0x30 ... 0x39).contains($0) || (0x61 ... 0x66).contains($0) },
                "#\(testCase.index): commit is 40 hex digits")
            #expect((testCase.verdict == nil) == (testCase.why == nil), "#\(testCase.index): a difference has a verdict and a why")
            #expect(["verbatim", "adapted", "shape"].contains(testCase.fidelity), "#\(testCase.index): fidelity")
            #expect(["query", "fragment"].contains(testCase.responseMode), "#\(testCase.index): response mode")
            #expect(Dialect(rawValue: testCase.dialect) != nil, "#\(testCase.index): dialect")
            if case .refused(let reason, _, _) = testCase.expectation {
                #expect(ReasonCode.allCases.contains(ReasonCode(rawValue: reason)), "#\(testCase.index): \(reason) is no reason code")
            }
            if testCase.url == nil {
                guard case .refused("invalid_configuration", _, _) = testCase.expectation, testCase.redirectURI != nil else {
                    Issue.record("#\(testCase.index): a case without a URL is a redirect URI refused when registered")
                    continue
                }
            }
        }
        #expect(tally == Self.expectedTally)
    }

    // MARK: What an app gets

    @Test(arguments: try loadCases())
    func comesOutAsRecorded(_ testCase: Case) throws {
        let policy = try Self.policy(of: testCase)
        let dialect = try #require(Dialect(rawValue: testCase.dialect))
        var redirects: [RedirectURI] = []
        do throws(CallbackError) {
            if let redirectURI = testCase.redirectURI {
                redirects.append(try RedirectURI(redirectURI, policy: policy, allowsLocalhost: testCase.allowLocalhost))
            }
        } catch {
            guard case .refused(let reason, _, let rule) = testCase.expectation, reason == error.reason.rawValue else {
                Issue.record("the redirect URI is refused: \(error)")
                return
            }
            // A case may still carry the callback its SDK's test sent: it is never read.
            if let rule { #expect(error.detail.hasPrefix("rule \(rule):"), "\(error.detail)") }
            return
        }
        let url = try #require(testCase.url, "the redirect URI was expected to be refused")
        let validator = try CallbackValidator(
            redirectURIs: redirects, policy: policy, allowsLocalhost: testCase.allowLocalhost, dialect: dialect,
            expecting: CallbackExpectations(
                state: testCase.state, issuer: testCase.issuer, requiresIssuer: testCase.requiresIssuer,
                responseMode: testCase.responseMode == "fragment" ? .fragment : .query, profiles: testCase.profiles))

        func validate() throws(CallbackError) -> CallbackOutcome {
            testCase.logout ? try validator.validateLogout(url, allowingNoState: testCase.state == nil) : try validator.validate(url)
        }

        switch testCase.expectation {
        case let .refused(reason, offset, _):
            do {
                let outcome = try validate()
                Issue.record("accepted as \(outcome), expected \(reason)")
            } catch {
                #expect(error.reason.rawValue == reason, "\(error)")
                if let offset { #expect(error.offset == offset, "\(error)") }
                // A refusal never shows a value: not the expected state, not one the callback carried.
                let values = (testCase.state.map { [$0] } ?? []) + ((try? CallbackURL(parsing: url))?.queryParameters.map(\.value) ?? [])
                for value in values where value.utf8.count >= 8 {
                    #expect(!error.description.contains(value), "a refusal shows a value")
                }
            }
        case let .outcome(kind, fields, extra, withheld, unbound):
            let outcome = try validate()
            #expect(outcome.kind.rawValue == kind)
            #expect(Dictionary(uniqueKeysWithValues: outcome.fields.map { ($0.name, $0.value) }) == fields)
            #expect(Dictionary(uniqueKeysWithValues: outcome.extra.map { ($0.name, $0.value) }) == extra)
            #expect(outcome.withheldFields == withheld)
            #expect(outcome.isUnbound == unbound)
            if dialect != .auto { #expect(outcome.dialect == dialect) }
            // (A value that is part of a field's name, Auth0's error_description=description, shows as the name;
            // a code named `authorization_code`, as the outcome's kind.)
            for (name, value) in fields
            where !["error", "__clerk_status", "__clerk_error_code"].contains(name) && value.utf8.count >= 8
                && !fields.keys.contains(where: { $0.contains(value) })
                && !kind.contains(value)
            {
                #expect(!outcome.description.contains(value), "the description shows \(name)")
            }
        }
    }

    /// The cases an app would hand to a `CallbackRouter`: a login's outcome on a named dialect,
    /// bound by the state the URL carries as written (or by the route, for a stateless dialect).
    static func routable(_ testCase: Case) -> Bool {
        guard case .outcome(_, _, _, _, let unbound) = testCase.expectation, !unbound, !testCase.logout, let url = testCase.url,
            testCase.redirectURI != nil, let dialect = Dialect(rawValue: testCase.dialect), dialect != .auto
        else { return false }
        if let state = testCase.state { return url.contains("state=" + state) }
        return dialect.isStateless
    }

    /// Unbound outcomes on a named dialect: a router reports them and ends no attempt.
    static func unboundOnARoute(_ testCase: Case) -> Bool {
        guard case .outcome(_, _, _, _, true) = testCase.expectation, !testCase.logout, testCase.url != nil,
            testCase.redirectURI != nil, let dialect = Dialect(rawValue: testCase.dialect), dialect != .auto
        else { return false }
        return true
    }

    @Test(arguments: try loadCases().filter(unboundOnARoute))
    func isReportedByARouterWithoutEndingTheAttempt(_ testCase: Case) throws {
        let redirect = try RedirectURI(
            try #require(testCase.redirectURI), policy: try Self.policy(of: testCase), allowsLocalhost: testCase.allowLocalhost)
        var builder = RouterBuilder()
        builder.add(
            Route(
                "sdk", redirectURI: redirect, dialect: try #require(Dialect(rawValue: testCase.dialect)),
                responseMode: testCase.responseMode == "fragment" ? .fragment : .query, profiles: testCase.profiles))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "sdk")
        let url = try #require(testCase.url)
        expectRefusal(.stateMissing) { try router.handle(url) }
        #expect(router.pendingCount == 1)
        // Sent again, still refused, still pending: then the login can be cancelled (after asking the provider).
        expectRefusal(.stateMissing) { try router.handle(url) }
        #expect(router.pendingCount == 1)
        router.cancel(attempt)
        #expect(router.pendingCount == 0)
    }

    @Test(arguments: try loadCases().filter(routable))
    func isDeliveredOnceByARouter(_ testCase: Case) throws {
        guard case let .outcome(kind, fields, extra, withheld, _) = testCase.expectation, var url = testCase.url else { return }
        let redirect = try RedirectURI(
            try #require(testCase.redirectURI), policy: try Self.policy(of: testCase), allowsLocalhost: testCase.allowLocalhost)
        var builder = RouterBuilder()
        builder.add(
            Route(
                "sdk", redirectURI: redirect, dialect: try #require(Dialect(rawValue: testCase.dialect)),
                issuer: testCase.issuer, requiresIssuer: testCase.requiresIssuer,
                responseMode: testCase.responseMode == "fragment" ? .fragment : .query, profiles: testCase.profiles))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "sdk")
        var expectedFields = fields
        if let state = testCase.state {
            // The attempt's fresh state takes the place of the one the SDK's test echoed.
            url = url.replacing("state=" + state, with: "state=" + attempt.state)
            expectedFields["state"] = attempt.state
        }
        let delivery = try router.handle(url)
        #expect(delivery.attempt.id == attempt.id)
        #expect(delivery.outcome.kind.rawValue == kind)
        #expect(Dictionary(uniqueKeysWithValues: delivery.outcome.fields.map { ($0.name, $0.value) }) == expectedFields)
        #expect(Dictionary(uniqueKeysWithValues: delivery.outcome.extra.map { ($0.name, $0.value) }) == extra)
        #expect(delivery.outcome.withheldFields == withheld)
        #expect(router.pendingCount == 0)
        expectRefusal(.replayed) { try router.handle(url) }
    }

    @Test(arguments: try loadCases().filter { $0.parameters != nil })
    func decodesTheQueryAsRecorded(_ testCase: Case) throws {
        let url = try CallbackURL(parsing: try #require(testCase.url))
        #expect(url.queryParameters.map { Pair(name: $0.name, value: $0.value) } == testCase.parameters)
    }
}
