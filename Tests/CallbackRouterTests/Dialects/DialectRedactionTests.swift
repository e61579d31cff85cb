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

/// Outcomes print no secret: `description`, `debugDescription` and `dump` show names and
/// lengths, never a code, token, state or id.
@Suite struct DialectRedactionTests {
    /// Every outcome kind, with a recognisable secret in every value.
    static let outcomes: [(String, Dialect)] = [
        ("myapp://cb?code=SECRETcode1&state=SECRETstate1&iss=https://SECRETiss&scope=SECRETextra", .oauth2),
        ("myapp://cb?challenge_token=SECRETheader.SECRETpayloadx.SECRETsign&state=SECRETstate2", .prelude),
        ("myapp://cb?code=SECRETorycode", .ory),
        ("myapp://cb?action=login&status=success&session_id=SECRETsession&tracking_id=SECRETtracking", .zephr),
        ("myapp://cb?status=partial&state_key=SECRETkey&identifier=SECRETuser@example.com", .zephr),
        ("myapp://cb?status=failure&message=SECRETmessage", .zephr),
        ("myapp://cb?rotating_token_nonce=SECRETnonce&created_session_id=SECRETcreated", .clerk),
        ("myapp://cb?error=access_denied&error_description=SECRETdescription&error_uri=https://SECRETuri&state=SECRETstate3", .oauth2),
        ("myapp://cb?error=access_denied&error_description=SECRET%0Awithheld", .oauth2),
        ("myapp://cb?code=c&SECRET/name=1", .oauth2),
        ("myapp://cb?__clerk_status=failed&__clerk_error_code=SECRETcode&x=SECRETextra", .clerk),
        ("myapp://cb?__clerk_status=failed&__clerk_error_code=external_account_not_found&state=SECRETstate4", .clerk),
        ("myapp://cb?x=SECRETvalue", .clerk),
        ("myapp://cb?flow_id=SECRETflow&approval_token=SECRETapproval", .clerk),
        ("myapp://cb#flow_id=SECRETflow2&approval_token=SECRETapproval2", .clerk),
        ("myapp://cb?code=SECRETorycode2&flow=5ec12e70-0b1d-4c2a-8e3f-4a5b6c7d8e9f", .ory),
        ("myapp://cb?flow=5ec12e70-0b1d-4c2a-8e3f-4a5b6c7d8e9f&no_org_ui=SECRETextra", .ory),
    ]

    @Test func coversEveryOutcomeKind() throws {
        let kinds = Set(try Self.outcomes.map { try classify($0.0, $0.1).kind })
        // logout_complete comes only from the router's logout reading (LogoutTests).
        #expect(kinds == Set(OutcomeKind.allCases).subtracting([.logoutComplete]))
    }

    @Test(arguments: outcomes)
    func printsNoSecret(_ url: String, _ dialect: Dialect) throws {
        let outcome = try classify(url, dialect)
        var dumped = ""
        dump(outcome, to: &dumped)
        for text in [
            outcome.description, outcome.debugDescription, dumped, String(describing: outcome),
            String(reflecting: outcome), "\(outcome)",
        ] {
            #expect(!text.contains("SECRET"), "\(text)")
            #expect(text.contains(outcome.kind.rawValue))
        }
    }

    @Test func showsLengthsAndTheErrorCode() throws {
        let outcome = try classify("myapp://cb?code=abcdefghij&state=xyz", .oauth2)
        #expect(
            outcome.description
                == "CallbackOutcome(authorization_code, dialect: oauth2, code: <redacted, 10 bytes>, state: <redacted, 3 bytes>)")
        let failure = try classify("myapp://cb?error=access_denied&error_description=%0A&x=1")
        #expect(
            failure.description
                == "CallbackOutcome(authorization_error, dialect: oauth2, error: access_denied, error_description: <withheld>, extra: [x: <redacted, 1 bytes>])"
        )
    }

    @Test func errorDetailsCarryNoValue() {
        let cases: [(String, CallbackExpectations)] = [
            ("myapp://cb?code=SECRET%0A", CallbackExpectations()),
            ("myapp://cb?code=a&state=SECRETx", CallbackExpectations(state: "SECRETy")),
            // An issuer is public (RFC 9207) and shown on a mismatch; nothing else is.
            (
                "myapp://cb?code=SECRETcode&state=SECRETstate&iss=https%3A%2F%2Fevil.example",
                CallbackExpectations(state: "SECRETstate", issuer: "https://good.example")
            ),
            ("myapp://cb?status=SECRETstatus", CallbackExpectations()),
            ("myapp://cb?SECRET/x=1&SECRET/x=2", CallbackExpectations()),
            ("myapp://cb?code=a#SECRET", CallbackExpectations()),
        ]
        for (url, expecting) in cases {
            let error = refusal { try classify(url, .auto, expecting) }
            #expect(error != nil)
            #expect(error?.detail.contains("SECRET") == false, "\(String(describing: error))")
            #expect(error?.description.contains("SECRET") == false)
        }
    }

    /// `iss` is the one value a detail shows (an issuer identifier is public, RFC 9207):
    /// both issuers, escaped (a backslash too, so an escape reads as one), and no other
    /// value beside them. Controls and non-ASCII never get that far: `iss` is VSCHAR.
    @Test func anIssuerMismatchNamesBothIssuersAndNothingElse() {
        let error = refusal {
            try classify(
                "myapp://cb?code=SECRETcode&state=SECRETstate&iss=https%3A%2F%2Fa.example%2F%5C",
                .auto, CallbackExpectations(state: "SECRETstate", issuer: "https://a.example"))
        }
        #expect(error?.reason == .issuerMismatch)
        #expect(
            error?.detail
                == "the server said https://a.example/\\u{5c}, expected https://a.example (the 'iss' parameter, RFC 9207)")
        #expect(error?.description.contains("SECRET") == false)
    }
}

/// What a route expects holds the expected state: it prints redacted too, alone or inside
/// a validator.
@Suite struct DialectExpectationsRedactionTests {
    @Test func expectationsAndValidatorsPrintNoState() throws {
        let expecting = CallbackExpectations(state: "SECRETstate", issuer: "https://as.example", requiresIssuer: true)
        let validator = try CallbackValidator(redirectURIs: [RedirectURI("myapp://cb")], expecting: expecting)
        var dumped = ""
        dump(validator, to: &dumped)
        dump(expecting, to: &dumped)
        for text in [
            expecting.description, expecting.debugDescription, String(describing: validator),
            String(reflecting: validator), dumped,
        ] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
        #expect(
            expecting.description
                == "CallbackExpectations(state: <redacted, 11 bytes>, issuer: https://as.example, requiresIssuer: true, responseMode: query)"
        )
    }
}
