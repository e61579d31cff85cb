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

@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackLoopback
import CallbackRouter
import CallbackTokens
import Testing

/// login's held page says what the terminal says: signed in only once tokens came.
@Suite struct HeldPageTests {
    @Test func tokensMakeThePageSaySignedIn() {
        let json = JSONValue.object([("outcome", .string("authorization_code")), ("access_token", .string("AT-x"))])
        #expect(HeldPage.ending(for: json, place: "id.example", expectedIssuer: nil) == .signedIn)
    }

    @Test func aCodeWithoutTokensIsNotSignedIn() {
        let json = JSONValue.object([("outcome", .string("authorization_code")), ("code", .string("c-secret"))])
        guard case .failed(let sentence) = HeldPage.ending(for: json, place: "id.example", expectedIssuer: nil) else {
            Issue.record("signed in without tokens")
            return
        }
        #expect(!sentence.contains("c-secret"))
    }

    @Test func aTokenErrorIsTheTerminalsSentence() {
        let json = JSONValue.object([
            ("outcome", .string("token_error")), ("error", .string("invalid_client")), ("code_verifier", .string("v-secret")),
        ])
        let ending = HeldPage.ending(for: json, place: "id.example", expectedIssuer: nil)
        #expect(ending == .failed("The token endpoint refused the code: invalid_client. The terminal says what to do."))
    }

    @Test func aRefusalInTheTokenStepIsTheTerminalsSentence() {
        let json = JSONValue.object([
            ("outcome", .string("rejected")), ("reason", .string("nonce_mismatch")), ("detail", .string("the ID token's nonce differs")),
            ("offset", .null), ("step", .string("id_token")),
        ])
        guard case .failed(let sentence) = HeldPage.ending(for: json, place: "id.example", expectedIssuer: nil) else {
            Issue.record("signed in after a refusal")
            return
        }
        #expect(sentence.hasPrefix("Refused: nonce_mismatch"))
    }

    @Test func theHoldIsOnlyForATokenStep() {
        #expect(HeldPage.configuration(.init(), tokenStep: true).answerHold == LoopbackReceiver.defaultAnswerHold)
        #expect(HeldPage.configuration(.init(), tokenStep: false).answerHold == nil)
    }
}
