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
import CallbackSystem
import CallbackTestSupport
import CallbackTokenStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `token` serves a valid stored access token, refreshes one about to expire (storing the
/// rotated refresh token), never opens a browser, and names the login to run otherwise;
/// `login` stores what it signed in with, and says where.
@Suite struct TokenCommandTests {
    static let issuer = "https://op.example"

    /// A fake curl whose HOME holds a file store; `entry` stored first when given.
    static func setUp(_ entry: StoredTokens? = nil) throws -> (curl: FakeCurl, environment: [String: String], store: TokenStore) {
        let curl = try FakeCurl()
        var environment = curl.environment
        environment["CALLBACK_ROUTER_TOKEN_STORE"] = "file"
        let store = try TokenStore(environment: environment)
        if let entry {
            let saved = try store.locked { Result { () throws(TokenStoreError) in try store.save(entry) } }
            try saved.get()
        }
        return (curl, environment, store)
    }

    static func entry(expiresIn: Int64, refreshToken: String? = "RT-stored-1") -> StoredTokens {
        let now = Int64(time(nil))
        return StoredTokens(
            key: TokenStoreKey(issuer: issuer, clientID: "app"), accessToken: "AT-stored-1", tokenType: "Bearer",
            expiresAt: now + expiresIn, refreshToken: refreshToken, idToken: nil, grantedScope: nil, storedAt: now)
    }

    static let token = ["token", "--issuer", issuer, "--client-id", "app"]

    @Test func aValidStoredTokenIsPrintedWithoutAnyRequest() throws {
        let setup = try Self.setUp(Self.entry(expiresIn: 3600))
        defer { setup.curl.remove() }
        let run = runWithStdin(Self.token, environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"token","access_token":"AT-stored-1","token_type":"Bearer","expires_at":"#))
        #expect(
            run.out.contains(
                #""refreshed":false,"issuer":"https://op.example","client_id":"app","scope":null,"account":null,"store":"file"}"#))
        #expect(setup.curl.read("argv.0").isEmpty, "no request was sent")
        let bare = runWithStdin(Self.token + ["--bare"], environment: setup.environment)
        #expect(bare.exit == 0 && bare.out == "AT-stored-1\n")
    }

    @Test func anExpiringTokenIsRefreshedAndTheRotatedRefreshTokenStored() throws {
        let setup = try Self.setUp(Self.entry(expiresIn: 30))
        defer { setup.curl.remove() }
        try setup.curl.answer("discovery", body: LoginTokenStepTests.metadata)
        try setup.curl.answer(
            "token", body: #"{"access_token":"AT-new-2","token_type":"Bearer","expires_in":600,"refresh_token":"RT-rotated-2"}"#)
        let run = runWithStdin(Self.token, environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""access_token":"AT-new-2""#) && run.out.contains(#""refreshed":true"#))
        #expect(setup.curl.read("stdin.1").contains("grant_type=refresh_token&refresh_token=RT-stored-1"))
        #expect(!setup.curl.read("argv.1").contains("RT-stored-1") && !run.err.contains("RT-"))
        let stored = try setup.store.entries()
        #expect(stored.map(\.refreshToken) == ["RT-rotated-2"] && stored.map(\.accessToken) == ["AT-new-2"])
        let again = runWithStdin(Self.token + ["--bare"], environment: setup.environment)
        #expect(again.out == "AT-new-2\n" && setup.curl.read("argv.2").isEmpty, "the refreshed token is served from the store")
    }

    @Test func invalidGrantRemovesTheEntryAndNamesTheLoginToRun() throws {
        let setup = try Self.setUp(Self.entry(expiresIn: -10))
        defer { setup.curl.remove() }
        try setup.curl.answer("discovery", body: LoginTokenStepTests.metadata)
        try setup.curl.answer("token", status: 400, body: #"{"error":"invalid_grant"}"#)
        let run = runWithStdin(Self.token, environment: setup.environment)
        #expect(run.exit == 1, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"token_error","error":"invalid_grant""#))
        #expect(run.err.contains("the entry was removed: run callback-router login --issuer https://op.example --client-id app"))
        #expect(try setup.store.entries().isEmpty)
    }

    @Test func withNothingStoredItFailsWithTheLoginToRunAndOpensNoBrowser() throws {
        let setup = try Self.setUp()
        defer { setup.curl.remove() }
        let run = runWithStdin(Self.token + ["--scope", "openid"], environment: setup.environment)
        #expect(run.exit == 77, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"not_signed_in""#))
        #expect(run.err.contains("run callback-router login --issuer https://op.example --client-id app --scope 'openid'"))
        let expired = try Self.setUp(Self.entry(expiresIn: -10, refreshToken: nil))
        defer { expired.curl.remove() }
        let noRefresh = runWithStdin(Self.token, environment: expired.environment)
        #expect(
            noRefresh.exit == 77
                && noRefresh.err.contains("callback-router: token: the stored access token has expired and no refresh token"))
    }

    @Test(arguments: ["client.authentication.k8s.io/v1beta1", "client.authentication.k8s.io/v1"])
    func theExecCredentialSpeaksTheVersionKubectlAsksFor(_ version: String) throws {
        let entry = StoredTokens(
            key: TokenStoreKey(issuer: Self.issuer, clientID: "app"), accessToken: "AT-kube", tokenType: "Bearer",
            expiresAt: 4_102_444_800, refreshToken: nil, idToken: nil, grantedScope: nil, storedAt: 0)
        var setup = try Self.setUp(entry)
        defer { setup.curl.remove() }
        setup.environment["KUBERNETES_EXEC_INFO"] = #"{"kind":"ExecCredential","apiVersion":"\#(version)","spec":{"interactive":false}}"#
        let run = runWithStdin(Self.token + ["--exec-credential"], environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(
            run.out
                == #"{"apiVersion":"\#(version)","kind":"ExecCredential","status":{"token":"AT-kube","expirationTimestamp":"2100-01-01T00:00:00Z"}}"#
                + "\n")
        setup.environment["KUBERNETES_EXEC_INFO"] = #"{"apiVersion":"client.authentication.k8s.io/v2"}"#
        let refused = runWithStdin(Self.token + ["--exec-credential"], environment: setup.environment)
        #expect(refused.exit == 64 && refused.err.contains("client.authentication.k8s.io/v2"))
    }

    @Test func aCorruptStoreIsRefusedWithWhatToDoAndLeftAsItIs() throws {
        let setup = try Self.setUp(Self.entry(expiresIn: 3600))
        defer { setup.curl.remove() }
        let path = setup.store.directory + "/tokens.json"
        try FileSystem.writeAtomically(path, Array("{garbage".utf8), mode: 0o600)
        let run = runWithStdin(Self.token, environment: setup.environment)
        #expect(run.exit == 65 && run.out.hasPrefix(#"{"outcome":"rejected","reason":"store_corrupt""#), "\(run.out)")
        #expect(run.err.contains("move it away and log in again"))
        #expect(try FileSystem.readFile(path) == Array("{garbage".utf8))
    }

    @Test func theListShowsIssuersClientsAndExpiryButNoToken() throws {
        let setup = try Self.setUp(Self.entry(expiresIn: 3600))
        defer { setup.curl.remove() }
        let run = runWithStdin(["token", "--list"], environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"stored","store":"file","path":""#))
        #expect(run.out.contains(#""entries":[{"issuer":"https://op.example","client_id":"app","scope":null,"account":null,"expires_at":"#))
        #expect(!run.out.contains("AT-stored-1") && !run.out.contains("RT-stored-1"))
    }

    @Test func loginStoresTheTokensAndSaysWhereUnlessNoStore() throws {
        let run = try LoginTokenStepTests.login { nonce in LoginTokenStepTests.tokens(IDTokens.make(IDTokens.claims(nonce: nonce))) }
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        let path = run.curl.path + "/.local/state/callback-router/tokens.json"
        #expect(run.out.contains(#""stored":{"store":"file","path":"\#(path)","account":null},"access_token":"AT-login-1""#))
        #expect(try FileSystem.status(path)?.permissions == 0o600)
        let bytes = try FileSystem.readFile(path) ?? []
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""access_token":"AT-login-1""#))
        let unstored = try LoginTokenStepTests.login(extra: ["--no-store"]) { nonce in
            LoginTokenStepTests.tokens(IDTokens.make(IDTokens.claims(nonce: nonce)))
        }
        defer { unstored.curl.remove() }
        #expect(unstored.exit == 0 && unstored.out.contains(#""stored":null,"access_token":"AT-login-1""#))
        #expect(try FileSystem.status(unstored.curl.path + "/.local/state/callback-router/tokens.json") == nil)
    }
}

/// A refresh whose answer carries an ID token is compared with the stored login's
/// (OpenID Connect Core §12.2): another account is refused and the entry kept; a new
/// `auth_time` passes with a line on stderr, or is refused with `--require-same-auth-time`.
extension TokenCommandTests {
    static let loginAuthTime = Int(time(nil)) - 3000

    static func idToken(sub: String = "user-1", authTime: Int, nonce: String? = nil) -> String {
        let now = Int(time(nil))
        let nonceMember = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return IDTokens.make(
            #"{"iss":"\#(issuer)","sub":"\#(sub)","aud":"app","exp":\#(now + 600),"iat":\#(now),"auth_time":\#(authTime)\#(nonceMember)}"#)
    }

    /// An expiring entry signed in with `loginIDToken`, and a token endpoint that answers a
    /// refresh with `refreshedIDToken`.
    static func setUpRefresh(
        answering refreshedIDToken: String
    ) throws -> (setup: (curl: FakeCurl, environment: [String: String], store: TokenStore), login: String) {
        let login = idToken(authTime: loginAuthTime, nonce: "login-nonce")
        let now = Int64(time(nil))
        let entry = StoredTokens(
            key: TokenStoreKey(issuer: issuer, clientID: "app"), accessToken: "AT-stored-1", tokenType: "Bearer",
            expiresAt: now + 10, refreshToken: "RT-stored-1", idToken: login, grantedScope: nil, storedAt: now)
        let setup = try setUp(entry)
        try setup.curl.answer("discovery", body: LoginTokenStepTests.metadata)
        try setup.curl.answer(
            "token",
            body: #"{"access_token":"AT-new-2","token_type":"Bearer","expires_in":600,"refresh_token":"RT-rotated-2","id_token":""#
                + refreshedIDToken + #""}"#)
        return (setup, login)
    }

    @Test func aRefreshedIDTokenOfAnotherAccountIsExit65AndTheEntryIsKept() throws {
        let (setup, login) = try Self.setUpRefresh(answering: Self.idToken(sub: "someone-else", authTime: Self.loginAuthTime))
        defer { setup.curl.remove() }
        let run = runWithStdin(Self.token, environment: setup.environment)
        #expect(run.exit == 65, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"subject_mismatch""#) && run.out.contains(#""step":"id_token""#))
        #expect(!run.out.contains("AT-new-2") && !run.out.contains("someone-else") && !run.err.contains("someone-else"))
        #expect(run.err.contains("the provider answered the refresh with another account's ID token"))
        #expect(run.err.contains("callback-router logout --issuer https://op.example --client-id app, then callback-router login"))
        let stored = try setup.store.entries()
        #expect(stored.map(\.accessToken) == ["AT-stored-1"] && stored.map(\.refreshToken) == ["RT-stored-1"])
        #expect(stored.map(\.idToken) == [login])
    }

    @Test func aNewAuthTimePassesWithOneLineOnStderrAndTheLoginsIDTokenIsKept() throws {
        let (setup, login) = try Self.setUpRefresh(answering: Self.idToken(authTime: Int(time(nil)) - 1))
        defer { setup.curl.remove() }
        let run = runWithStdin(Self.token, environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""access_token":"AT-new-2""#) && run.out.contains(#""refreshed":true"#))
        let warnings = run.err.split(separator: "\n").filter { $0.contains("auth_time") }
        #expect(warnings.count == 1 && warnings.first?.contains("OpenID Connect Core §12.2") == true, "\(run.err)")
        #expect(warnings.first?.contains("--require-same-auth-time") == true)
        let stored = try setup.store.entries()
        #expect(stored.map(\.accessToken) == ["AT-new-2"] && stored.map(\.idToken) == [login], "the login's ID token stays")
    }

    @Test func aNewAuthTimeIsRefusedWithRequireSameAuthTime() throws {
        let (setup, _) = try Self.setUpRefresh(answering: Self.idToken(authTime: Int(time(nil)) - 1))
        defer { setup.curl.remove() }
        let run = runWithStdin(Self.token + ["--require-same-auth-time"], environment: setup.environment)
        #expect(run.exit == 65, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"auth_time_mismatch""#))
        #expect(run.err.contains("--require-same-auth-time"))
        #expect(try setup.store.entries().map(\.accessToken) == ["AT-stored-1"])
    }

    @Test func theSameAuthTimePassesSilently() throws {
        let (setup, _) = try Self.setUpRefresh(answering: Self.idToken(authTime: Self.loginAuthTime))
        defer { setup.curl.remove() }
        let run = runWithStdin(Self.token + ["--require-same-auth-time"], environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(!run.err.contains("auth_time"))
    }
}
