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
import CallbackTestSupport
import Testing

/// Every failure of every command ends with one human line on stderr (issue 36 point 1):
/// stdout keeps its JSON, and stderr's last line says what happened and what to do.
@Suite struct NeverSilentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let exit: Int32
        /// Words the last stderr line must hold.
        let words: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["parse", "myapp://cb?code=a%2"], exit: 65, words: ["✗ Refused: invalid_percent_encoding"]),
        Case(arguments: ["inspect", ""], exit: 65, words: ["✗ Refused: empty_input"]),
        // The provider's own error code stays in the JSON (fuzz-cli: stderr never depends on it).
        Case(
            arguments: ["parse", "--state", "s", "myapp://cb?error=access_denied&state=s"], exit: 1,
            words: ["✗ The provider refused the sign-in; its error and error_description are in the JSON on stdout"]),
        Case(
            arguments: ["authorize-url", "--endpoint", "http://x.example/a", "--client-id", "a", "--redirect-uri", "http://127.0.0.1/cb"],
            exit: 64, words: ["✗ Refused: invalid_configuration", "authorize-url --help"]),
        Case(arguments: ["pkce", "--verifier", "short"], exit: 64, words: ["✗ Refused: invalid_configuration"]),
        // Discovery refused before any network: http without --allow-http-loopback.
        Case(
            arguments: ["login", "--issuer", "http://127.0.0.1:1/x", "--client-id", "a", "--no-browser"], exit: 64,
            words: ["✗ Refused: invalid_configuration", "(step discovery)", "--allow-http-loopback"]),
        // No curl on PATH: the detail says what to install.
        Case(
            arguments: ["login", "--issuer", "https://127.0.0.1:1/x", "--client-id", "a", "--no-browser"], exit: 69,
            words: ["✗ Refused: transport_unavailable", "install it"]),
        Case(arguments: ["open", "nope"], exit: 65, words: ["relative_reference"]),
        Case(arguments: ["status"], exit: 64, words: ["--scheme is required"]),
    ]

    @Test(arguments: cases)
    func everyFailureEndsWithOneHumanLine(_ test: Case) throws {
        let temporary = TemporaryDirectory()
        let environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"), home: temporary.privateSubdirectory("home"))
        let run = runTool(test.arguments, environment: environment)
        #expect(run.exit == test.exit, "\(run.stdout) \(run.stderr)")
        let last = try #require(run.stderr.split(separator: "\n").last.map(String.init), "stderr is empty")
        #expect(last.hasPrefix("callback-router: ") || last.hasPrefix("Try 'callback-router "), "\(last)")
        for word in test.words {
            #expect(run.stderr.contains(word), "\(word) in \(run.stderr)")
        }
        #expect(!run.stderr.contains("access_denied"))
        // stdout keeps its contract: JSON or nothing.
        #expect(run.stdout.isEmpty || run.stdout.hasPrefix("{"))
    }

    @Test func aDiscoveryFailureSaysWhatToDo() {
        let json = JSONValue.object([
            ("outcome", .string("rejected")), ("reason", .string("unknown_status")), ("detail", .string("HTTP 404")),
            ("offset", .null), ("step", .string("discovery")),
        ])
        #expect(
            FailureLine.line(for: json, exit: 65, command: "login", colour: false)
                == "✗ Refused: unknown_status: HTTP 404 (step discovery); check --issuer (a typo, a missing path segment, a trailing slash):"
                + " its discovery document is ISSUER/.well-known/openid-configuration")
    }

    @Test func aRefusedRefreshTokenSaysToSignInAgain() {
        let json = JSONValue.object([("outcome", .string("token_error")), ("error", .string("invalid_grant"))])
        #expect(
            FailureLine.line(for: json, exit: 1, command: "refresh", colour: false)
                == "✗ The token endpoint refused the refresh token: invalid_grant; sign in again (login) for a new one")
    }

    @Test func aFailingExitWithoutJSONStillSaysSo() {
        #expect(FailureLine.line(for: nil, exit: 69, colour: false) == "✗ Failed (exit 69)")
    }

    /// The 404 page once read "Not found / Not found." (issue 36 point 7): its text says more.
    @Test func theNotFoundPageSaysMoreThanItsTitle() throws {
        let login = try RunningLogin(
            ["--endpoint", "https://id.example/authorize", "--client-id", "app", "--no-browser", "--timeout", "20"],
            environment: ["PATH": "/nonexistent"])
        let state = try #require(try LoginCommandTests.authorizationURL(login).queryParameters.value(named: "state"))
        let answer = try RawClient.get(port: login.port, "/nothing-here")
        _ = try RawClient.get(port: login.port, "/callback?code=C&state=\(state)")
        #expect(login.waitForExit() == 0)
        #expect(answer.statusCode == 404)
        #expect(!answer.text.contains("Not found."), "\(answer.text)")
        #expect(answer.text.contains("Nothing is served at this address"))
    }

    /// The SEE ALSO names were hyphenated across lines ("call‐ back-router-pkce(1)"): each is
    /// marked unbreakable with roff's `\%` (issue 36 point 7; checked by eye with `man -l`).
    @Test func seeAlsoNamesAreNeverHyphenated() throws {
        let run = runTool(["manpage"], environment: ["PATH": "/nonexistent"])
        #expect(run.exit == 0)
        let seeAlso = try #require(run.stdout.split(separator: ".SH SEE ALSO\n").last)
        let names = seeAlso.split(separator: "\n").prefix { !$0.hasPrefix(".PP") }
        #expect(names.count == CallbackRouterTool.commands.count)
        for name in names { #expect(name.hasPrefix(#"\%\fBcallback\-router\-"#), "\(name)") }
    }

    /// A fixed --port that is taken printed nothing on stdout (issue 36 point 7): now the
    /// rejection JSON like every other failure, and a line saying what to do.
    @Test func aTakenPortPrintsTheOutcomeJSON() throws {
        let holder = try LoopbackReceiver()
        defer { holder.close() }
        let run = runTool(
            ["login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--no-browser", "--port", "\(holder.port)"],
            environment: ["PATH": "/nonexistent"])
        #expect(run.exit == ExitCode.tryAgain)
        #expect(
            run.stdout.hasPrefix(#"{"outcome":"rejected","reason":"conflict","detail":"cannot listen on 127.0.0.1 port"#), "\(run.stdout)")
        #expect(run.stderr.hasSuffix("choose another --port, or leave it out for a free one\n"), "\(run.stderr)")
    }

    /// Discovery says what the provider will refuse before the browser opens (issue 36
    /// point 6): no `code` response type is a refusal; an unlisted scope a warning naming it.
    @Test func aProviderWithoutTheCodeResponseTypeIsRefusedBeforeTheBrowser() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer(
            "discovery",
            body: LoginTokenStepTests.metadata.replacingOccurrences(
                of: #""response_types_supported":["code"]"#, with: #""response_types_supported":["id_token"]"#))
        let run = runTool(
            ["login", "--issuer", LoginTokenStepTests.issuer, "--client-id", "app", "--no-browser"], environment: curl.environment)
        #expect(run.exit == ExitCode.usage)
        #expect(
            run.stdout.hasPrefix(
                #"{"outcome":"rejected","reason":"invalid_configuration","detail":"the provider's response_types_supported does not list code (id_token)"#
            ))
        #expect(!run.stderr.contains("waiting for the callback"), "no browser, no wait")
        #expect(run.stderr.contains("✗ Refused: invalid_configuration"))
    }

    @Test func anUnlistedScopeIsNamedBeforeTheBrowser() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer(
            "discovery",
            body: LoginTokenStepTests.metadata.replacingOccurrences(of: "}", with: #","scopes_supported":["openid","profile"]}"#))
        let login = try RunningLogin(
            [
                "--issuer", LoginTokenStepTests.issuer, "--client-id", "app", "--scope", "openid offline_access profile", "--no-browser",
                "--timeout", "20",
            ], environment: curl.environment)
        let state = try #require(try LoginCommandTests.authorizationURL(login).queryParameters.value(named: "state"))
        _ = try RawClient.get(port: login.port, "/callback?error=access_denied&state=\(state)")
        #expect(login.waitForExit() == ExitCode.providerFailure)
        let warning = "warning: the provider's discovery document does not list the scope offline_access (scopes_supported: openid profile)"
        #expect(login.output.stderr.contains(warning), "\(login.output.stderr)")
        let waiting = try #require(login.output.stderr.firstRange(of: "waiting for the callback"))
        #expect(try #require(login.output.stderr.firstRange(of: warning)).lowerBound < waiting.lowerBound, "said before the wait")
    }
}
