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

/// What one callback request means, and whether it belongs to this login.
struct LoopbackEvaluation: Sendable {
    enum Kind: Sendable, Equatable {
        case success
        case providerFailure
        case rejected
    }

    let kind: Kind
    /// The validated outcome, or the refusal: exactly what `callback-router parse` decides.
    let result: Result<CallbackOutcome, CallbackError>
    /// The provider's `error` value, for the page (shown only when it is a plain token).
    let providerError: String?
    /// The refusal's reason code, for the log.
    let reason: ReasonCode?
    /// The callback carries exactly one `state`, equal (in constant time) to the expected one.
    let carriesExpectedState: Bool
}

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
    /// a space, as the parser reads a query), equals the expected one in constant time.
    /// Read from the raw bytes, so the rest of the query may be anything the parser refuses;
    /// a `state` that does not decode, or two of them, is no tie.
    static func carries(rawURL text: String, state expected: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return false }
        let end = bytes[question...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var value: [UInt8]?
        var count = 0
        for pair in bytes[(question + 1) ..< end].split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard let name = percentDecoded(pair[..<equals]), name.elementsEqual("state".utf8) else { continue }
            count += 1
            value = equals == pair.endIndex ? [] : percentDecoded(pair[(equals + 1)...])
        }
        guard count == 1, let value else { return false }
        return constantTimeEquals(value, expected.utf8)
    }

    /// `%XX` and `+` decoded; nil for a `%` not followed by two hex digits.
    private static func percentDecoded(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Only a callback proven to answer this login ends the wait: one carrying the expected
    /// state (whatever validation concluded: with the right state even a refusal is the
    /// provider's final word), or, when no state is expected, a valid callback.
    func endsWait(_ evaluation: LoopbackEvaluation) -> Bool {
        if expectedState != nil { return evaluation.carriesExpectedState }
        return evaluation.kind != .rejected
    }
}
