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
import TestVectorSupport
@testable import CallbackRouter

/// The classifier's common path (one pass, lazy outcome) against its full path: whatever
/// the common path returns, the full path returns too, field for field; it returns nil for
/// everything the full path refuses; and it really is taken for the callbacks apps see.
@Suite struct ClassifierCommonPathTests {
    static let dialects: [Dialect] = [.auto, .oauth2, .ory, .prelude, .clerk, .zephr]
    static let names = [
        "code", "state", "iss", "challenge_token", "rotating_token_nonce", "created_session_id",
        "error", "error_description", "error_uri", "session_id", "status", "action", "message",
        "access_token", "id_token", "foo", "st%61te", "c%6Fde", "scope",
        "tracking_id", "state_key", "identifier", "st%61tus", "session%5Fid",
        "__clerk_status", "__clerk_error_code", "flow_id", "approval_token", "flow",
    ]
    static let values = [
        "SplxlOBeZQQYbYS6WxSbIA", "s1", "", "a%20b", "a+b", "%C3%A9t%C3%A9", "%22q%22", "%0A",
        "https%3A%2F%2Fissuer.example%2F", "access_denied", "success", "partial", "failure", "succ%65ss",
        "Success", "a%5Cb", "%E2%80%AE", "login", "register", "failed", "external_account_not_found",
    ]

    static func randomCallback(_ random: inout SplitMix64) -> String {
        // Half start from a valid response, so that acceptance is common enough to compare.
        var pairs: [String] =
            Bool.random(using: &random)
            ? [
                [
                    "code=c0de", "challenge_token=\(preludeToken("ct"))", "rotating_token_nonce=n", "error=access_denied",
                    "status=success&session_id=sess_1", "action=register&status=partial&state_key=k&identifier=a%40b.example",
                    "status=failure&message=Try+again",
                ].randomElement(using: &random)!,
                "state=s1",
            ]
            : []
        for _ in 0 ..< Int.random(in: 0 ... 3, using: &random) {
            pairs.append(names.randomElement(using: &random)! + "=" + values.randomElement(using: &random)!)
        }
        let fragment = ["", "", "", "#", "#_=_", "#code=x"].randomElement(using: &random)!
        pairs.shuffle(using: &random)
        return "com.example.app:/cb?" + pairs.joined(separator: "&") + fragment
    }

    static func randomExpectations(_ random: inout SplitMix64) -> CallbackExpectations {
        CallbackExpectations(
            state: [nil, "s1", "a b"].randomElement(using: &random)!,
            issuer: [nil, "https://issuer.example/", "x"].randomElement(using: &random)!,
            requiresIssuer: Bool.random(using: &random),
            responseMode: Int.random(in: 0 ..< 8, using: &random) == 0 ? .fragment : .query,
            profiles: Int.random(in: 0 ..< 8, using: &random) == 0 ? [.supabase] : [])
    }

    @Test func theCommonPathNeverDisagreesWithTheFullPath() throws {
        var random = SplitMix64(propertyTest: "ClassifierCommonPathTests", defaultSeed: 0xC1A5_51F1)
        var taken = 0
        let rounds = 20_000
        for round in 0 ..< rounds {
            let text = Self.randomCallback(&random)
            let dialect = Self.dialects.randomElement(using: &random)!
            let expectations = Self.randomExpectations(&random)
            guard let url = try? CallbackURL(parsing: text) else { continue }
            let full = Result { () throws(CallbackError) in
                try CallbackClassifier.classifyFully(url, dialect: dialect, expecting: expectations)
            }
            let common = CallbackClassifier.classifyCommon(url, dialect: dialect, expectations: expectations)
            if case .success(let outcome) = full, common == nil {
                // Inside its domain the common path must take every callback the full path
                // accepts, but those with withheld text, unbound ones, and Clerk's or Ory's with
                // a name it does not number (issue 25: `__clerk_status`, `flow`…).
                let unnumbered =
                    (outcome.dialect == .clerk || outcome.dialect == .ory)
                    && (!outcome.extra.isEmpty || outcome.fields.contains { KnownField.added.contains($0.name) })
                // (Non-ASCII human text, Zephr's `message` and `identifier`, is the full path's too.)
                let nonASCIIText = outcome.fields.contains {
                    ($0.name == "message" || $0.name == "identifier") && $0.value.utf8.contains { $0 >= 0x80 }
                }
                let inDomain =
                    expectations.profiles.isEmpty && expectations.responseMode == .query
                    && (url.fragment ?? "").isEmpty && outcome.withheldFields.isEmpty && !outcome.isUnbound && !unnumbered
                    && !nonASCIIText
                #expect(!inDomain, "\(random.replay), round \(round): the common path left \(text) \(dialect) to the full path")
            }
            guard let common else { continue }
            taken += 1
            guard case .success(let outcome) = full else {
                Issue.record("\(random.replay), round \(round): the common path accepted what the full path refuses: \(text) \(dialect)")
                continue
            }
            #expect(common.isSame(as: outcome), "\(random.replay), round \(round): \(text) \(dialect): \(common) vs \(outcome)")
            #expect(common.fields.map(\.name) == outcome.fields.map(\.name))
            #expect(common.fields.map(\.value) == outcome.fields.map(\.value))
            #expect(common.extra.map(\.name) == outcome.extra.map(\.name))
            #expect(common.extra.map(\.value) == outcome.extra.map(\.value))
            for name in KnownField.order { #expect(common.value(name) == outcome.value(name)) }
        }
        // The generator makes mostly refusals; the common path must still be exercised.
        #expect(taken > rounds / 50, "\(random.replay): the common path was taken \(taken) times")
    }

    @Test(arguments: [
        ("com.example.app:/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=s1", Dialect.oauth2),
        ("com.example.app:/cb?state=s1&code=SplxlOBeZQQYbYS6WxSbIA&iss=https%3A%2F%2Fissuer.example%2F", .auto),
        ("com.example.app:/cb?error=access_denied&error_description=The+user+said+no&state=s1", .oauth2),
        ("com.example.app:/cb?challenge_token=\(preludeToken("ct_1"))&state=s1", .prelude),
        ("com.example.app:/cb?rotating_token_nonce=n1&created_session_id=sess_1&state=s1", .clerk),
        ("com.example.app:/cb?code=c&state=s1&scope=email%20openid&authuser=0", .auto),
        ("com.example.app:/cb?code=c&state=s1#", .ory),
        ("com.example.app:/auth?action=login&status=success&session_id=sess_4Kq9&tracking_id=trk_8&state=s1", .zephr),
        ("com.example.app:/auth?status=success&session_id=sess_4Kq9&state=s1", .auto),
        ("com.example.app:/auth?action=register&status=partial&state_key=k1&identifier=a%40b.example&state=s1", .zephr),
        ("com.example.app:/auth?status=failure&message=Try+again&state=s1", .zephr),
        ("com.example.app:/auth?status=failure&state=s1&utm=x", .zephr),
        ("com.example.app:/auth?error=access_denied&state=s1", .zephr),
    ])
    func theCallbacksAppsSeeTakeTheCommonPath(_ text: String, _ dialect: Dialect) throws {
        let url = try CallbackURL(parsing: text)
        let expectations = CallbackExpectations(state: "s1", issuer: "https://issuer.example/")
        let common = try #require(CallbackClassifier.classifyCommon(url, dialect: dialect, expectations: expectations))
        let full = try CallbackClassifier.classifyFully(url, dialect: dialect, expecting: expectations)
        #expect(common.isSame(as: full))
        #expect(common.description == full.description)
    }

    @Test(arguments: [
        "com.example.app:/cb?code=c&state=s2", // state_mismatch
        "com.example.app:/cb?code=c", // state_missing
        "com.example.app:/cb?code=c&state=s1&code=d", // duplicate_parameter
        "com.example.app:/cb?code=c&state=s1&a=1&a=2", // duplicate extra
        "com.example.app:/cb?code=c&state=s1&error=x", // ambiguous_response
        "com.example.app:/cb?code=c&state=s1#_=_", // Facebook: the full path ignores it
        "com.example.app:/cb?code=c&state=s1&access_token=t",
        "com.example.app:/cb?code=%0A&state=s1", // invalid_parameter
        "com.example.app:/cb?error=x&error_description=%22&state=s1", // withheld
        "com.example.app:/cb?code=c&state=s1&iss=https%3A%2F%2Fother.example%2F", // issuer_mismatch
    ])
    func everythingElseGoesTheFullWay(_ text: String) throws {
        let url = try CallbackURL(parsing: text)
        let expectations = CallbackExpectations(state: "s1", issuer: "https://issuer.example/")
        #expect(CallbackClassifier.classifyCommon(url, dialect: .oauth2, expectations: expectations) == nil)
    }

    @Test func outcomesKeepKindAndDialectAsTheirPlacesInAllCases() {
        #expect(Dialect.allCases.map(\.tag) == Array(0 ..< UInt8(Dialect.allCases.count)))
        for rules in Dialect.commonTable {
            for shape in [rules.shapes.0, rules.shapes.1, rules.shapes.2] where shape.kind != 0 {
                #expect(Int(shape.kind) <= OutcomeKind.allCases.count)
            }
        }
    }

    @Test(arguments: [
        "com.example.app:/auth?status=done&session_id=s&state=s1", // unknown_status
        "com.example.app:/auth?status=success&state=s1", // missing session_id
        "com.example.app:/auth?status=partial&session_id=s&state=s1", // missing state_key
        "com.example.app:/auth?session_id=s&state=s1", // missing status
        "com.example.app:/auth?status=success&session_id=s&error=x&state=s1", // ambiguous_response
        "com.example.app:/auth?status=failure&message=%0A&state=s1", // withheld message
        "com.example.app:/auth?status=failure&message=caf%C3%A9&state=s1", // non-ASCII text: the full path judges it
        "com.example.app:/auth?status=success&status=success&session_id=s&state=s1", // duplicate_parameter
        "com.example.app:/auth?status=success&session_id=%0A&state=s1", // invalid_parameter
    ])
    func zephrRefusalsAndWithheldTextGoTheFullWay(_ text: String) throws {
        let url = try CallbackURL(parsing: text)
        let expectations = CallbackExpectations(state: "s1")
        #expect(CallbackClassifier.classifyCommon(url, dialect: .zephr, expectations: expectations) == nil)
    }
}
