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

/// Zephr OAuth (seed 002): three statuses, each with its own parameters.
@Suite struct DialectZephrTests {
    static let accepted: [Accepted] = [
        Accepted(
            source: "seed 002 login successful", url: "my-app:/oauthRedirect?action=login&status=success&tracking_id=1234&session_id=1234",
            dialect: .zephr, kind: .loginSuccess, decided: .zephr,
            fields: [Pair("action", "login"), Pair("status", "success"), Pair("session_id", "1234"), Pair("tracking_id", "1234")]),
        Accepted(
            source: "seed 002 partial registration",
            url: "https://myapp.com/oauthredirect?action=register&status=partial&state_key=1234&identifier=user@example.com",
            dialect: .zephr, kind: .partialRegistration, decided: .zephr,
            fields: [
                Pair("action", "register"), Pair("status", "partial"), Pair("state_key", "1234"),
                Pair("identifier", "user@example.com"),
            ]),
        Accepted(
            source: "seed 002 failure", url: "my-app:/oauthRedirect?action=login&status=failure&message=User+denied+access",
            dialect: .zephr, kind: .loginFailure, decided: .zephr,
            fields: [Pair("action", "login"), Pair("status", "failure"), Pair("message", "User denied access")]),
        Accepted(
            source: "failure without a message", url: "my-app:/oauthRedirect?status=failure",
            dialect: .zephr, kind: .loginFailure, decided: .zephr, fields: [Pair("status", "failure")]),
        Accepted(
            source: "non-ASCII message passes (it is text)", url: "my-app:/oauthRedirect?status=failure&message=Acc%C3%A8s+refus%C3%A9",
            dialect: .zephr, kind: .loginFailure, decided: .zephr,
            fields: [Pair("status", "failure"), Pair("message", "Accès refusé")]),
        Accepted(
            source: "message with a line break is withheld",
            url: "my-app:/oauthRedirect?status=failure&message=Denied%0AClick+https://evil.example",
            dialect: .zephr, kind: .loginFailure, decided: .zephr, fields: [Pair("status", "failure")], withheld: ["message"]),
        Accepted(
            source: "message with a bidi override is withheld",
            url: "my-app:/oauthRedirect?status=failure&message=%E2%80%AEtxt.exe",
            dialect: .zephr, kind: .loginFailure, decided: .zephr, fields: [Pair("status", "failure")], withheld: ["message"]),
        Accepted(
            source: "success picked by auto", url: "my-app:/oauthRedirect?status=success&session_id=abc",
            kind: .loginSuccess, decided: .zephr, fields: [Pair("status", "success"), Pair("session_id", "abc")]),
    ]

    @Test(arguments: accepted)
    func readsTheStatus(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    static let refused: [Refused] = [
        Refused(source: "no status", url: "my-app:/oauthRedirect?action=login&session_id=1", dialect: .zephr, reason: .missingParameter),
        Refused(
            source: "unknown status", url: "my-app:/oauthRedirect?action=login&status=pending&session_id=1",
            dialect: .zephr, reason: .unknownStatus, offset: 42),
        Refused(
            source: "status is case-sensitive", url: "my-app:/oauthRedirect?status=Success&session_id=1",
            dialect: .zephr, reason: .unknownStatus),
        Refused(
            source: "success without a session id", url: "my-app:/oauthRedirect?action=login&status=success&tracking_id=1",
            dialect: .zephr, reason: .missingParameter),
        Refused(
            source: "partial without a state key", url: "my-app:/oauthRedirect?action=register&status=partial&identifier=a@b.c",
            dialect: .zephr, reason: .missingParameter),
        Refused(
            source: "empty session id", url: "my-app:/oauthRedirect?status=success&session_id=", dialect: .zephr, reason: .invalidParameter),
        Refused(
            source: "session id with a control", url: "my-app:/oauthRedirect?status=success&session_id=a%1Bb", dialect: .zephr,
            reason: .invalidParameter),
        Refused(source: "empty status", url: "my-app:/oauthRedirect?status=", dialect: .zephr, reason: .unknownStatus),
        Refused(
            source: "success carrying an error", url: "my-app:/oauthRedirect?status=success&session_id=1&error=x",
            dialect: .zephr, reason: .ambiguousResponse),
    ]

    @Test(arguments: refused)
    func refusesWhatZephrDoesNotSay(_ testCase: Refused) {
        expectRefused(testCase)
    }

    /// design.md lists `action` and `status` among `parse`'s top-level fields, and the CLI
    /// prints an outcome's `fields` top-level and its `extra` under `"extra"`: the
    /// classifier is what decides, so it is pinned here for every Zephr outcome.
    @Test(arguments: [
        "my-app:/cb?action=login&status=success&session_id=s&tracking_id=t",
        "my-app:/cb?action=register&status=partial&state_key=k&identifier=u@example.com",
        "my-app:/cb?action=login&status=failure&message=no",
    ])
    func actionAndStatusAreFieldsNotExtras(_ url: String) throws {
        for dialect in [Dialect.zephr, .auto] {
            let outcome = try classify(url, dialect)
            #expect(outcome.dialect == .zephr)
            #expect(outcome.fields.prefix(2).map(\.name) == ["action", "status"], "in design.md's order, first")
            #expect(outcome.value("action") != nil && outcome.value("status") != nil)
            #expect(!outcome.extra.contains { $0.name == "action" || $0.name == "status" })
        }
    }

    @Test func failureIsAProviderFailure() throws {
        let outcome = try classify("my-app:/oauthRedirect?status=failure&message=no", .zephr)
        #expect(outcome.kind.isProviderFailure)
        #expect(outcome.message == "no")
    }

    @Test func exposesTypedAccessors() throws {
        let success = try classify("my-app:/x?status=success&session_id=S&tracking_id=T", .zephr)
        #expect(success.sessionID == "S")
        #expect(success.trackingID == "T")
        let partial = try classify("my-app:/x?status=partial&state_key=K&identifier=u@example.com", .zephr)
        #expect(partial.stateKey == "K")
        #expect(partial.identifier == "u@example.com")
    }

    @Test func isStateless() {
        #expect(Dialect.zephr.isStateless)
    }
}
