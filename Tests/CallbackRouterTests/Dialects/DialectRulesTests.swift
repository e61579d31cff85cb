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

// MARK: - Shared test support for the Dialect*Tests suites

/// One name/value pair as the outcome lists it.
struct Pair: Sendable, Equatable, CustomStringConvertible {
    let name: String
    let value: String
    init(_ name: String, _ value: String) { self.name = name; self.value = value }
    var description: String { "\(name)=\(value)" }
}

/// A callback that must be accepted, and exactly what it must mean.
struct Accepted: Sendable, CustomTestStringConvertible {
    let source: String
    let url: String
    var dialect: Dialect = .auto
    var mode: ResponseMode = .query
    let kind: OutcomeKind
    let decided: Dialect
    /// Known fields in design.md's order.
    let fields: [Pair]
    var extra: [Pair] = []
    var withheld: [String] = []

    var testDescription: String { source }
}

/// A callback that must be refused with this reason.
struct Refused: Sendable, CustomTestStringConvertible {
    let source: String
    let url: String
    var dialect: Dialect = .auto
    var expecting = CallbackExpectations()
    let reason: ReasonCode
    /// The expected byte offset; nil when none applies.
    var offset: Int?? = .none

    var testDescription: String { "\(reason.rawValue): \(source)" }
}

func classify(
    _ url: String, _ dialect: Dialect = .auto,
    _ expecting: CallbackExpectations = CallbackExpectations()
) throws -> CallbackOutcome {
    try CallbackClassifier.classify(CallbackURL(parsing: url), dialect: dialect, expecting: expecting)
}

/// The refusal `body` throws, or nil when it succeeds (or throws something else).
func refusal<T>(_ body: () throws -> T) -> CallbackError? {
    do {
        _ = try body()
        return nil
    } catch let error as CallbackError {
        return error
    } catch {
        return nil
    }
}

func expectAccepted(_ testCase: Accepted, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let outcome = try CallbackClassifier.classify(
        CallbackURL(parsing: testCase.url), dialect: testCase.dialect, expecting: CallbackExpectations(responseMode: testCase.mode))
    #expect(outcome.kind == testCase.kind, sourceLocation: sourceLocation)
    #expect(outcome.dialect == testCase.decided, sourceLocation: sourceLocation)
    #expect(outcome.fields.map { Pair($0.name, $0.value) } == testCase.fields, sourceLocation: sourceLocation)
    #expect(outcome.extra.map { Pair($0.name, $0.value) } == testCase.extra, sourceLocation: sourceLocation)
    #expect(outcome.withheldFields == testCase.withheld, sourceLocation: sourceLocation)
}

func expectRefused(_ testCase: Refused, sourceLocation: SourceLocation = #_sourceLocation) {
    let error = refusal { try classify(testCase.url, testCase.dialect, testCase.expecting) }
    #expect(error?.reason == testCase.reason, "\(String(describing: error))", sourceLocation: sourceLocation)
    if case .some(let offset) = testCase.offset {
        #expect(error?.offset == offset, sourceLocation: sourceLocation)
    }
}

// MARK: - Rules every dialect shares

@Suite struct DialectRulesTests {
    static let refused: [Refused] = [
        // RFC 6749 §3.1: parameters MUST NOT be included more than once.
        Refused(source: "duplicated state", url: "myapp://cb?code=a&state=s1&state=s2", reason: .duplicateParameter, offset: 27),
        Refused(source: "duplicated code", url: "myapp://cb?code=a&code=b", dialect: .oauth2, reason: .duplicateParameter, offset: 18),
        Refused(source: "duplicated name once encoded", url: "myapp://cb?code=a&c%6Fde=b", reason: .duplicateParameter, offset: 18),
        Refused(
            source: "duplicated challenge_token",
            url: "myapp://cb?challenge_token=\(preludeToken("a"))&challenge_token=\(preludeToken("a"))",
            dialect: .prelude, reason: .duplicateParameter),
        Refused(source: "duplicated extra", url: "myapp://cb?code=a&x=1&x=2", reason: .duplicateParameter),
        // code and error together.
        Refused(source: "code with error", url: "myapp://cb?code=a&error=access_denied", reason: .ambiguousResponse),
        Refused(
            source: "error with code, oauth2", url: "myapp://cb?error=access_denied&code=a", dialect: .oauth2, reason: .ambiguousResponse),
        Refused(source: "code with error, ory", url: "myapp://cb?code=a&error=x", dialect: .ory, reason: .ambiguousResponse),
        Refused(source: "code with error, prelude", url: "myapp://cb?code=a&error=x", dialect: .prelude, reason: .ambiguousResponse),
        Refused(
            source: "challenge_token with error", url: "myapp://cb?challenge_token=\(preludeToken("a"))&error=x", dialect: .prelude,
            reason: .ambiguousResponse
        ),
        Refused(source: "nonce with error", url: "myapp://cb?rotating_token_nonce=a&error=x", dialect: .clerk, reason: .ambiguousResponse),
        Refused(source: "status with error", url: "myapp://cb?status=failure&error=x", dialect: .zephr, reason: .ambiguousResponse),
        // RFC 6749 Appendix A: token-like values are VSCHAR (%x20-7E).
        Refused(source: "code with a line feed", url: "myapp://cb?code=a%0Ab&state=s", reason: .invalidParameter, offset: 16),
        Refused(source: "challenge_token with NUL", url: "myapp://cb?challenge_token=%00", reason: .invalidParameter, offset: 27),
        Refused(
            source: "session_id with non-ASCII", url: "myapp://cb?status=success&session_id=%C3%A9", dialect: .zephr,
            reason: .invalidParameter, offset: 37),
        Refused(source: "code with non-ASCII", url: "myapp://cb?code=%C3%A9", reason: .invalidParameter),
        Refused(source: "code with DEL", url: "myapp://cb?code=%7F", reason: .invalidParameter),
        Refused(source: "iss with a tab", url: "myapp://cb?code=a&iss=https://as%09.example", reason: .invalidParameter),
        Refused(source: "error code with a quote", url: "myapp://cb?error=access%22denied", reason: .invalidParameter),
        Refused(source: "error code with a backslash", url: "myapp://cb?error=a%5Cb", reason: .invalidParameter),
        // Empty required values are invalid_parameter (present but malformed), not missing.
        Refused(source: "empty code", url: "myapp://cb?code=&state=s", reason: .invalidParameter, offset: 16),
        Refused(source: "bare code", url: "myapp://cb?code&state=s", reason: .invalidParameter),
        Refused(source: "empty state", url: "myapp://cb?code=a&state=", reason: .invalidParameter),
        Refused(source: "empty error", url: "myapp://cb?error=", reason: .invalidParameter),
        // The implicit grant: tokens in a URL.
        Refused(
            source: "implicit grant in the fragment", url: "myapp://cb#access_token=SlAV32hkKG&token_type=Bearer&state=s",
            reason: .implicitGrantNotSupported, offset: 11),
        Refused(source: "id_token in the fragment", url: "myapp://cb#id_token=eyJ&state=s", reason: .implicitGrantNotSupported),
        Refused(
            source: "hybrid code id_token", url: "myapp://cb?code=a&id_token=eyJ&state=s", reason: .implicitGrantNotSupported, offset: 18),
        Refused(
            source: "access_token in the query", url: "myapp://cb?access_token=x", dialect: .prelude, reason: .implicitGrantNotSupported),
        Refused(
            source: "access_token in fragment mode", url: "myapp://cb#access_token=x",
            expecting: CallbackExpectations(responseMode: .fragment), reason: .implicitGrantNotSupported),
        // Parameters in the wrong component.
        Refused(source: "code in the fragment", url: "myapp://cb#code=a&state=s", reason: .parametersInFragment, offset: 11),
        Refused(source: "code in the fragment, query has others", url: "myapp://cb?x=1#code=a", reason: .parametersInFragment),
        Refused(source: "any data in the fragment", url: "myapp://cb?code=a&state=s#anchor", reason: .parametersInFragment),
        Refused(source: "Facebook marker plus data", url: "myapp://cb?code=a#_=_&code=b", reason: .parametersInFragment),
        Refused(
            source: "code in the query in fragment mode", url: "myapp://cb?code=a#state=s",
            expecting: CallbackExpectations(responseMode: .fragment), reason: .parametersInQuery, offset: 11),
        Refused(
            source: "same name in query and fragment", url: "myapp://cb?tenant=a#code=x&tenant=b",
            expecting: CallbackExpectations(responseMode: .fragment), reason: .duplicateParameter),
        Refused(
            source: "fragment mode, nothing in the fragment", url: "myapp://cb?tenant=a",
            expecting: CallbackExpectations(responseMode: .fragment), reason: .missingParameter),
    ]

    @Test(arguments: refused)
    func refusesWhatBreaksASharedRule(_ testCase: Refused) {
        expectRefused(testCase)
    }

    @Test(arguments: Dialect.allCases)
    func refusesDuplicatedStateInEveryDialect(_ dialect: Dialect) {
        let error = refusal { try classify("myapp://cb?code=a&challenge_token=a&state=x&state=x", dialect) }
        #expect(error?.reason == .duplicateParameter)
        #expect(error?.offset == 44)
    }

    @Test(arguments: Dialect.allCases)
    func refusesTheImplicitGrantInEveryDialect(_ dialect: Dialect) {
        #expect(refusal { try classify("myapp://cb#access_token=x&token_type=Bearer", dialect) }?.reason == .implicitGrantNotSupported)
    }

    @Test(arguments: ["myapp://cb?code=a&state=s#_=_", "myapp://cb?code=a&state=s#", "myapp://cb?code=a&state=s"])
    func ignoresFacebooksMarkerAndAnEmptyFragment(_ url: String) throws {
        let outcome = try classify(url)
        #expect(outcome.kind == .authorizationCode)
        #expect(outcome.extra.isEmpty)
    }

    @Test func acceptsPrintableTokenValuesWithSpaces() throws {
        // VSCHAR includes the space: `+` decodes to one and is a valid code character.
        let outcome = try classify("myapp://cb?code=a+b%21~&state=s")
        #expect(outcome.code == "a b!~")
    }

    @Test func passesExtrasThroughUnchecked() throws {
        let outcome = try classify("myapp://cb?code=a&session_state=x%0Ay&hd=example.com")
        #expect(outcome.extra.map { Pair($0.name, $0.value) } == [Pair("session_state", "x\ny"), Pair("hd", "example.com")])
        #expect(outcome.extraValue("hd") == "example.com")
    }

    @Test func neverShowsABareNameItMayBeTheSecret() throws {
        // `?TOKEN`: the name is all there is, so descriptions and details redact it.
        let outcome = try classify("myapp://cb?code=a&Tok3nV4lu3")
        #expect(outcome.extraValue("Tok3nV4lu3") == "")
        for output in [outcome.description, String(reflecting: outcome)] {
            #expect(!output.contains("V4lu3"), "\(output)")
        }
        let duplicate = refusal { try classify("myapp://cb?code=a&Tok3nV4lu3&Tok3nV4lu3") }
        #expect(duplicate?.reason == .duplicateParameter)
        #expect(duplicate?.detail.contains("V4lu3") == false, "\(String(describing: duplicate))")
        let named = refusal { try classify("myapp://cb?code=a&tenant=1&tenant=2") }
        #expect(named?.detail.contains("'tenant'") == true, "a name with a value is still named")
    }

    @Test func readsTheFragmentInFragmentMode() throws {
        let outcome = try classify(
            "com.example.app:/cb?tenant=a#code=x&state=s", .oauth2,
            CallbackExpectations(state: "s", responseMode: .fragment))
        #expect(outcome.code == "x")
        #expect(outcome.extra.map { Pair($0.name, $0.value) } == [Pair("tenant", "a")])
    }

    // MARK: State

    @Test func acceptsTheExpectedState() throws {
        let outcome = try classify("myapp://cb?code=a&state=af0ifjsldkj", .oauth2, CallbackExpectations(state: "af0ifjsldkj"))
        #expect(outcome.state == "af0ifjsldkj")
    }

    @Test(arguments: [
        ("myapp://cb?code=a", ReasonCode.stateMissing),
        ("myapp://cb?code=a&state=af0ifjsldkk", .stateMismatch),
        ("myapp://cb?code=a&state=af0ifjsldk", .stateMismatch),
        ("myapp://cb?code=a&state=af0ifjsldkjj", .stateMismatch),
        ("myapp://cb?code=a&state=AF0IFJSLDKJ", .stateMismatch),
        // An attacker can forge error responses too: they must carry the right state.
        ("myapp://cb?error=access_denied", .stateMissing),
        ("myapp://cb?error=access_denied&state=forged", .stateMismatch),
        ("myapp://cb?challenge_token=\(preludeToken("t"))", .stateMissing),
    ])
    func refusesAMissingOrDifferentState(_ url: String, _ reason: ReasonCode) {
        let error = refusal { try classify(url, .auto, CallbackExpectations(state: "af0ifjsldkj")) }
        #expect(error?.reason == reason)
    }

    @Test func reportsWhereTheMismatchedStateIs() {
        let error = refusal { try classify("myapp://cb?code=a&state=nope", .oauth2, CallbackExpectations(state: "yes")) }
        #expect(error?.offset == 24)
        #expect(error?.detail.contains("nope") == false)
        #expect(error?.detail.contains("yes") == false)
    }

    // MARK: Issuer (RFC 9207)

    @Test func acceptsTheExpectedIssuer() throws {
        let url = "https://client.example/cb?code=x&state=s&iss=https%3A%2F%2Fhonest.as.example"
        let outcome = try classify(
            url, .oauth2,
            CallbackExpectations(issuer: "https://honest.as.example", requiresIssuer: true))
        #expect(outcome.issuer == "https://honest.as.example")
    }

    @Test(arguments: [
        // RFC 9207 §2.4: simple string comparison, no normalization.
        (
            "myapp://cb?code=x&iss=https%3A%2F%2Fattacker.example", CallbackExpectations(issuer: "https://honest.as.example"),
            ReasonCode.issuerMismatch
        ),
        (
            "myapp://cb?code=x&iss=https%3A%2F%2Fhonest.as.example%2F", CallbackExpectations(issuer: "https://honest.as.example"),
            .issuerMismatch
        ),
        (
            "myapp://cb?code=x&iss=https%3A%2F%2FHONEST.as.example", CallbackExpectations(issuer: "https://honest.as.example"),
            .issuerMismatch
        ),
        ("myapp://cb?code=x", CallbackExpectations(issuer: "https://honest.as.example", requiresIssuer: true), .issuerMissing),
        ("myapp://cb?code=x", CallbackExpectations(requiresIssuer: true), .issuerMissing),
        (
            "myapp://cb?error=access_denied&iss=https%3A%2F%2Fattacker.example", CallbackExpectations(issuer: "https://honest.as.example"),
            .issuerMismatch
        ),
    ])
    func refusesAWrongOrMissingIssuer(_ url: String, _ expecting: CallbackExpectations, _ reason: ReasonCode) {
        #expect(refusal { try classify(url, .oauth2, expecting) }?.reason == reason)
    }

    @Test func acceptsAMissingIssuerWhenNotRequired() throws {
        let outcome = try classify("myapp://cb?code=x", .oauth2, CallbackExpectations(issuer: "https://honest.as.example"))
        #expect(outcome.issuer == nil)
    }

    @Test func checksStateBeforeIssuer() {
        let expecting = CallbackExpectations(state: "s", issuer: "https://a.example", requiresIssuer: true)
        #expect(refusal { try classify("myapp://cb?code=x&state=t", .oauth2, expecting) }?.reason == .stateMismatch)
    }

    @Test func checksTheDialectBeforeTheState() {
        let expecting = CallbackExpectations(state: "s")
        #expect(refusal { try classify("myapp://cb?state=t", .oauth2, expecting) }?.reason == .missingParameter)
    }
}
