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

/// Redirects captured from real authorization servers by the live interop suites
/// (Vectors/captured-redirects.json, docs/interop.md): each parses, and classifies as the
/// server meant it, with the state and issuer an app would expect; the expected fields come
/// from a second parser (Python's parse_qsl). Every case runs; the count per server is fixed.
@Suite struct CapturedRedirectVectorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let index: Int
        let server: String
        let flow: String
        let url: String
        let redirectURI: String
        let state: String?
        let issuer: String?
        let requiresIssuer: Bool
        let outcome: String
        let fields: [String: String]
        let extra: [String: String]
        var testDescription: String { "#\(index) \(server): \(flow)" }
    }

    static let expectedPerServer: [String: Int] = ["django-oauth-toolkit": 5, "glewlwyd": 5]

    static func loadCases() throws -> [Case] {
        try TestVectors.cases(in: "captured-redirects.json") { entry in
            func map(_ json: JSON?) throws -> [String: String] {
                guard case .object(let members)? = json else { throw entry.error("not an object") }
                var result: [String: String] = [:]
                for (name, value) in members {
                    guard let text = value.string else { throw entry.error(name) }
                    result[name] = text
                }
                return result
            }
            guard let expect = entry["expect"], let outcome = expect["outcome"]?.string else {
                throw entry.error("no expected outcome")
            }
            return Case(
                index: entry.index, server: try entry.string("server"), flow: try entry.string("flow"),
                url: try entry.string("url"), redirectURI: try entry.string("redirect_uri"), state: entry["state"]?.string,
                issuer: entry["issuer"]?.string, requiresIssuer: entry["require_issuer"] == .bool(true), outcome: outcome,
                fields: try map(expect["fields"]), extra: try map(expect["extra"]))
        }
    }

    static func validator(
        for testCase: Case, dialect: Dialect = .oauth2, state: String? = nil, issuer: String? = nil,
        requiresIssuer: Bool? = nil
    ) throws -> CallbackValidator {
        try CallbackValidator(
            redirectURIs: [try RedirectURI(testCase.redirectURI, policy: .native)], policy: .native, dialect: dialect,
            expecting: CallbackExpectations(
                state: state ?? testCase.state, issuer: issuer ?? testCase.issuer,
                requiresIssuer: requiresIssuer ?? testCase.requiresIssuer))
    }

    @Test func theFileHoldsEveryCase() throws {
        let cases = try Self.loadCases()
        let file = try TestVectors.json("captured-redirects.json")
        #expect(file["count"] == .number(Double(cases.count)), "the file's own count is stale")
        #expect(TestVectors.tally(servers: cases.map(\.server), known: Self.expectedPerServer.keys) == Self.expectedPerServer)
        // What makes them worth keeping: a non-ASCII state, a 512-byte one, a percent-encoded iss.
        #expect(cases.contains { $0.state?.utf8.contains { $0 >= 0x80 } == true })
        #expect(cases.contains { $0.state?.utf8.count == 512 })
        #expect(cases.contains { $0.url.contains("iss=http%3A%2F%2F") })
    }

    @Test(arguments: try loadCases())
    func parsesToTheParametersASecondParserReads(_ testCase: Case) throws {
        let url = try CallbackURL(parsing: testCase.url)
        let parameters = url.queryParameters
        for (name, value) in testCase.fields.merging(testCase.extra, uniquingKeysWith: { a, _ in a }) {
            #expect(try parameters.value(named: name) == value, "\(name)")
        }
        #expect(parameters.count == testCase.fields.count + testCase.extra.count)
        #expect(url.fragment == nil)
    }

    @Test(arguments: try loadCases())
    func classifiesAsTheServerMeantIt(_ testCase: Case) throws {
        for dialect in [Dialect.oauth2, .auto] {
            let outcome = try Self.validator(for: testCase, dialect: dialect).validate(testCase.url)
            #expect(outcome.kind.rawValue == testCase.outcome, "\(dialect)")
            #expect(Dictionary(uniqueKeysWithValues: outcome.fields.map { ($0.name, $0.value) }) == testCase.fields, "\(dialect)")
            #expect(Dictionary(uniqueKeysWithValues: outcome.extra.map { ($0.name, $0.value) }) == testCase.extra, "\(dialect)")
            #expect(outcome.withheldFields.isEmpty)
            for (name, value) in testCase.fields where name != "error" && value.utf8.count >= 8 {
                #expect(!outcome.description.contains(value), "the description shows \(name)")
            }
        }
    }

    @Test(arguments: try loadCases())
    func refusesItForAnotherLogin(_ testCase: Case) throws {
        let validator = try Self.validator(for: testCase, state: "another-login-state-0123456789")
        expectRefusal(.stateMismatch) { try validator.validate(testCase.url) }
    }

    @Test(arguments: try loadCases().filter { $0.requiresIssuer })
    func refusesItFromAnotherIssuer(_ testCase: Case) throws {
        let validator = try Self.validator(for: testCase, issuer: "https://mix-up.example/oauth")
        expectRefusal(.issuerMismatch) { try validator.validate(testCase.url) }
    }

    /// django-oauth-toolkit 3.4.1 sends iss with a code but not with access_denied: an app
    /// that requires iss refuses that error rather than attribute it to its server.
    @Test(arguments: try loadCases().filter { !$0.requiresIssuer })
    func refusesARedirectWithoutIssWhenIssIsRequired(_ testCase: Case) throws {
        #expect(testCase.issuer != nil, "the server sends iss on its other redirects")
        let validator = try Self.validator(for: testCase, requiresIssuer: true)
        expectRefusal(.issuerMissing) { try validator.validate(testCase.url) }
    }
}
