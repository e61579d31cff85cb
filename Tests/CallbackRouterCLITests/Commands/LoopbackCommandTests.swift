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
import CallbackDesktop
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing
import CallbackRouter

/// The command line of `loopback`: what it refuses before binding anything.
@Suite struct LoopbackCommandTests {
    func run(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let run = runTool(["loopback"] + arguments, executablePath: "/x")
        return (run.exit, run.stdout, run.stderr)
    }

    @Test(arguments: [
        ("no state choice", []),
        ("both", ["--state", "s", "--no-state"]),
        ("stdin and no state", ["--state-from-stdin", "--no-state"]),
        ("stdin and state", ["--state-from-stdin", "--state", "s"]),
        ("empty state", ["--state", ""]),
        ("state given twice", ["--state", "a", "--state", "b"]),
        ("port too large", ["--no-state", "--port", "65536"]),
        ("negative port", ["--no-state", "--port", "-1"]),
        ("path without slash", ["--no-state", "--path", "callback"]),
        ("path with query", ["--no-state", "--path", "/cb?x=1"]),
        ("path with fragment", ["--no-state", "--path", "/cb#x"]),
        ("path with space", ["--no-state", "--path", "/c b"]),
        ("path with bad escape", ["--no-state", "--path", "/c%zz"]),
        ("zero timeout", ["--no-state", "--timeout", "0"]),
        ("negative timeout", ["--no-state", "--timeout", "-3"]),
        ("nan timeout", ["--no-state", "--timeout", "nan"]),
        ("huge timeout", ["--no-state", "--timeout", "1e9"]),
        ("unknown dialect", ["--no-state", "--dialect", "saml"]),
        ("positional", ["--no-state", "http://127.0.0.1/"]),
        ("unknown option", ["--no-state", "--bind", "0.0.0.0"]),
        ("empty file name", ["--no-state", "--redirect-uri-file", ""]),
    ])
    func refusesBadUsageBeforeBinding(_ name: String, _ arguments: [String]) {
        let result = run(arguments)
        #expect(result.code == ExitCode.usage, "\(name)")
        #expect(result.stdout.isEmpty, "\(name): nothing on stdout, so a script reading line 1 sees EOF")
        #expect(result.stderr.contains("Try 'callback-router loopback --help'"), "\(name)")
    }

    @Test func helpDocumentsTheTwoLineContractAndEveryOption() {
        let result = run(["--help"])
        #expect(result.code == ExitCode.success)
        #expect(result.stdout.contains("{\"redirect_uri\":\"http://127.0.0.1:PORT/callback\"}"))
        for option in LoopbackCommand.options.map(\.name) {
            #expect(result.stdout.contains("--\(option)"), "--\(option) is not in --help")
        }
    }

    @Test func unwritableRedirectURIFileIsAUsageError() {
        let result = run(["--no-state", "--timeout", "5", "--redirect-uri-file", "/nonexistent-directory/uri"])
        #expect(result.code == ExitCode.usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--redirect-uri-file"))
    }

    @Test(arguments: ["/", "/callback", "/a/b-c_d.e~f", "/%7Euser", "/cb;x=1"])
    func acceptsPathsTheParserReadsBackUnchanged(_ path: String) {
        #expect(LoopbackOptions.isValidPath(path))
    }

    /// Writes `input` into a pipe (closing it when `close` is set) and reads the state line.
    func stateLine(_ input: String, closeAfter: Bool = true, wait: Duration = .seconds(2)) -> Result<
        String, StandardInput.LineProblem
    > {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failure(.unreadable(errno)) }
        defer { close(fds[0]); if !closeAfter { close(fds[1]) } }
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        if closeAfter { close(fds[1]) }
        return StandardInput.readLine(from: fds[0], until: ContinuousClock.now.advanced(by: wait))
    }

    @Test(arguments: [
        ("abc\n", "abc"), ("abc\r\n", "abc"), ("abc", "abc"), ("a b~\nrest ignored\n", "a b~"),
    ])
    func readsTheStateLineFromStdin(_ input: String, _ state: String) {
        #expect((try? stateLine(input).get()) == state)
    }

    @Test func refusesABadStateLine() {
        guard case .failure(.empty) = stateLine("") else { Issue.record("empty input accepted"); return }
        guard case .failure(.empty) = stateLine("\n") else { Issue.record("empty line accepted"); return }
        guard case .success("caf\u{e9} \u{6771}\u{4eac}") = stateLine("caf\u{e9} \u{6771}\u{4eac}\n") else {
            Issue.record("a non-ASCII state refused: a state is the client's opaque value"); return
        }
        guard case .failure(.tooLong) = stateLine(String(repeating: "x", count: StandardInput.maxLineBytes + 1) + "\n") else {
            Issue.record("an endless line accepted"); return
        }
    }

    @Test func refusesInvalidUTF8InsteadOfRepairingIt() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { Issue.record("pipe"); return }
        defer { close(fds[0]) }
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x0A] // "caf" + a lone Latin-1 é
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        #expect(StandardInput.readLine(from: fds[0], until: .now.advanced(by: .seconds(2))) == .failure(.notUTF8))
    }

    @Test(arguments: ["\u{e9}tat-\u{2713}-\u{6771}\u{4eac}", "a b", "x\ty"])
    func aStateOnTheCommandLineMayHoldAnyCharacters(_ state: String) {
        #expect(LoopbackCommand.isPlausibleState(state))
    }

    @Test func stateLineWaitEndsAtTheDeadline() {
        let clock = ContinuousClock()
        let started = clock.now
        guard case .failure(.timedOut) = stateLine("abc", closeAfter: false, wait: .milliseconds(200)) else {
            Issue.record("a line without its end and an open pipe did not time out"); return
        }
        #expect(clock.now - started >= .milliseconds(150))
    }
}

/// Prelude and Clerk accept only a custom-scheme redirect URI (Dialect.impliedPolicy): a
/// loopback receiver, whose redirect URI is http, is refused for them before anything is
/// bound or opened, as parse refuses such a --redirect-uri.
@Suite struct LoopbackDialectPolicyTests {
    static let loginArguments = [
        "login", "--endpoint", "https://id.example/authorize", "--client-id", "c", "--no-browser", "--timeout", "1",
    ]

    @Test(arguments: [
        ["loopback", "--no-state", "--dialect", "prelude", "--timeout", "1"],
        ["loopback", "--state", "s", "--dialect", "clerk", "--timeout", "1"],
        loginArguments + ["--dialect", "prelude"],
        loginArguments + ["--dialect", "clerk"],
    ])
    func aCustomSchemeDialectRefusesTheLoopbackReceiver(_ arguments: [String]) {
        let result = runTool(arguments, environment: [:])
        #expect(result.exit == ExitCode.usage, "\(result)")
        #expect(
            result.stdout.hasPrefix(#"{"outcome":"rejected","reason":"invalid_configuration","detail":"--dialect "#), "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").count == 1, "no redirect URI line: nothing was bound")
        #expect(result.stdout.contains("custom_scheme_required"))
    }

    @Test func parseRefusesTheSameRedirectForTheSameReason() {
        let parsed = runTool(
            [
                "parse", "--dialect", "prelude", "--redirect-uri", "http://127.0.0.1/callback",
                "http://127.0.0.1/callback?challenge_token=\(preludeToken("t"))",
            ],
            environment: [:])
        #expect(parsed.exit == ExitCode.usage)
        #expect(parsed.stdout.contains(#""reason":"invalid_configuration""#) && parsed.stdout.contains("custom_scheme_required"))
    }

    @Test func listenAppliesThePolicyToItsRedirectURIs() {
        let result = runTool(
            ["listen", "--scheme", "myapp", "--dialect", "clerk", "--redirect-uri", "http://127.0.0.1/cb", "--timeout", "0"],
            environment: ["XDG_RUNTIME_DIR": "/nonexistent-runtime"])
        #expect(result.exit == ExitCode.usage)
        #expect(result.stdout.contains(#""reason":"invalid_configuration""#), "\(result)")
    }

    @Test(arguments: ["oauth2", "ory", "zephr", "auto"])
    func otherDialectsStillBind(_ dialect: String) {
        #expect(LoopbackOptions.refusal(of: Dialect(rawValue: dialect)!) == nil)
    }
}

@Suite struct LoopbackCommandOptionTests {
    @Test(arguments: [("8000", [8000]), ("8000,18000,0", [8000, 18000, 0])])
    func readsAPortList(_ text: String, _ ports: [Int]) throws {
        let args = try Arguments(["--port", text], options: LoopbackCommand.options.valueNames, flags: LoopbackCommand.options.flagNames)
        #expect(try LoopbackOptions.readConfiguration(args).0.ports == ports)
    }

    @Test(arguments: ["", "80,", "x", "70000", "8000,,8001", "-1"])
    func refusesABadPortList(_ text: String) throws {
        let args = try Arguments(["--port", text], options: LoopbackCommand.options.valueNames, flags: LoopbackCommand.options.flagNames)
        #expect(throws: Arguments.UsageError.self) { try LoopbackOptions.readConfiguration(args) }
    }

    @Test(arguments: ["javascript:x", "https://a.example/\u{0D}\u{0A}x", "/local"])
    func refusesABadSuccessURL(_ url: String) throws {
        let args = try Arguments(
            ["--success-url", url], options: LoopbackCommand.options.valueNames, flags: LoopbackCommand.options.flagNames)
        #expect(throws: Arguments.UsageError.self) { try LoopbackOptions.readConfiguration(args) }
    }

    @Test func namesTheSSHForwardOnlyUnderSSH() {
        #expect(LoopbackOptions.sshForwardingHint(port: 4711, environment: [:]) == nil)
        let hint = LoopbackOptions.sshForwardingHint(port: 4711, environment: ["SSH_CONNECTION": "10.0.0.5 51000 10.0.0.9 2222"])
        #expect(hint?.contains("ssh -N -L 4711:127.0.0.1:4711 -p 2222 10.0.0.9") == true)
        let standard = LoopbackOptions.sshForwardingHint(port: 4711, environment: ["SSH_CONNECTION": "10.0.0.5 51000 10.0.0.9 22"])
        #expect(standard?.hasSuffix("ssh -N -L 4711:127.0.0.1:4711 10.0.0.9") == true)
    }
}

@Suite struct FormPostOptionTests {
    @Test func loopbackReadsTheResponseMode() throws {
        let formPost = try Arguments(
            ["--response-mode", "form_post"], options: LoopbackCommand.options.valueNames, flags: LoopbackCommand.options.flagNames)
        #expect(try LoopbackOptions.readConfiguration(formPost).0.responseMode == .formPost)
        let bad = try Arguments(
            ["--response-mode", "fragment"], options: LoopbackCommand.options.valueNames, flags: LoopbackCommand.options.flagNames)
        #expect(throws: Arguments.UsageError.self) { try LoopbackOptions.readConfiguration(bad) }
    }

    @Test func authorizeURLAsksForFormPost() {
        let (exit, out, _) = runTool(
            [
                "authorize-url", "--endpoint", "https://id.example/authorize", "--client-id", "app",
                "--redirect-uri", "http://127.0.0.1:8000/callback", "--response-mode", "form_post",
            ],
            environment: [:])
        #expect(exit == 0)
        #expect(out.contains("response_mode=form_post"))
        let (refused, _, _) = runTool(
            [
                "authorize-url", "--endpoint", "https://id.example/authorize", "--client-id", "app",
                "--redirect-uri", "http://127.0.0.1:8000/callback", "--response-mode", "query",
            ],
            environment: [:])
        #expect(refused == 64)
    }
}
