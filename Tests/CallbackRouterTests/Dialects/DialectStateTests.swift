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

/// A state is the client's own opaque value echoed back (design.md): it is judged by
/// equality with what the client sent, byte for byte, never by its characters. Only an
/// empty state, bad percent-encoding and bad UTF-8 are refused for what they are.
/// Codes, tokens and session ids keep RFC 6749's VSCHAR rule.
@Suite struct DialectStateTests {
    /// States a client may choose, each as a server echoes it (percent-encoded UTF-8).
    static let opaqueStates: [(state: String, encoded: String)] = [
        ("état-✓-東京", "%C3%A9tat-%E2%9C%93-%E6%9D%B1%E4%BA%AC"),
        ("a b", "a+b"),
        ("line\r\nbreak", "line%0D%0Abreak"),
        ("nul\u{0}inside", "nul%00inside"),
        ("\u{202E}reversed", "%E2%80%AEreversed"),
        ("emoji 🔐", "emoji%20%F0%9F%94%90"),
    ]

    @Test(arguments: opaqueStates)
    func acceptsAStateEqualToTheExpectedOneWhateverItsCharacters(_ example: (state: String, encoded: String)) throws {
        for dialect in [Dialect.oauth2, .auto, .clerk] {
            let body = dialect == .clerk ? "rotating_token_nonce=n" : "code=c"
            let url = "myapp://cb?\(body)&state=\(example.encoded)"
            let outcome = try classify(url, dialect, CallbackExpectations(state: example.state))
            #expect(outcome.state == example.state, "dialect \(dialect)")
            // Without an expected state it is not refused either: the characters alone never decide.
            #expect(try classify(url, dialect).state == example.state)
        }
    }

    @Test(arguments: opaqueStates)
    func refusesAStateThatDiffersByOneByteAsAMismatch(_ example: (state: String, encoded: String)) {
        let error = refusal {
            try classify(
                "myapp://cb?code=c&state=\(example.encoded)x", .oauth2,
                CallbackExpectations(state: example.state))
        }
        #expect(error?.reason == .stateMismatch)
    }

    @Test func anErrorResponseCarriesANonASCIIStateToo() throws {
        let outcome = try classify(
            "myapp://cb?error=access_denied&state=%C3%A9tat-%E2%9C%93-%E6%9D%B1%E4%BA%AC", .oauth2,
            CallbackExpectations(state: "état-✓-東京"))
        #expect(outcome.kind == .authorizationError)
        #expect(outcome.state == "état-✓-東京")
    }

    @Test func anEmptyStateIsStillRefused() {
        for url in ["myapp://cb?code=c&state=", "myapp://cb?code=c&state"] {
            let error = refusal { try classify(url, .oauth2) }
            #expect(error?.reason == .invalidParameter, "\(url)")
            #expect(error?.detail.contains("'state' is empty") == true)
        }
    }

    @Test(arguments: [
        ("myapp://cb?code=c&state=%C3", ReasonCode.invalidUTF8),
        ("myapp://cb?code=c&state=%FF%FE", .invalidUTF8),
        ("myapp://cb?code=c&state=%zz", .invalidPercentEncoding),
        ("myapp://cb?code=c&state=%E2%80", .invalidUTF8),
    ])
    func badEncodingOfAStateIsStillAParseError(_ url: String, _ reason: ReasonCode) {
        do {
            _ = try CallbackURL(parsing: url)
            Issue.record("\(url) parsed")
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test(arguments: [
        ("myapp://cb?code=%C3%A9&state=s", "code"),
        ("myapp://cb?rotating_token_nonce=n&created_session_id=%0A&state=s", "created_session_id"),
        ("myapp://cb?status=partial&state_key=%C3%A9", "state_key"),
    ])
    func tokensKeepTheVSCHARRule(_ url: String, _ name: String) {
        let error = refusal { try classify(url) }
        #expect(error?.reason == .invalidParameter)
        #expect(error?.detail.contains("'\(name)'") == true)
        #expect(error?.detail.contains("VSCHAR") == true)
    }

    @Test func descriptionsRedactANonASCIIState() throws {
        let state = "état-✓-東京"
        let url = "myapp://cb?code=c&state=%C3%A9tat-%E2%9C%93-%E6%9D%B1%E4%BA%AC"
        let outcome = try classify(url, .oauth2, CallbackExpectations(state: state))
        let expecting = CallbackExpectations(state: state)
        var dumped = ""
        dump(outcome, to: &dumped)
        for text in [
            outcome.description, outcome.debugDescription, dumped, expecting.description,
            "\(outcome)", String(reflecting: outcome),
        ] {
            #expect(
                !text.contains("état") && !text.contains("✓") && !text.contains("東京") && !text.contains("%C3%A9"),
                "\(text)")
        }
        let mismatch = refusal { try classify(url + "x", .oauth2, expecting) }
        #expect(mismatch?.reason == .stateMismatch)
        #expect(mismatch.map { !$0.description.contains("état") && !$0.description.contains("東京") } == true)
    }

    /// The router looks attempts up by state; a non-ASCII state no attempt has is an
    /// unknown state (a lifecycle answer), not a refusal of its characters.
    @Test func theRouterAnswersANonASCIIStateByLookingItUp() throws {
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try RedirectURI("com.example.app:/cb"), dialect: .oauth2))
        let router = try builder.build(clock: ManualAttemptClock())
        _ = try router.beginLogin(on: "app")
        let error = refusal { try router.handle("com.example.app:/cb?code=c&state=%C3%A9tat-%E2%9C%93-%E6%9D%B1%E4%BA%AC") }
        #expect(error?.reason == .unknownState)
        #expect(router.pendingCount == 1)
    }
}
