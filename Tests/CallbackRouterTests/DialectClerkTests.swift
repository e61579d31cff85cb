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

/// Clerk (seed 003 and Clerk's SDKs: clerk-ios `SignIn.handleRedirectCallbackUrl` and
/// `HostedAuth.swift`, clerk-android `SSOService.kt`, clerk-js `authenticateWithTransport.ts`):
/// the native nonce, the failure, transfer and bare callbacks, magic links, hosted auth.
@Suite struct DialectClerkTests {
    static let accepted: [Accepted] = [
        Accepted(
            source: "seed 003 default redirect", url: "com.example.app://callback?rotating_token_nonce=rtn_2b8c4d5e",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk, fields: [Pair("rotating_token_nonce", "rtn_2b8c4d5e")]),
        Accepted(
            source: "hosted auth with a created session",
            url: "com.example.app://callback?rotating_token_nonce=rtn_1&created_session_id=sess_2abc",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk,
            fields: [Pair("rotating_token_nonce", "rtn_1"), Pair("created_session_id", "sess_2abc")]),
        Accepted(
            source: "with state", url: "com.example.app://callback?state=st1&rotating_token_nonce=rtn_1",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk,
            fields: [Pair("state", "st1"), Pair("rotating_token_nonce", "rtn_1")]),
        Accepted(
            source: "picked by auto", url: "com.example.app://callback?rotating_token_nonce=rtn_1",
            kind: .rotatingTokenNonce, decided: .clerk, fields: [Pair("rotating_token_nonce", "rtn_1")]),
        Accepted(
            source: "a status other than failed next to the nonce says nothing",
            url: "myapp://sso-callback?rotating_token_nonce=rtn_1&__clerk_status=ok",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk,
            fields: [Pair("rotating_token_nonce", "rtn_1")], extra: [Pair("__clerk_status", "ok")]),
        Accepted(
            source: "cancelled or denied (clerk-js)",
            url: "myapp://callback?__clerk_status=failed&__clerk_error_code=oauth_access_denied", dialect: .clerk,
            kind: .clerkFailure, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "oauth_access_denied")]),
        Accepted(
            source: "another code is normalised, never shown",
            url: "myapp://callback?__clerk_status=failed&__clerk_error_code=%3Cscript%3E%E2%80%AEx", dialect: .clerk,
            kind: .clerkFailure, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "oauth_callback_failed")]),
        Accepted(
            source: "failed without a code", url: "myapp://callback?__clerk_status=failed", dialect: .clerk,
            kind: .clerkFailure, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "oauth_callback_failed")]),
        Accepted(
            source: "failed with an empty code", url: "myapp://callback?__clerk_status=failed&__clerk_error_code=",
            dialect: .clerk, kind: .clerkFailure, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "oauth_callback_failed")]),
        Accepted(
            source: "clerk-android: a code without status", url: "myapp://callback?__clerk_error_code=oauth_access_denied",
            dialect: .clerk, kind: .clerkFailure, decided: .clerk, fields: [Pair("__clerk_error_code", "oauth_access_denied")]),
        Accepted(
            source: "a transfer code without status is a failure, not a transfer",
            url: "myapp://callback?__clerk_error_code=external_account_not_found", dialect: .clerk,
            kind: .clerkFailure, decided: .clerk, fields: [Pair("__clerk_error_code", "oauth_callback_failed")]),
        Accepted(
            source: "sign-in continues as a sign-up",
            url: "myapp://callback?__clerk_status=failed&__clerk_error_code=external_account_not_found", dialect: .clerk,
            kind: .accountTransfer, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "external_account_not_found")]),
        Accepted(
            source: "sign-up continues as a sign-in",
            url: "myapp://callback?__clerk_error_code=external_account_exists&__clerk_status=failed", dialect: .clerk,
            kind: .accountTransfer, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "external_account_exists")]),
        Accepted(
            source: "bare callback", url: "com.example.app://callback", dialect: .clerk, kind: .bareCallback, decided: .clerk,
            fields: []),
        Accepted(
            source: "bare callback with an unknown parameter", url: "com.example.app://callback?utm=1", dialect: .clerk,
            kind: .bareCallback, decided: .clerk, fields: [], extra: [Pair("utm", "1")]),
        Accepted(
            source: "magic link", url: "com.example.app://callback?flow_id=flw_1&approval_token=apt_SECRET", dialect: .clerk,
            kind: .magicLink, decided: .clerk, fields: [Pair("flow_id", "flw_1"), Pair("approval_token", "apt_SECRET")]),
        Accepted(
            source: "magic link in the fragment (clerk-android)",
            url: "com.example.app://callback#flow_id=flw_1&approval_token=apt_2", dialect: .clerk,
            kind: .magicLink, decided: .clerk, fields: [Pair("flow_id", "flw_1"), Pair("approval_token", "apt_2")]),
        Accepted(
            source: "an error on the native callback", url: "myapp://callback?error=access_denied", dialect: .clerk,
            kind: .authorizationError, decided: .clerk, fields: [Pair("error", "access_denied")]),
    ]

    @Test(arguments: accepted)
    func readsEachShape(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    /// No state, no secret: anyone can send one. A nonce and a magic link carry a secret.
    @Test(arguments: accepted)
    func marksWhatAnyoneCanSendUnbound(_ testCase: Accepted) throws {
        let outcome = try classify(testCase.url, testCase.dialect)
        let unbound: Set<OutcomeKind> = [.clerkFailure, .accountTransfer, .bareCallback, .authorizationError]
        #expect(outcome.isUnbound == unbound.contains(outcome.kind))
        #expect(outcome.kind.isProviderFailure == (outcome.kind == .clerkFailure || outcome.kind == .authorizationError))
    }

    static let refused: [Refused] = [
        Refused(
            source: "a session id without nonce", url: "com.example.app://callback?created_session_id=sess_1", dialect: .clerk,
            reason: .missingParameter),
        Refused(source: "empty nonce", url: "com.example.app://callback?rotating_token_nonce=", dialect: .clerk, reason: .invalidParameter),
        Refused(
            source: "session id with a control", url: "com.example.app://callback?rotating_token_nonce=a&created_session_id=%0A",
            dialect: .clerk, reason: .invalidParameter),
        Refused(
            source: "nonce and error", url: "com.example.app://callback?rotating_token_nonce=a&error=x", dialect: .clerk,
            reason: .ambiguousResponse),
        Refused(
            source: "wrong state", url: "com.example.app://callback?rotating_token_nonce=a&state=b", dialect: .clerk,
            expecting: CallbackExpectations(state: "c"), reason: .stateMismatch),
        Refused(
            source: "nonce and a failure (clerk-js: the failure wins; clerk-android: the nonce)",
            url: "myapp://callback?rotating_token_nonce=a&__clerk_status=failed", dialect: .clerk, reason: .ambiguousResponse,
            offset: 40),
        Refused(
            source: "nonce and a failure code", url: "myapp://callback?rotating_token_nonce=a&__clerk_error_code=x", dialect: .clerk,
            reason: .ambiguousResponse),
        Refused(
            source: "nonce and a magic link", url: "myapp://callback?rotating_token_nonce=a&flow_id=f", dialect: .clerk,
            reason: .ambiguousResponse),
        Refused(
            source: "magic link and a failure", url: "myapp://callback?flow_id=f&approval_token=t&__clerk_status=failed",
            dialect: .clerk, reason: .ambiguousResponse),
        Refused(
            source: "magic link and an error", url: "myapp://callback?flow_id=f&approval_token=t&error=x", dialect: .clerk,
            reason: .ambiguousResponse),
        Refused(
            source: "magic link without its token", url: "myapp://callback?flow_id=f", dialect: .clerk, reason: .missingParameter),
        Refused(
            source: "magic link without its flow", url: "myapp://callback?approval_token=t", dialect: .clerk,
            reason: .missingParameter),
        Refused(
            source: "magic link, empty token", url: "myapp://callback?flow_id=f&approval_token=", dialect: .clerk,
            reason: .invalidParameter),
        Refused(
            source: "magic link, token twice", url: "myapp://callback?flow_id=f&approval_token=t&approval_token=u",
            dialect: .clerk, reason: .duplicateParameter),
        Refused(
            source: "magic link half in the query, half in the fragment", url: "myapp://callback?flow_id=f#approval_token=t",
            dialect: .clerk, reason: .parametersInFragment),
        Refused(
            source: "a status no native callback carries", url: "myapp://callback?__clerk_status=verified", dialect: .clerk,
            reason: .unknownStatus, offset: 32),
        Refused(
            source: "failed twice", url: "myapp://callback?__clerk_status=failed&__clerk_status=failed", dialect: .clerk,
            reason: .duplicateParameter),
        Refused(
            source: "a failure in the fragment", url: "myapp://callback#__clerk_status=failed", dialect: .clerk,
            reason: .parametersInFragment),
        Refused(
            source: "a failure with another state", url: "myapp://callback?__clerk_status=failed&state=b", dialect: .clerk,
            expecting: CallbackExpectations(state: "c"), reason: .stateMismatch),
        Refused(
            source: "auto does not read Clerk's failure", url: "myapp://callback?__clerk_status=failed", reason: .missingParameter),
    ]

    @Test(arguments: refused)
    func refusesWhatClerkDoesNotSend(_ testCase: Refused) {
        expectRefused(testCase)
    }

    // MARK: Hosted auth

    static let hosted = CallbackExpectations(state: "st_1", profiles: [.clerkHosted])

    @Test func hostedAuthNeedsTheStateAndTheCreatedSession() throws {
        let outcome = try classify(
            "myapp:///hosted?state=st_1&rotating_token_nonce=n1&created_session_id=sess_1", .clerk, Self.hosted)
        #expect(outcome.kind == .rotatingTokenNonce)
        #expect(outcome.createdSessionID == "sess_1")
        #expect(!outcome.isUnbound)
        expectRefusal(.missingParameter) {
            try classify("myapp:///hosted?state=st_1&rotating_token_nonce=n1", .clerk, Self.hosted)
        }
        expectRefusal(.stateMissing) {
            try classify("myapp:///hosted?rotating_token_nonce=n1&created_session_id=s", .clerk, Self.hosted)
        }
        // Without an expected state (parse without --state) the state must still be there.
        expectRefusal(.stateMissing) {
            try classify(
                "myapp:///hosted?rotating_token_nonce=n1&created_session_id=s", .clerk,
                CallbackExpectations(profiles: [.clerkHosted]))
        }
        expectRefusal(.stateMismatch) {
            try classify("myapp:///hosted?state=other&rotating_token_nonce=n1&created_session_id=s", .clerk, Self.hosted)
        }
        expectRefusal(.duplicateParameter) {
            try classify(
                "myapp:///hosted?state=st_1&rotating_token_nonce=n1&created_session_id=s&created_session_id=s", .clerk,
                Self.hosted)
        }
        // Native OAuth needs neither.
        #expect(try classify("myapp:///hosted?rotating_token_nonce=n1", .clerk).kind == .rotatingTokenNonce)
    }

    @Test func exposesTypedAccessors() throws {
        let outcome = try classify("com.example.app://callback?rotating_token_nonce=N&created_session_id=S", .clerk)
        #expect(outcome.rotatingTokenNonce == "N")
        #expect(outcome.createdSessionID == "S")
        let link = try classify("com.example.app://callback?flow_id=F&approval_token=T", .clerk)
        #expect(link.flowID == "F")
        #expect(link.approvalToken == "T")
        let failure = try classify("com.example.app://callback?__clerk_status=failed&__clerk_error_code=x", .clerk)
        #expect(failure.clerkStatus == "failed")
        #expect(failure.clerkErrorCode == "oauth_callback_failed")
        #expect(Dialect.clerk.isStateless)
        #expect(Dialect.clerk.impliedPolicy == .customSchemeOnly)
    }

    @Test func showsTheNormalisedCodeAndHidesTheApprovalToken() throws {
        let failure = try classify("myapp://cb?__clerk_status=failed&__clerk_error_code=oauth_access_denied", .clerk)
        #expect(failure.description.contains("__clerk_error_code: oauth_access_denied"))
        #expect(failure.description.contains("unbound"))
        let link = try classify("myapp://cb?flow_id=flw_1&approval_token=apt_secret_value", .clerk)
        #expect(!link.description.contains("apt_secret_value"))
        #expect(link.description.contains("approval_token: <redacted, 16 bytes>"))
    }
}
