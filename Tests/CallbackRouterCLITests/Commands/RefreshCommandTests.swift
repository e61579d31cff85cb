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
import CallbackRouter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// `refresh` checks a refreshed ID token (OpenID Connect Core §12.2): by default against
/// the issuer and the client, with --id-token-from-stdin also against the login's ID token.
extension RefreshCommandTests {
    static let issuer = "https://op.example"

    /// An ID token's payload: the login's user, no nonce unless given.
    static func idClaims(sub: String = "user-1", iss: String = issuer, exp: Int = 0, nonce: String? = nil) -> String {
        let now = Int(time(nil))
        let nonceMember = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return
            #"{"iss":"\#(iss)","sub":"\#(sub)","aud":"app","exp":\#(exp == 0 ? now + 600 : exp),"iat":\#(now - 5),"auth_time":\#(now - 60)\#(nonceMember)}"#
    }

    /// The login's ID token (expired long ago, as it usually is at refresh time).
    static let loginIDToken = IDTokens.make(
        #"{"iss":"https://op.example","sub":"user-1","aud":"app","exp":1000600,"iat":1000000,"nonce":"login-nonce-1"}"#)

    /// Runs `refresh --issuer` (discovery through the fake curl) answering `idToken` in the
    /// token response; `previous` on stdin with --id-token-from-stdin when given.
    static func refresh(
        idToken: String?, previous: String? = nil, extra: [String] = []
    ) throws -> (exit: Int32, out: String, err: String, curl: FakeCurl) {
        let curl = try FakeCurl()
        try curl.answer("discovery", body: LoginTokenStepTests.metadata)
        let member = idToken.map { #","id_token":"\#($0)""# } ?? ""
        try curl.answer(
            "token", body: #"{"access_token":"AT-new-0123","token_type":"Bearer","refresh_token":"RT-next-4567""# + member + "}")
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--issuer", issuer] + (previous == nil ? [] : ["--id-token-from-stdin"]) + extra,
            environment: curl.environment, stdin: "RT-secret-refresh-token\n" + (previous.map { $0 + "\n" } ?? ""))
        return (run.exit, run.out, run.err, curl)
    }

    @Test func aGoodRefreshedIDTokenIsCheckedAndItsClaimsPrinted() throws {
        let run = try Self.refresh(idToken: IDTokens.make(Self.idClaims()))
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"tokens","access_token":"AT-new-0123","token_type":"Bearer","expires_in":null"#))
        #expect(run.out.contains(#""id_token_claims":{"sub":"user-1","iss":"https://op.example","aud":["app"],"exp":"#))
        #expect(run.out.hasSuffix(#""nonce_matched":null}}"# + "\n"), "no nonce was compared: null, not true")
    }

    @Test func withTheLoginsIDTokenTheSameUserPassesAndTheLoginTokenStaysOffArgvEnvAndStderr() throws {
        let run = try Self.refresh(idToken: IDTokens.make(Self.idClaims(nonce: "login-nonce-1")), previous: Self.loginIDToken)
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""id_token_claims":{"sub":"user-1","#) && run.out.hasSuffix(#""nonce_matched":true}}"# + "\n"))
        for call in ["0", "1"] {
            let seen = run.curl.read("argv." + call) + run.curl.read("env." + call) + run.curl.read("stdin." + call)
            #expect(!seen.contains(Self.loginIDToken), "the login's ID token is never sent anywhere")
        }
        #expect(!run.err.contains(Self.loginIDToken) && !run.err.contains("AT-new-0123") && !run.err.contains("RT-"))
        #expect(run.curl.read("stdin.1").contains("refresh_token=RT-secret-refresh-token"), "the refresh token still is line 1")
    }

    static let refusals: [(String, String?, String)] = [
        ("subject_mismatch", loginIDToken, idClaims(sub: "someone-else")),
        ("issuer_mismatch", nil, idClaims(iss: "https://evil.example")),
        ("issuer_mismatch", loginIDToken, idClaims(iss: "https://evil.example")),
        ("token_expired", nil, idClaims(exp: 1_000_000)),
        ("nonce_mismatch", loginIDToken, idClaims(nonce: "another-nonce")),
    ]

    @Test(arguments: 0 ..< 5) func aHostileRefreshedIDTokenIsOneRejectionExiting65(_ index: Int) throws {
        let (reason, previous, claims) = Self.refusals[index]
        let run = try Self.refresh(idToken: IDTokens.make(claims), previous: previous)
        defer { run.curl.remove() }
        #expect(run.exit == 65, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"\#(reason)""#), "\(run.out)")
        #expect(run.out.contains(#""step":"id_token""#))
        #expect(!run.out.contains("AT-new-0123") && !run.out.contains("RT-next-4567"), "no token of a refused response is printed")
    }

    @Test func withoutAnIDTokenInTheResponseTheClaimsAreNull() throws {
        for previous in [nil, Self.loginIDToken] {
            let run = try Self.refresh(idToken: nil, previous: previous)
            defer { run.curl.remove() }
            #expect(run.exit == 0, "\(run.out) \(run.err)")
            #expect(run.out.hasSuffix(#""refresh_token":"RT-next-4567","scope":null,"id_token":null,"id_token_claims":null}"# + "\n"))
        }
    }

    @Test func withOnlyATokenEndpointTheIDTokenIsPassedOnUncheckedAndTheLoginTokenIsAUsageError() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        let expired = IDTokens.make(Self.idClaims(iss: "https://anyone.example", exp: 1_000_000))
        try curl.answer("token", body: #"{"access_token":"AT-new-0123","token_type":"Bearer","id_token":"\#(expired)"}"#)
        let arguments = ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"]
        let passed = runWithStdin(arguments, environment: curl.environment, stdin: "RT-secret-refresh-token\n")
        #expect(passed.exit == 0, "\(passed.out) \(passed.err)")
        #expect(passed.out.hasSuffix(#""id_token":"\#(expired)","id_token_claims":null}"# + "\n"))
        let refused = runWithStdin(
            arguments + ["--id-token-from-stdin"], environment: curl.environment,
            stdin: "RT-secret-refresh-token\n" + Self.loginIDToken + "\n")
        #expect(refused.exit == 64 && refused.out.isEmpty)
        #expect(refused.err.contains("--id-token-from-stdin needs --issuer"))
        #expect(curl.read("argv.1").isEmpty, "nothing was sent for the refused run")
    }

    @Test(arguments: ["not-a-token", "eyJhbGciOiJSUzI1NiJ9.e30.c2ln"]) func aMalformedLoginIDTokenIsAUsageErrorBeforeAnythingIsSent(
        _ previous: String
    ) throws {
        let otherIssuer = IDTokens.make(#"{"iss":"https://evil.example","sub":"user-1","aud":"app","exp":1,"iat":1}"#)
        for token in [previous, otherIssuer] {
            let run = try Self.refresh(idToken: IDTokens.make(Self.idClaims()), previous: token)
            defer { run.curl.remove() }
            #expect(run.exit == 64 && run.out.isEmpty, "\(run.out) \(run.err)")
            #expect(run.err.contains("the earlier (login's) ID token"))
            #expect(!run.err.contains(token), "the login's token is not echoed")
            #expect(run.curl.read("argv.0").isEmpty, "no refresh token is spent on a mistaken login token")
        }
    }

    @Test func theClientSecretLineComesBeforeTheLoginsIDToken() throws {
        let run = try Self.refresh(
            idToken: IDTokens.make(Self.idClaims()), previous: "client-secret-value\n" + Self.loginIDToken,
            extra: ["--client-secret-from-stdin"])
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.curl.read("stdin.1").contains(#"header = "Authorization: Basic YXBwOmNsaWVudC1zZWNyZXQtdmFsdWU=""#))
    }
}

/// With --id-token-from-stdin, `refresh` compares as `token` does: a new `auth_time` passes
/// with one line on stderr, and --require-same-auth-time refuses it.
extension RefreshCommandTests {
    @Test func aNewAuthTimePassesWithAWarningUnlessTheSameIsRequired() throws {
        let now = Int(time(nil))
        let login = IDTokens.make(
            #"{"iss":"https://op.example","sub":"user-1","aud":"app","exp":1000600,"iat":1000000,"auth_time":1000000}"#)
        let refreshed = IDTokens.make(
            #"{"iss":"https://op.example","sub":"user-1","aud":"app","exp":\#(now + 600),"iat":\#(now),"auth_time":\#(now)}"#)
        let run = try Self.refresh(idToken: refreshed, previous: login)
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.err.contains("refresh: warning: the provider gave the refreshed ID token a new auth_time"))
        let strict = try Self.refresh(idToken: refreshed, previous: login, extra: ["--require-same-auth-time"])
        defer { strict.curl.remove() }
        #expect(strict.exit == 65, "\(strict.out) \(strict.err)")
        #expect(strict.out.hasPrefix(#"{"outcome":"rejected","reason":"auth_time_mismatch""#) && !strict.out.contains("AT-new-0123"))
    }
}
