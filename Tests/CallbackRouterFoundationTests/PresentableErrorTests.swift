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

import CallbackLoopback
import Foundation
import Testing
@testable import CallbackRouterFoundation

#if !os(tvOS) && !os(watchOS)
import CallbackDesktop
#endif

// What an app writes to bridge the errors of the module CallbackRouterFoundation does not
// depend on (docs/errors.md): the text, the code and the domain are their own properties.
// (An app outside this package writes `@retroactive PresentableError`; LoopbackError
// conforms in CallbackRouterFoundation itself.)

#if !os(tvOS) && !os(watchOS)
extension DesktopError: PresentableError {}
#endif

/// The NSError codes of the reason codes, as published in docs/errors.md: a number, once
/// given, never changes. A new reason code needs a row here and in `ReasonCode.presentation`.
private let publishedReasonNumbers: [(String, Int)] = [
    ("empty_input", 1), ("too_long", 2), ("invalid_character", 3), ("invalid_scheme", 4),
    ("relative_reference", 5), ("invalid_authority", 6), ("invalid_host", 7), ("invalid_port", 8),
    ("invalid_percent_encoding", 9), ("invalid_utf8", 10), ("too_many_parameters", 11),
    ("duplicate_parameter", 12), ("invalid_configuration", 13), ("scheme_not_allowed", 14),
    ("redirect_uri_mismatch", 15), ("userinfo_not_allowed", 16), ("missing_parameter", 17),
    ("invalid_parameter", 18), ("ambiguous_response", 19), ("parameters_in_fragment", 20),
    ("implicit_grant_not_supported", 21), ("unknown_status", 22), ("state_missing", 23),
    ("state_mismatch", 24), ("issuer_missing", 25), ("issuer_mismatch", 26), ("unknown_state", 27),
    ("replayed", 28), ("attempt_expired", 29), ("conflict", 30), ("cancelled", 31), ("timeout", 32),
    ("no_route", 33), ("parameters_in_query", 34), ("invalid_record", 35),
    ("unsupported_token_type", 36), ("nonce_mismatch", 37), ("audience_mismatch", 38),
    ("token_expired", 39), ("token_hash_mismatch", 40), ("unsupported_algorithm", 41),
    ("subject_mismatch", 42), ("auth_time_mismatch", 43),
]

@Suite struct ErrorCategoryCompletenessTests {
    @Test func everyKnownReasonCodeHasANumberAndACategory() {
        for code in ReasonCode.allCases {
            #expect(code.presentation != nil, "\(code) has no row in ReasonCode.presentation (docs/errors.md)")
        }
    }

    @Test func noTwoReasonCodesShareANumber() {
        let numbers = ReasonCode.allCases.map(\.errorCode)
        #expect(Set(numbers).count == numbers.count)
        #expect(!numbers.contains(0))
    }

    @Test func theNumbersAreThePublishedOnes() {
        #expect(publishedReasonNumbers.count == ReasonCode.allCases.count, "a code without a published number")
        for (name, number) in publishedReasonNumbers {
            #expect(ReasonCode(rawValue: name).errorCode == number, "\(name)")
        }
    }

    @Test func anUnknownCodeIsNumberZeroAndUnsafeAndStillPresentable() {
        let error = CallbackError(ReasonCode(rawValue: "added_later"), "something new")
        #expect(error.errorCode == 0)
        #expect(error.category == .unsafe)
        #expect(error.errorDescription?.contains("added_later") == true)
    }

    @Test func theCategoriesAreTheClosedSetAppsSwitchOver() {
        #expect(CallbackErrorCategory.allCases == [.cancelled, .timedOut, .providerRefused, .unsafe, .misconfigured, .network])
        #expect(ReasonCode.cancelled.category == .cancelled)
        #expect(ReasonCode.timeout.category == .timedOut)
        #expect(ReasonCode.stateMismatch.category == .unsafe)
        #expect(ReasonCode.invalidConfiguration.category == .misconfigured)
    }
}

@Suite struct PresentableErrorTests {
    /// The Foundation face of an error: what an app's alert shows.
    private func expectBridged(
        _ error: any Error, domain: String, code: Int, mentions words: [String], suggests: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let bridged = error as NSError
        #expect(bridged.domain == domain, sourceLocation: sourceLocation)
        #expect(bridged.code == code, sourceLocation: sourceLocation)
        let description = error.localizedDescription
        #expect(!description.contains("could not be completed"), "\(description)", sourceLocation: sourceLocation)
        #expect(bridged.userInfo[NSLocalizedDescriptionKey] as? String == description, sourceLocation: sourceLocation)
        for word in words {
            #expect(description.contains(word), "\(description) lacks \(word)", sourceLocation: sourceLocation)
        }
        if suggests {
            #expect(bridged.localizedRecoverySuggestion?.isEmpty == false, sourceLocation: sourceLocation)
        }
    }

    @Test func aCallbackErrorIsLocalizedWithItsDomainAndCode() {
        let error = CallbackError(.stateMismatch, "the state is not the expected one")
        expectBridged(error, domain: "CallbackRouter.CallbackError", code: 24, mentions: ["refused as unsafe", "state_mismatch"])
        #expect((error as NSError).localizedRecoverySuggestion == error.recoverySuggestion)
    }

    @Test func aParseErrorIsLocalizedWithItsDomainAndCode() throws {
        do {
            _ = try CallbackURL(parsing: "com.example.app:/cb?code=%ZZ")
            Issue.record("parsed")
        } catch {
            expectBridged(error, domain: "CallbackParsing.ParseError", code: 9, mentions: ["invalid_percent_encoding"])
            #expect(error.category == .unsafe)
        }
    }

    @Test func aTokenErrorShowsOurSentenceNotTheServersText() throws {
        let body = Array(#"{"error":"invalid_grant","error_description":"Call +1-555-0100 to unlock"}"#.utf8)
        guard case .error(let error) = try TokenResponse(status: 400, body: body) else {
            Issue.record("not an error response")
            return
        }
        expectBridged(error, domain: "CallbackRouter.TokenError", code: 3, mentions: ["invalid_grant", "HTTP 400"])
        #expect(!error.localizedDescription.contains("555"))
        #expect(error.errorDescription == "Call +1-555-0100 to unlock") // still there, as the server's text
        #expect(error.category == .providerRefused)
    }

    @Test func aLoopbackErrorBridgesAsTheDocsShow() throws {
        let first = try LoopbackReceiver(.init())
        do {
            _ = try LoopbackReceiver(.init(ports: [first.port]))
            Issue.record("bound a taken port")
        } catch {
            expectBridged(error, domain: "CallbackLoopback.LoopbackError", code: 1, mentions: ["address_in_use", "\(first.port)"])
            #expect(error.category == .network)
        }
    }

    #if !os(tvOS) && !os(watchOS)
    @Test func aDesktopErrorBridgesAsTheDocsShow() {
        let error = DesktopError(.noReceiver, message: "nobody is waiting for this callback")
        expectBridged(error, domain: "CallbackDesktop.DesktopError", code: 8, mentions: ["nobody is waiting", "no_receiver"])
        #expect(error.category == .misconfigured)
    }
    #endif

    @Test func everyCategoryIsSwitchedOverWithoutADefault() {
        func message(for error: CallbackError) -> String? {
            switch error.category {
            case .cancelled: nil
            case .timedOut, .network: "try again"
            case .providerRefused: error.errorDescription
            case .unsafe: "start again from the app"
            case .misconfigured: "tell the developers"
            }
        }
        #expect(message(for: CallbackError(.cancelled, "the user closed the page")) == nil)
        #expect(message(for: CallbackError(.timeout, "nothing came")) == "try again")
    }
}

/// Errors made from inputs that carry secrets: no secret reaches what a person is shown.
@Suite struct PresentableErrorSecrecyTests {
    static let secretState = "st4te-SECRET-0123456789abcdefghij"
    static let secretCode = "c0de-SECRET-0123456789abcdefghij"

    private func router() throws -> (CallbackRouter, LoginAttempt) {
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        let router = try builder.build()
        return (router, try router.beginLogin(on: "app"))
    }

    /// Every error of the table, made by the real API from secret-carrying input.
    private func errorsCarryingSecrets() throws -> [(String, any Error, [String])] {
        var errors: [(String, any Error, [String])] = []
        func record(_ name: String, secrets: [String], _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("\(name) was not refused")
            } catch { errors.append((name, error, secrets)) }
        }
        let (router, attempt) = try router()
        let base = "com.example.app:/oauth2redirect"
        record("unknown state", secrets: [Self.secretState, Self.secretCode]) {
            _ = try router.handle(try #require(URL(string: "\(base)?code=\(Self.secretCode)&state=\(Self.secretState)")))
        }
        let genuine = try #require(URL(string: "\(base)?code=\(Self.secretCode)&state=\(attempt.state)"))
        _ = try router.handle(genuine)
        record("replayed", secrets: [attempt.state, Self.secretCode]) { _ = try router.handle(genuine) }
        record("duplicate parameter", secrets: [Self.secretCode]) {
            _ = try CallbackURL(parsing: "\(base)?code=\(Self.secretCode)&code=\(Self.secretCode)%ZZ")
        }
        record("token type", secrets: [Self.secretCode]) {
            let body = #"{"access_token":"\#(Self.secretCode)","token_type":"\#(Self.secretState)"}"#
            _ = try TokenResponse(status: 200, body: Array(body.utf8))
        }
        let secretErrorCode = "x\(Self.secretCode)!"
        let body = #"{"error":"\#(secretErrorCode)","error_description":"\#(Self.secretState)"}"#
        if case .error(let error) = try TokenResponse(status: 400, body: Array(body.utf8)) {
            errors.append(("token error", error, [secretErrorCode, Self.secretState]))
        } else {
            Issue.record("not an error response")
        }
        return errors
    }

    @Test func noSecretInWhatAPersonIsShown() throws {
        let errors = try errorsCarryingSecrets()
        #expect(errors.count == 5)
        for (name, error, secrets) in errors {
            let bridged = error as NSError
            let shown = [error.localizedDescription, bridged.localizedRecoverySuggestion ?? "", "\(bridged.userInfo)", "\(error)"]
            for text in shown {
                for secret in secrets {
                    #expect(!text.contains(secret), "\(name) shows a secret: \(text)")
                }
                #expect(!text.contains("SECRET"), "\(name): \(text)")
            }
        }
    }
}
