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

/// Error responses (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.6), in any dialect.
@Suite struct DialectAuthorizationErrorTests {
    static let standard: [(String, AuthorizationErrorCode)] = [
        ("invalid_request", .invalidRequest), ("unauthorized_client", .unauthorizedClient),
        ("access_denied", .accessDenied), ("unsupported_response_type", .unsupportedResponseType),
        ("invalid_scope", .invalidScope), ("server_error", .serverError),
        ("temporarily_unavailable", .temporarilyUnavailable),
        ("interaction_required", .interactionRequired), ("login_required", .loginRequired),
        ("account_selection_required", .accountSelectionRequired), ("consent_required", .consentRequired),
        ("invalid_request_uri", .invalidRequestURI), ("invalid_request_object", .invalidRequestObject),
        ("request_not_supported", .requestNotSupported), ("request_uri_not_supported", .requestURINotSupported),
        ("registration_not_supported", .registrationNotSupported),
    ]

    @Test func namesEveryStandardCode() {
        #expect(Self.standard.count == 16)
        #expect(AuthorizationErrorCode.standardCodes == Self.standard.map(\.1))
        #expect(Set(AuthorizationErrorCode.standardCodes.map(\.rawValue)) == Set(Self.standard.map(\.0)))
    }

    @Test(arguments: standard)
    func readsEachStandardCode(_ wire: String, _ code: AuthorizationErrorCode) throws {
        let outcome = try classify("com.example.app:/oauth2redirect?error=\(wire)&state=s")
        #expect(outcome.kind == .authorizationError)
        #expect(outcome.error == code)
        #expect(outcome.error?.isStandard == true)
        #expect(outcome.kind.isProviderFailure)
    }

    static let accepted: [Accepted] = [
        Accepted(
            source: "Auth0 user cancelled",
            url:
                "com.example.app://example.us.auth0.com/ios/com.example.app/callback?error=access_denied&error_description=User%20did%20not%20authorize%20the%20request&state=u7OK",
            kind: .authorizationError, decided: .oauth2,
            fields: [
                Pair("state", "u7OK"), Pair("error", "access_denied"),
                Pair("error_description", "User did not authorize the request"),
            ]),
        Accepted(
            source: "GitHub unknown code with error_uri (kept as it came)",
            url:
                "http://127.0.0.1:8765/cb?error=redirect_uri_mismatch&error_description=The+redirect_uri+MUST+match+the+registered+callback+URL+for+this+application.&error_uri=https%3A%2F%2Fdocs.github.com%2Fapps%2Ftroubleshooting%23redirect-uri-mismatch&state=abc",
            kind: .authorizationError, decided: .oauth2,
            fields: [
                Pair("state", "abc"), Pair("error", "redirect_uri_mismatch"),
                Pair("error_description", "The redirect_uri MUST match the registered callback URL for this application."),
                Pair("error_uri", "https://docs.github.com/apps/troubleshooting#redirect-uri-mismatch"),
            ]),
        Accepted(
            source: "Azure AD error_description with CR LF: withheld, outcome stands",
            url:
                "https://login.example.com/cb?error=invalid_request&error_description=AADSTS50011%3a+The+redirect+URI+specified+in+the+request+does+not+match.%0d%0aTrace+ID%3a+0f3c%0d%0aCorrelation+ID%3a+9a1b&state=12345",
            kind: .authorizationError, decided: .oauth2,
            fields: [Pair("state", "12345"), Pair("error", "invalid_request")], withheld: ["error_description"]),
        Accepted(
            source: "error_description with a double quote is outside NQSCHAR",
            url: "myapp://cb?error=access_denied&error_description=say+%22hi%22",
            kind: .authorizationError, decided: .oauth2, fields: [Pair("error", "access_denied")], withheld: ["error_description"]),
        Accepted(
            source: "error_description with non-ASCII is outside NQSCHAR",
            url: "myapp://cb?error=access_denied&error_description=acc%C3%A8s",
            kind: .authorizationError, decided: .oauth2, fields: [Pair("error", "access_denied")], withheld: ["error_description"]),
        Accepted(
            source: "error_uri with a space is withheld",
            url: "myapp://cb?error=access_denied&error_uri=https://a.example/x+y",
            kind: .authorizationError, decided: .oauth2, fields: [Pair("error", "access_denied")], withheld: ["error_uri"]),
        Accepted(
            source: "both texts withheld, in field order",
            url: "myapp://cb?error_uri=a+b&error=x&error_description=%0A",
            kind: .authorizationError, decided: .oauth2, fields: [Pair("error", "x")],
            withheld: ["error_description", "error_uri"]),
        Accepted(
            source: "OIDC prompt=none with iss and session_state",
            url:
                "https://rp.example.com/cb?error=login_required&state=af0ifjsldkj&iss=https%3A%2F%2Fserver.example.com&session_state=abc.def",
            kind: .authorizationError, decided: .oauth2,
            fields: [Pair("state", "af0ifjsldkj"), Pair("iss", "https://server.example.com"), Pair("error", "login_required")],
            extra: [Pair("session_state", "abc.def")]),
        Accepted(
            source: "Clerk dialect error keeps the dialect", url: "com.example.app://callback?error=access_denied",
            dialect: .clerk, kind: .authorizationError, decided: .clerk, fields: [Pair("error", "access_denied")]),
        Accepted(
            source: "Zephr dialect error", url: "my-app:/oauthRedirect?error=server_error",
            dialect: .zephr, kind: .authorizationError, decided: .zephr, fields: [Pair("error", "server_error")]),
        Accepted(
            source: "Ory dialect error", url: "myapp://callback?error=access_denied",
            dialect: .ory, kind: .authorizationError, decided: .ory, fields: [Pair("error", "access_denied")]),
        Accepted(
            source: "empty error_description passes", url: "myapp://cb?error=access_denied&error_description=",
            kind: .authorizationError, decided: .oauth2,
            fields: [Pair("error", "access_denied"), Pair("error_description", "")]),
    ]

    @Test(arguments: accepted)
    func readsTheErrorResponse(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    @Test func keepsAnUnknownCodeAsItCame() throws {
        let outcome = try classify("myapp://cb?error=Invalid+Client%21")
        #expect(outcome.error?.rawValue == "Invalid Client!")
        #expect(outcome.error?.isStandard == false)
    }

    @Test func withholdsTextInsteadOfPassingItThrough() throws {
        let outcome = try classify("myapp://cb?error=access_denied&error_description=a%0D%0Ab")
        #expect(outcome.errorDescription == nil)
        #expect(outcome.value("error_description") == nil)
        #expect(outcome.withheldFields == ["error_description"])
        #expect(!outcome.description.contains("a\r\nb"))
    }

    @Test func refusesAnErrorWhoseStateDoesNotMatch() {
        let error = refusal {
            try classify("myapp://cb?error=access_denied&state=forged", .oauth2, CallbackExpectations(state: "mine"))
        }
        #expect(error?.reason == .stateMismatch)
    }

    @Test func refusesAnErrorWithoutTheExpectedState() {
        let error = refusal { try classify("myapp://cb?error=access_denied", .oauth2, CallbackExpectations(state: "mine")) }
        #expect(error?.reason == .stateMissing)
    }
}
