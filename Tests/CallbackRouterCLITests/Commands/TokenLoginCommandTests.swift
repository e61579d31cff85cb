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
import CallbackSystem
import CallbackTokenStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `token --login` signs in when nothing valid is stored, as `login` would, against a small
/// provider on 127.0.0.1 through the real curl and a scripted browser ($BROWSER follows the
/// start link, the provider's redirect and the callback with the real curl): the tokens are
/// stored, stdout carries only the token, concurrent calls sign in once.
@Suite struct TokenLoginCommandTests {
    static let tokens = DeviceProvider.Answer(
        status: 200, body: #"{"access_token":"AT-signed-in-1","token_type":"Bearer","expires_in":3600,"refresh_token":"RT-signed-in-1"}"#)

    /// A provider, a home with a file store, and a browser script that follows the link it is
    /// given once `gate` (a FIFO, when asked for) has been opened and closed by the test.
    struct Setup {
        let provider: DeviceProvider
        let home = TemporaryDirectory()
        let gated: Bool
        var environment: [String: String] {
            [
                "PATH": "/usr/bin:/bin", "HOME": home.path, "CALLBACK_ROUTER_TOKEN_STORE": "file", "BROWSER": home.path + "/browser",
                "XDG_RUNTIME_DIR": home.path + "/run",
            ]
        }
        var gate: String { home.path + "/gate" }

        init(gated: Bool = false, tokenAnswers: [DeviceProvider.Answer] = [TokenLoginCommandTests.tokens]) throws {
            provider = try DeviceProvider(deviceAnswer: DeviceLoginTests.deviceAnswer(), tokenAnswers: tokenAnswers)
            self.gated = gated
            _ = home.privateSubdirectory("run")
            if gated { guard mkfifo(gate, 0o600) == 0 else { throw HarnessError("mkfifo") } }
            // The browser exits at once and leaves the following to a process it does not wait
            // for: an unreaped child of the test process would keep Swift Testing's exit-test
            // monitor spinning on it.
            let wait = gated ? "cat '\(gate)' > /dev/null; " : ""
            let script = "#!/bin/sh\n(\(wait)exec /usr/bin/curl -s -L -o /dev/null \"$1\") </dev/null >/dev/null 2>&1 &\nexit 0\n"
            let fd = open(home.path + "/browser", O_WRONLY | O_CREAT | O_TRUNC, 0o755)
            _ = script.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }

        var store: TokenStore { get throws { try TokenStore(environment: environment) } }

        func save(_ entry: StoredTokens) throws {
            let store = try self.store
            try store.locked { Result { () throws(TokenStoreError) in try store.save(entry) } }.get()
        }

        /// The browser, waiting at the gate, goes on.
        func openGate() {
            let fd = open(gate, O_WRONLY)
            if fd >= 0 { close(fd) }
        }

        var tokenRequests: Int { provider.requests.filter { $0.line.hasPrefix("POST /token ") }.count }

        func remove() {
            // A browser still at the gate (a test that failed early) is let go.
            if gated {
                let fd = open(gate, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
            provider.stop()
            home.remove()
        }
    }

    static func token(_ setup: Setup, _ extra: [String] = []) -> [String] {
        ["token", "--issuer", setup.provider.issuer, "--client-id", "app", "--scope", "profile", "--allow-http-loopback"] + extra
    }

    @Test(arguments: [["--bare"], []])
    func withNothingStoredLoginSignsInStoresAndPrintsOnlyTheToken(_ format: [String]) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let run = runWithStdin(Self.token(setup, ["--login"] + format), environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        if format == ["--bare"] {
            #expect(run.out == "AT-signed-in-1\n", "the token alone, never login's JSON")
        } else {
            #expect(
                run.out.hasPrefix(#"{"outcome":"token","access_token":"AT-signed-in-1","token_type":"Bearer","expires_at":"#), "\(run.out)")
            #expect(run.out.hasSuffix(#""scope":"profile","account":null,"store":"file","signed_in":true}"# + "\n"), "\(run.out)")
            #expect(run.out.split(separator: "\n").count == 1 && !run.out.contains("code_verifier"), "only token's JSON")
        }
        #expect(run.err.contains("callback-router: token: no tokens are stored for \(setup.provider.issuer) client app"), "\(run.err)")
        #expect(run.err.contains("signing in (--login), as callback-router login --issuer \(setup.provider.issuer) --client-id app"))
        #expect(run.err.contains("✓ Signed in"), "\(run.err)")
        #expect(!run.err.contains("AT-signed-in-1") && !run.err.contains("RT-signed-in-1"), "no token on stderr")
        #expect(setup.provider.authorizations == 1 && setup.tokenRequests == 1)
        let stored = try setup.store.entries()
        #expect(stored.map(\.accessToken) == ["AT-signed-in-1"] && stored.map(\.refreshToken) == ["RT-signed-in-1"])

        let again = runWithStdin(Self.token(setup, ["--login", "--bare"]), environment: setup.environment)
        #expect(again.exit == 0 && again.out == "AT-signed-in-1\n", "\(again.out) \(again.err)")
        #expect(!again.err.contains("signing in"), "served from the store: \(again.err)")
        #expect(setup.provider.authorizations == 1 && setup.tokenRequests == 1, "no second sign-in, no request")
    }

    @Test func withoutLoginNothingStoredIsStillTheLoginToRunAndNoBrowser() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let run = runWithStdin(Self.token(setup), environment: setup.environment)
        #expect(run.exit == 77, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"not_signed_in""#))
        #expect(run.err.contains("run callback-router login --issuer \(setup.provider.issuer) --client-id app --scope 'profile'"))
        #expect(setup.provider.requests.isEmpty, "no discovery, no sign-in")
    }

    /// A refresh token the provider refuses (`invalid_grant`), or an expired token without
    /// one: `--login` signs in again, and only the new token is printed.
    @Test(arguments: [true, false])
    func aRefusedOrMissingRefreshTokenSignsInAgain(_ refused: Bool) throws {
        let invalidGrant = DeviceProvider.Answer(status: 400, body: #"{"error":"invalid_grant"}"#)
        let setup = try Setup(tokenAnswers: refused ? [invalidGrant, Self.tokens] : [Self.tokens])
        defer { setup.remove() }
        let now = Int64(time(nil))
        try setup.save(
            StoredTokens(
                key: TokenStoreKey(issuer: setup.provider.issuer, clientID: "app", scope: "profile"), accessToken: "AT-old",
                tokenType: "Bearer", expiresAt: now - 10, refreshToken: refused ? "RT-revoked" : nil, idToken: nil, grantedScope: nil,
                storedAt: now - 3600))
        let run = runWithStdin(Self.token(setup, ["--login", "--bare"]), environment: setup.environment)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out == "AT-signed-in-1\n", "no token_error line before the token: \(run.out)")
        #expect(run.err.contains(refused ? "invalid_grant" : "expired and no refresh token"), "\(run.err)")
        #expect(setup.provider.authorizations == 1 && setup.tokenRequests == (refused ? 2 : 1))
        #expect(try setup.store.entries().map(\.accessToken) == ["AT-signed-in-1"])
    }

    @Test func aFailedSignInEndsAsLoginEndsAndStoresNothing() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.provider.setAuthorizeError("access_denied")
        let run = runWithStdin(Self.token(setup, ["--login", "--bare"]), environment: setup.environment)
        #expect(run.exit == 1, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"authorization_error","dialect":"oauth2","#), "login's JSON: \(run.out)")
        #expect(run.out.contains(#""error":"access_denied""#) && run.out.split(separator: "\n").count == 1)
        #expect(run.err.contains("✗"), "login's line: \(run.err)")
        #expect(setup.tokenRequests == 0)
        #expect(try setup.store.entries().isEmpty, "nothing stored")
    }

    /// kubectl runs the exec plugin several times at once: one signs in, the other says it
    /// waits, then serves what the first stored.
    @Test func twoConcurrentCallsSignInOnce() throws {
        let setup = try Setup(gated: true)
        defer { setup.remove() }
        let first = try Running(Self.token(setup, ["--login", "--bare"]), environment: setup.environment)
        try first.waitFor("/start/")
        let second = try Running(Self.token(setup, ["--login", "--bare"]), environment: setup.environment)
        try second.waitFor("another sign-in for")
        setup.openGate()
        let exits = (first.waitForExit(), second.waitForExit())
        #expect(exits.0 == 0 && exits.1 == 0, "\(first.output.stderr)\n\(second.output.stderr)")
        #expect(first.output.stdout == "AT-signed-in-1\n" && second.output.stdout == "AT-signed-in-1\n")
        #expect(second.output.stderr.contains("waiting for it to end, at most 360 seconds"), "\(second.output.stderr)")
        #expect(!second.output.stderr.contains("signing in"), "\(second.output.stderr)")
        #expect(setup.provider.authorizations == 1 && setup.tokenRequests == 1, "one sign-in at the provider")
    }

    /// The store refuses the tokens once the sign-in is under way (its directory was opened
    /// to others): the token is printed all the same, and stderr says why it was not stored.
    @Test func aTokenThatCouldNotBeStoredIsStillPrintedAndStderrSaysWhy() throws {
        let setup = try Setup(gated: true)
        defer { setup.remove() }
        let run = try Running(Self.token(setup, ["--login"]), environment: setup.environment)
        try run.waitFor("/start/")
        let directory = try setup.store.directory
        chmod(directory, 0o755)
        defer { chmod(directory, 0o700) }
        setup.openGate()
        #expect(run.waitForExit() == 0, "\(run.output.stdout) \(run.output.stderr)")
        let out = run.output.stdout
        #expect(out.hasPrefix(#"{"outcome":"token","access_token":"AT-signed-in-1""#), "\(out)")
        #expect(out.contains(#""store":null,"signed_in":true,"store_error":{"reason":"store_not_private","detail":"#), "\(out)")
        #expect(run.output.stderr.contains("token: the tokens were not stored (store_not_private)"), "\(run.output.stderr)")
        #expect(run.output.stderr.contains("this token is valid, but it was not stored: the next call signs in again"))
    }

    @Test func kubectlWithoutATerminalGetsNoPastePrompt() {
        let context = { (info: String) in
            CommandContext(output: CapturedOutput(), environment: ["KUBERNETES_EXEC_INFO": info], executablePath: "/nonexistent")
        }
        let format = TokenCommand.Format.execCredential(apiVersion: "client.authentication.k8s.io/v1")
        let noTerminal = #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#
        let terminal = #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":true}}"#
        #expect(!TokenCommand.execCredentialIsInteractive(format, context: context(noTerminal)))
        #expect(TokenCommand.execCredentialIsInteractive(format, context: context(terminal)))
        #expect(TokenCommand.execCredentialIsInteractive(.bare, context: context(noTerminal)), "only the exec plugin reads it")
    }

    /// The tool run in-process on a thread of its own, its output captured.
    final class Running: Sendable {
        let output = CapturedOutput()
        private let exitCode = Locked<Int32?>(nil)

        init(_ arguments: [String], environment: [String: String]) throws {
            let output = output
            let exitCode = exitCode
            _ = try startThread {
                let code = CallbackRouterTool.run(
                    arguments, context: CommandContext(output: output, environment: environment, executablePath: "/nonexistent"))
                exitCode.withLock { $0 = code }
            }
        }

        /// Until stderr says `text` (at most 20 seconds).
        func waitFor(_ text: String) throws {
            for _ in 0 ..< 2000 {
                if output.stderr.contains(text) { return }
                if exitCode.withLock({ $0 }) != nil { break }
                usleep(10_000)
            }
            throw HarnessError("'\(text)' never came: \(output.stderr)")
        }

        func waitForExit(seconds: Double = 30) -> Int32? {
            for _ in 0 ..< Int(seconds * 100) {
                if let code = exitCode.withLock({ $0 }) { return code }
                usleep(10_000)
            }
            return nil
        }
    }
}
