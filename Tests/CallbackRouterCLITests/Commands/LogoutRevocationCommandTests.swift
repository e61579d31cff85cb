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
import CallbackTestSupport
import CallbackTokenStore
import Testing

/// `logout` revokes the stored refresh token and access token at discovery's
/// `revocation_endpoint` (RFC 7009), secrets on curl's stdin only, then removes the entry;
/// a refused revocation keeps it.
@Suite struct LogoutRevocationCommandTests {
    static let metadata =
        #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/authorize","token_endpoint":"https://op.example/token","revocation_endpoint":"https://op.example/revoke","code_challenge_methods_supported":["S256"],"response_types_supported":["code"],"jwks_uri":"https://op.example/jwks","subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}"#
    static let logout = ["logout", "--issuer", "https://op.example", "--client-id", "app"]

    @Test func bothTokensAreRevokedThenTheEntryRemovedAndTokenThenFails() throws {
        let setup = try TokenCommandTests.setUp(TokenCommandTests.entry(expiresIn: 3600))
        defer { setup.curl.remove() }
        try setup.curl.answer("discovery", body: Self.metadata)
        try setup.curl.answer("token", body: "")
        let run = runWithStdin(Self.logout, environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(
            run.out
                == #"{"outcome":"logged_out","issuer":"https://op.example","client_id":"app","scope":null,"account":null,"revoked":["refresh_token","access_token"],"store":"file"}"#
                + "\n")
        let first = setup.curl.read("stdin.1"), second = setup.curl.read("stdin.2")
        #expect(first.contains(#"url = "https://op.example/revoke""#))
        #expect(first.contains("token=RT-stored-1&token_type_hint=refresh_token&client_id=app"))
        #expect(second.contains("token=AT-stored-1&token_type_hint=access_token&client_id=app"))
        for call in ["1", "2"] {
            let seen = setup.curl.read("argv." + call) + setup.curl.read("env." + call)
            #expect(!seen.contains("RT-stored-1") && !seen.contains("AT-stored-1"))
        }
        #expect(try setup.store.entries().isEmpty)
        let after = runWithStdin(TokenCommandTests.token, environment: setup.environment)
        #expect(after.exit == 77 && after.err.contains("run callback-router login"))
    }

    @Test func aRefusedRevocationKeepsTheEntryAndSaysWhatToDo() throws {
        let setup = try TokenCommandTests.setUp(TokenCommandTests.entry(expiresIn: 3600))
        defer { setup.curl.remove() }
        try setup.curl.answer("discovery", body: Self.metadata)
        try setup.curl.answer("token", status: 401, body: #"{"error":"invalid_client"}"#)
        let run = runWithStdin(Self.logout, environment: setup.environment)
        #expect(run.exit == 1, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"token_error","error":"invalid_client""#))
        #expect(run.err.contains("the entry is kept") && run.err.contains("--forget"))
        #expect(try setup.store.entries().count == 1)
        let forgotten = runWithStdin(Self.logout + ["--forget"], environment: setup.environment)
        #expect(forgotten.exit == 0 && forgotten.out.contains(#""revoked":[]"#))
        #expect(try setup.store.entries().isEmpty)
    }

    @Test func withoutARevocationEndpointTheEntryIsRemovedAndStderrSaysTheTokensStayValid() throws {
        let setup = try TokenCommandTests.setUp(TokenCommandTests.entry(expiresIn: 3600))
        defer { setup.curl.remove() }
        try setup.curl.answer("discovery", body: LoginTokenStepTests.metadata)
        let run = runWithStdin(Self.logout, environment: setup.environment)
        #expect(run.exit == 0 && run.out.contains(#""revoked":[]"#), "\(run.out) \(run.err)")
        #expect(run.err.contains("stay valid at the provider until they expire"))
    }
}
