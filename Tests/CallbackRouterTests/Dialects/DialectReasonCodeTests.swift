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

/// Every reason code the policy and meaning layers can give, produced through the one
/// entry point the router and the CLI use (``CallbackValidator``).
@Suite struct DialectReasonCodeTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let reason: ReasonCode
        let callback: String
        var redirectURIs: [String] = []
        var policy: RedirectURIPolicy = .native
        var dialect: Dialect = .auto
        var expecting = CallbackExpectations()
        var testDescription: String { reason.rawValue }
    }

    static let examples: [Example] = [
        Example(reason: .invalidConfiguration, callback: "myapp://cb?code=x", redirectURIs: ["http://example.com/cb"]),
        Example(reason: .schemeNotAllowed, callback: "https://app.example.com/cb?code=x", policy: .customSchemeOnly),
        Example(reason: .redirectURIMismatch, callback: "myapp://other?code=x", redirectURIs: ["myapp://cb"]),
        Example(reason: .userinfoNotAllowed, callback: "myapp://user@cb?code=x", redirectURIs: ["myapp://cb"]),
        Example(reason: .duplicateParameter, callback: "myapp://cb?code=x&code=y"),
        Example(reason: .missingParameter, callback: "myapp://cb?state=s", dialect: .oauth2),
        Example(reason: .invalidParameter, callback: "myapp://cb?code=%0A"),
        Example(reason: .ambiguousResponse, callback: "myapp://cb?code=x&error=access_denied"),
        Example(reason: .parametersInFragment, callback: "myapp://cb#code=x"),
        Example(reason: .parametersInQuery, callback: "myapp://cb?code=x", expecting: CallbackExpectations(responseMode: .fragment)),
        Example(reason: .implicitGrantNotSupported, callback: "myapp://cb#access_token=x"),
        Example(reason: .unknownStatus, callback: "myapp://cb?status=pending", dialect: .zephr),
        Example(reason: .stateMissing, callback: "myapp://cb?code=x", expecting: CallbackExpectations(state: "s")),
        Example(reason: .stateMismatch, callback: "myapp://cb?code=x&state=t", expecting: CallbackExpectations(state: "s")),
        Example(reason: .issuerMissing, callback: "myapp://cb?code=x", expecting: CallbackExpectations(requiresIssuer: true)),
        Example(
            reason: .issuerMismatch, callback: "myapp://cb?code=x&iss=https://a.example",
            expecting: CallbackExpectations(issuer: "https://b.example")),
    ]

    /// design.md's policy and meaning codes, `duplicate_parameter`, and the proposed
    /// `parameters_in_query`: what this layer produces (the parser and the router give the rest).
    static let producedHere: Set<ReasonCode> = [
        .invalidConfiguration, .schemeNotAllowed, .redirectURIMismatch, .userinfoNotAllowed, .duplicateParameter,
        .missingParameter, .invalidParameter, .ambiguousResponse, .parametersInFragment, .parametersInQuery,
        .implicitGrantNotSupported, .unknownStatus, .stateMissing, .stateMismatch, .issuerMissing, .issuerMismatch,
    ]

    @Test func everyCodeOfThisLayerHasAnExample() {
        #expect(Self.examples.count == 16)
        #expect(Set(Self.examples.map(\.reason)) == Self.producedHere)
        // design.md's "Policy" and "Meaning" groups: from invalid_configuration to issuer_mismatch.
        let all = ReasonCode.allCases
        let first = all.firstIndex(of: .invalidConfiguration) ?? all.endIndex
        let last = all.firstIndex(of: .issuerMismatch) ?? all.startIndex
        #expect(last - first == 13)
        #expect(Set(all[first ... max(first, last)]).isSubset(of: Self.producedHere))
    }

    @Test(arguments: examples)
    func producesTheCode(_ example: Example) {
        let error = refusal {
            let redirects = try example.redirectURIs.map { try RedirectURI($0, policy: example.policy) }
            return try CallbackValidator(
                redirectURIs: redirects, policy: example.policy, dialect: example.dialect,
                expecting: example.expecting
            ).validate(example.callback)
        }
        #expect(error?.reason == example.reason, "\(String(describing: error))")
    }
}
