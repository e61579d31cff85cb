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
            source: "magic link split: the flow in the query, the token in the fragment (clerk-ios and clerk-android)",
            url: "com.example.app://callback?flow_id=flw_1#approval_token=apt_3", dialect: .clerk,
            kind: .magicLink, decided: .clerk, fields: [Pair("flow_id", "flw_1"), Pair("approval_token", "apt_3")]),
        Accepted(
            source: "magic link split, an extra in the query", url: "com.example.app://callback?flow_id=flw_1&utm=1#approval_token=apt_3",
            dialect: .clerk, kind: .magicLink, decided: .clerk, fields: [Pair("flow_id", "flw_1"), Pair("approval_token", "apt_3")],
            extra: [Pair("utm", "1")]),
        Accepted(
            source: "an empty nonce is no nonce (clerk-js, clerk-android): a bare callback",
            url: "com.example.app://callback?rotating_token_nonce=", dialect: .clerk, kind: .bareCallback, decided: .clerk,
            fields: [], extra: [Pair("rotating_token_nonce", "")]),
        Accepted(
            source: "an empty nonce, picked by auto", url: "com.example.app://callback?rotating_token_nonce=", kind: .bareCallback,
            decided: .clerk, fields: [], extra: [Pair("rotating_token_nonce", "")]),
        Accepted(
            source: "an empty nonce next to a failure: the failure",
            url: "myapp://callback?rotating_token_nonce=&__clerk_status=failed&__clerk_error_code=oauth_access_denied", dialect: .clerk,
            kind: .clerkFailure, decided: .clerk,
            fields: [Pair("__clerk_status", "failed"), Pair("__clerk_error_code", "oauth_access_denied")],
            extra: [Pair("rotating_token_nonce", "")]),
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
        Refused(
            source: "an empty nonce is none: a session id without nonce",
            url: "com.example.app://callback?rotating_token_nonce=&created_session_id=sess_1", dialect: .clerk,
            reason: .missingParameter),
        Refused(
            source: "an empty nonce is none: hosted auth requires one", url: "myapp:///hosted?state=st_1&rotating_token_nonce=",
            dialect: .clerk, expecting: CallbackExpectations(state: "st_1", profiles: [.clerkHosted]), reason: .missingParameter),
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
            source: "magic link, empty token: none, to both SDKs", url: "myapp://callback?flow_id=f&approval_token=", dialect: .clerk,
            reason: .missingParameter),
        Refused(
            source: "magic link, whitespace-only token (clerk-ios trims it, clerk-android isNullOrBlank)",
            url: "com.example.app://callback?flow_id=flw_1&approval_token=%20%20", dialect: .clerk, reason: .missingParameter),
        Refused(
            source: "magic link, a token of tabs and line breaks", url: "com.example.app://callback?flow_id=flw_1&approval_token=%09%0D%0A",
            dialect: .clerk, reason: .missingParameter),
        Refused(
            source: "magic link, whitespace-only flow id", url: "com.example.app://callback?flow_id=+&approval_token=apt_1",
            dialect: .clerk, reason: .missingParameter),
        Refused(
            source: "magic link split, whitespace-only token in the fragment",
            url: "com.example.app://callback?flow_id=flw_1#approval_token=%20", dialect: .clerk, reason: .missingParameter),
        Refused(
            source: "magic link, token twice", url: "myapp://callback?flow_id=f&approval_token=t&approval_token=u",
            dialect: .clerk, reason: .duplicateParameter),
        Refused(
            source: "magic link split the other way: the token in the query, the flow in the fragment",
            url: "myapp://callback?approval_token=t#flow_id=f", dialect: .clerk, reason: .parametersInFragment),
        Refused(
            source: "magic link split, the fragment carrying more than the token",
            url: "myapp://callback?flow_id=f#approval_token=t&x=1", dialect: .clerk, reason: .parametersInFragment),
        Refused(
            source: "magic link split, the token in both", url: "myapp://callback?flow_id=f&approval_token=t#approval_token=t",
            dialect: .clerk, reason: .parametersInFragment),
        Refused(
            source: "magic link split on another dialect", url: "myapp://callback?flow_id=f#approval_token=t", dialect: .oauth2,
            reason: .parametersInFragment),
        Refused(
            source: "magic link split next to a nonce", url: "myapp://callback?flow_id=f&rotating_token_nonce=n#approval_token=t",
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

    // MARK: Magic links through the router and the validator

    static func magicLinkRouter() throws -> CallbackRouter {
        var builder = RouterBuilder()
        builder.add(Route("clerk", redirectURI: try RedirectURI("com.clerk.Quickstart://callback"), dialect: .clerk))
        return try builder.build(clock: ManualAttemptClock())
    }

    /// clerk-ios `MagicLinkTests.routeMatcherAcceptsConfiguredCustomSchemeCallbacks`: `…://callback/?…`
    /// answers `…://callback` (and the reverse); `…://callback/extra`, `…:/callback` and another
    /// host do not; the split link and the trailing slash reach the pending attempt.
    @Test func aMagicLinkMayAddASlashToAnEmptyPath() throws {
        let validator = try CallbackValidator(
            redirectURIs: [try RedirectURI("com.clerk.Quickstart://callback")], policy: .customSchemeOnly, dialect: .clerk)
        let link = "?flow_id=flow_123&approval_token=approval_123"
        #expect(try validator.validate("com.clerk.Quickstart://callback/" + link).kind == .magicLink)
        #expect(try validator.validate("com.clerk.Quickstart://CALLBACK/" + link).kind == .magicLink)
        #expect(try validator.validate("com.clerk.Quickstart://callback/?flow_id=flow_123#approval_token=approval_123").kind == .magicLink)
        for other in [
            "com.clerk.Quickstart://callback/extra", "com.clerk.Quickstart:/callback", "com.clerk.Quickstart://wrong",
            "com.clerk.Quickstart://callback//", "com.clerk.Other://callback/",
        ] {
            expectRefusal(.redirectURIMismatch) { try validator.validate(other + link) }
        }
        // The reverse: registered with the slash, the link without it.
        let slashed = try CallbackValidator(
            redirectURIs: [try RedirectURI("com.clerk.Quickstart://callback/")], policy: .customSchemeOnly, dialect: .clerk)
        #expect(try slashed.validate("com.clerk.Quickstart://callback" + link).kind == .magicLink)
        // Only a magic link: Clerk's other callbacks, and every other dialect, match exactly.
        expectRefusal(.redirectURIMismatch) { try validator.validate("com.clerk.Quickstart://callback/?rotating_token_nonce=rtn_1") }
        expectRefusal(.redirectURIMismatch) { try validator.validate("com.clerk.Quickstart://callback/") }
        for dialect in Dialect.allCases where dialect != .clerk {
            let other = try CallbackValidator(
                redirectURIs: [try RedirectURI("com.clerk.Quickstart://callback")], policy: .native, dialect: dialect)
            expectRefusal(.redirectURIMismatch) { try other.validate("com.clerk.Quickstart://callback/" + link) }
        }
        let router = try Self.magicLinkRouter()
        let attempt = try router.beginLogin(on: "clerk")
        let delivery = try router.handle("com.clerk.Quickstart://callback/" + link)
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.flowID == "flow_123")
        expectRefusal(.noRoute) { try router.handle("com.clerk.Quickstart://callback/extra" + link) }
    }

    /// `flow_id` in the query with `approval_token` in the fragment: both SDKs read it, and so
    /// does the router (delivered to the pending attempt).
    @Test func aMagicLinkSplitAcrossQueryAndFragmentReachesThePendingAttempt() throws {
        let router = try Self.magicLinkRouter()
        let attempt = try router.beginLogin(on: "clerk")
        let delivery = try router.handle("com.clerk.Quickstart://callback?flow_id=flw_7Hk2#approval_token=apt_Qm4xY8w2Lr")
        #expect(delivery.attempt == attempt)
        #expect(delivery.outcome.kind == .magicLink)
        #expect(delivery.outcome.approvalToken == "apt_Qm4xY8w2Lr")
        #expect(!"\(delivery)".contains("apt_Qm4xY8w2Lr"))
    }

    /// A whitespace-only approval token is missing (both SDKs): refused, and the pending attempt stays.
    @Test func aBlankApprovalTokenEndsNoAttempt() throws {
        let router = try Self.magicLinkRouter()
        _ = try router.beginLogin(on: "clerk")
        expectRefusal(.missingParameter) { try router.handle("com.clerk.Quickstart://callback?flow_id=flw_1&approval_token=%20") }
        #expect(router.pendingCount == 1)
    }

    /// An empty nonce is none: a bare callback, unbound, that ends no attempt; the real nonce still completes it.
    @Test func anEmptyNonceIsABareCallbackThatEndsNoAttempt() throws {
        let router = try Self.magicLinkRouter()
        let attempt = try router.beginLogin(on: "clerk")
        expectRefusal(.stateMissing) { try router.handle("com.clerk.Quickstart://callback?rotating_token_nonce=") }
        #expect(router.pendingCount == 1)
        #expect(try router.handle("com.clerk.Quickstart://callback?rotating_token_nonce=rtn_1").attempt == attempt)
    }
}
