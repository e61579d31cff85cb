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

/// `auto`: the dialect is picked from the parameters present, never `ory`.
@Suite struct DialectAutoTests {
    @Test(arguments: [
        ("myapp://cb?code=a&state=s", Dialect.oauth2, OutcomeKind.authorizationCode),
        ("myapp://cb?challenge_token=\(preludeToken("t"))", .prelude, .challengeToken),
        ("myapp://cb?rotating_token_nonce=n", .clerk, .rotatingTokenNonce),
        ("myapp://cb?status=success&session_id=x", .zephr, .loginSuccess),
        ("myapp://cb?status=partial&state_key=x", .zephr, .partialRegistration),
        ("myapp://cb?status=failure", .zephr, .loginFailure),
        ("myapp://cb?error=access_denied", .oauth2, .authorizationError),
    ])
    func picksTheDialectByItsParameters(_ url: String, _ dialect: Dialect, _ kind: OutcomeKind) throws {
        let outcome = try classify(url, .auto)
        #expect(outcome.dialect == dialect)
        #expect(outcome.kind == kind)
        #expect(outcome.dialect != .auto)
    }

    @Test func neverPicksOry() throws {
        #expect(try classify("myapp://callback?code=ory_sec_1").dialect == .oauth2)
        #expect(try classify("myapp://callback?code=ory_sec_1", .ory).dialect == .ory)
    }

    @Test(arguments: [
        ("myapp://cb?code=a&challenge_token=\(preludeToken("t"))", ReasonCode.ambiguousResponse),
        ("myapp://cb?code=a&rotating_token_nonce=n", .ambiguousResponse),
        ("myapp://cb?challenge_token=\(preludeToken("t"))&status=success&session_id=x", .ambiguousResponse),
        ("myapp://cb?error=x&session_id=s", .ambiguousResponse),
        ("myapp://cb?error=x&state_key=s", .ambiguousResponse),
        ("myapp://cb?error=x&created_session_id=s", .ambiguousResponse),
        ("myapp://cb?state=s", .missingParameter),
        ("myapp://cb?session_id=s", .missingParameter),
        ("myapp://cb", .missingParameter),
        ("myapp://cb?status=later", .unknownStatus),
    ])
    func refusesWhatItCannotDecide(_ url: String, _ reason: ReasonCode) {
        #expect(refusal { try classify(url, .auto) }?.reason == reason)
    }

    @Test func dialectNamesRoundTrip() {
        #expect(Dialect.allCases.map(\.rawValue) == ["auto", "oauth2", "prelude", "ory", "zephr", "clerk"])
        for dialect in Dialect.allCases { #expect(Dialect(rawValue: dialect.rawValue) == dialect) }
        #expect(Dialect(rawValue: "OAuth2") == nil)
        #expect(Dialect(rawValue: "") == nil)
        #expect(Dialect.allCases.filter(\.isStateless) == [.prelude, .ory, .zephr, .clerk])
        #expect(Dialect.allCases.filter { $0.impliedPolicy == .customSchemeOnly } == [.prelude, .clerk])
    }

    @Test func outcomeKindsHaveDesignsWireNames() {
        #expect(
            OutcomeKind.allCases.map(\.rawValue) == [
                "authorization_code", "challenge_token", "session_token_exchange_code", "login_success",
                "partial_registration", "login_failure", "rotating_token_nonce", "authorization_error",
                "logout_complete", "clerk_failure", "account_transfer", "bare_callback", "magic_link", "continue_login_flow",
            ])
        #expect(OutcomeKind.allCases.filter(\.isProviderFailure) == [.loginFailure, .authorizationError, .clerkFailure])
    }
}
