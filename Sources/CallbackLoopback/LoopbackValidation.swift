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

/// The receiver's own validation, for a wait that is not tied to a ``CallbackRouter``: the
/// shared ``CallbackValidator`` configured as `callback-router parse --dialect D --state S
/// --redirect-uri <the loopback URI> [--issuer I] [--require-issuer]` configures it, or
/// `parse --logout (--state S | --no-state) --redirect-uri <the loopback URI>` for a logout.
struct LoopbackValidation: Sendable {
    let expectations: LoopbackExpectations
    let redirectURI: RedirectURI
    private let validator: CallbackValidator

    var expectedState: String? { expectations.state }

    /// - Throws: `invalid_configuration` if the redirect URI is not one the native policy
    ///   accepts (it always is: an IP loopback literal or `localhost` with a checked path).
    init(_ expectations: LoopbackExpectations, redirectURI: String, allowLocalhost: Bool = false) throws(CallbackError) {
        if expectations.purpose == .logout && (expectations.issuer != nil || expectations.requiresIssuer) {
            throw CallbackError(
                .invalidConfiguration, "a logout's callback carries no iss: expect no issuer when waiting for a logout")
        }
        self.expectations = expectations
        self.redirectURI = try RedirectURI(redirectURI, policy: .native, allowsLocalhost: allowLocalhost)
        validator = try CallbackValidator(
            redirectURIs: [self.redirectURI], policy: .native, allowsLocalhost: allowLocalhost, dialect: expectations.dialect,
            expecting: CallbackExpectations(
                state: expectations.state, issuer: expectations.issuer,
                requiresIssuer: expectations.requiresIssuer, responseMode: .query, profiles: expectations.profiles))
    }

    /// Validates the callback URL the request makes (`http://127.0.0.1:PORT` + target, or
    /// the form_post body as its query): the single place that decides what a callback means.
    func evaluate(callbackURL text: String) -> LoopbackEvaluation {
        // The tie is read from the raw query, so that a callback refused for its syntax
        // (`code=%FF`, 65 parameters, overlong UTF-8) still ends the wait when it carries
        // this login's state: with the right state it is the provider's final word.
        let tied = expectations.state.map { Self.carries(rawURL: text, state: $0) } ?? false
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text, limits: expectations.limits)
        } catch {
            return refusal(CallbackError(error), tied: tied)
        }
        do {
            let outcome =
                expectations.purpose == .logout
                ? try validator.validateLogout(url, allowingNoState: expectations.state == nil)
                : try validator.validate(url)
            let failure = outcome.kind.isProviderFailure
            return LoopbackEvaluation(
                kind: failure ? .providerFailure : .success, result: .success(outcome),
                providerError: failure ? outcome.value("error") : nil, reason: nil,
                carriesExpectedState: tied)
        } catch {
            return refusal(error, tied: tied)
        }
    }

    private func refusal(_ error: CallbackError, tied: Bool) -> LoopbackEvaluation {
        LoopbackEvaluation(
            kind: .rejected, result: .failure(error), providerError: nil, reason: error.reason,
            carriesExpectedState: tied)
    }

    /// The receiver's own tie rule, independent of what validation concluded: exactly one
    /// `state` in the query of `text` (before any `#`), whose value, percent-decoded (`+` is
    /// a space, as the parser reads a query), equals the expected one in constant time
    /// (``RawState``, the reader the router uses for the same tie).
    static func carries(rawURL text: String, state expected: String) -> Bool {
        RawState.carries(text, state: expected)
    }

    /// Only a callback proven to answer this login ends the wait: one carrying the expected
    /// state (whatever validation concluded: with the right state even a refusal is the
    /// provider's final word), or, when no state is expected, a valid callback.
    func endsWait(_ evaluation: LoopbackEvaluation) -> Bool {
        if expectedState != nil { return evaluation.carriesExpectedState }
        return evaluation.kind != .rejected
    }
}
