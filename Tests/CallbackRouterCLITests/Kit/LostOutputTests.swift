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
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// stdout on a real descriptor (/dev/full, a stream closed at start), stderr captured: the
/// tool's own StandardStreams does the writing, so its failures are the real ones.
final class RealStandardOutput: CommandOutput {
    let streams: StandardStreams
    let captured: CapturedOutput

    init(_ descriptor: Int32, closedAtStart: Bool = false, capturing captured: CapturedOutput = CapturedOutput()) {
        streams = StandardStreams(out: descriptor, err: -1, closedAtStart: closedAtStart ? [descriptor] : [])
        self.captured = captured
    }

    func writeOut(_ text: String) { streams.writeOut(text) }
    func writeErr(_ text: String) { captured.writeErr(text) }
    var lostStandardOutput: String? { streams.lostStandardOutput }
}

/// A result nobody received is never a success (issue 33, point 3): stdout on /dev/full,
/// closed, or a pipe whose reader is gone ends 74 (EX_IOERR) with one line on stderr; for
/// tokens the line says they were issued and lost.
@Suite struct LostOutputTests {
    static func devFull() throws -> Int32 {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HarnessError("no /dev/full") }
        return fd
    }

    /// Runs the tool in-process with stdout on `output` and `stdin` on a pipe.
    static func run(_ arguments: [String], output: RealStandardOutput, environment: [String: String] = [:], stdin: String = "")
        -> Int32
    {
        withStandardInput(Array(stdin.utf8)) {
            runTool(arguments, output: output, environment: environment, executablePath: "/nonexistent", standardInput: $0)
        }
    }

    static let callback = "com.example.app:/cb?code=CODE-1&state=S-1"

    @Test func parseWithStdoutOnDevFullExits74AndSaysSo() throws {
        let full = try Self.devFull()
        defer { close(full) }
        let output = RealStandardOutput(full)
        let exit = Self.run(["parse", "--state", "S-1", Self.callback], output: output)
        #expect(exit == ExitCode.ioError)
        #expect(output.captured.stderr == "callback-router: parse: the result could not be written to stdout (No space left on device)\n")
        #expect(!output.captured.stderr.contains("CODE-1"), "the lost result is not repeated on stderr")
    }

    @Test func aStreamClosedAtStartIsLostNotASilentSuccess() throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let output = RealStandardOutput(null, closedAtStart: true)
        #expect(Self.run(["pkce"], output: output) == ExitCode.ioError)
        #expect(output.captured.stderr.contains("pkce: the result could not be written to stdout (it was closed when the command started)"))
    }

    @Test func aReaderThatWentAwayIsExit74NotSIGPIPE() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let output = RealStandardOutput(ends[1])
        #expect(Self.run(["parse", Self.callback], output: output) == ExitCode.ioError)
        #expect(output.captured.stderr.contains("(Broken pipe)"))
    }

    @Test func helpOnDevFullIsExit74Too() throws {
        let full = try Self.devFull()
        defer { close(full) }
        for arguments in [["--help"], ["parse", "--help"], ["--version"]] {
            let output = RealStandardOutput(full)
            #expect(Self.run(arguments, output: output) == ExitCode.ioError, "\(arguments)")
        }
    }

    @Test func aLostRefreshSaysTheTokensWereIssuedAndCouldNotBeWritten() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", body: RefreshCommandTests.tokens)
        let full = try Self.devFull()
        defer { close(full) }
        let output = RealStandardOutput(full)
        let exit = Self.run(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], output: output,
            environment: curl.environment, stdin: "RT-1\n")
        #expect(exit == ExitCode.ioError)
        #expect(
            output.captured.stderr.hasPrefix(
                "callback-router: refresh: the tokens were issued and could not be written to stdout (No space left on device)"))
        #expect(!output.captured.stderr.contains("AT-new-0123") && !output.captured.stderr.contains("RT-next"))
    }

    @Test func aRefreshStartedWithStdoutClosedIsExit74() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", body: RefreshCommandTests.tokens)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let output = RealStandardOutput(null, closedAtStart: true)
        let exit = Self.run(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], output: output,
            environment: curl.environment, stdin: "RT-1\n")
        #expect(exit == ExitCode.ioError)
        #expect(output.captured.stderr.contains("the tokens were issued and could not be written to stdout"))
    }

    /// `login > /dev/full` redeemed the code, said "✓ Signed in" and exited 0 on main.
    @Test func aLostLoginIsExit74WithTheTokensLineAndNoSignedIn() throws {
        let full = try Self.devFull()
        defer { close(full) }
        let run = try LoginTokenStepTests.login(standardOutput: full) { nonce in
            LoginTokenStepTests.tokens(IDTokens.make(IDTokens.claims(nonce: nonce)))
        }
        defer { run.curl.remove() }
        #expect(run.exit == ExitCode.ioError, "\(run.err)")
        #expect(run.err.contains("login: the tokens were issued and could not be written to stdout (No space left on device)"))
        #expect(!run.err.contains("Signed in"), "\(run.err)")
        #expect(!run.err.contains("AT-login-1"))
    }

    @Test func aLostProgressLineChangesNothing() throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC), full = try Self.devFull()
        defer { close(null); close(full) }
        let output = StandardStreams(out: null, err: full)
        let exit = CallbackRouterTool.run(
            ["parse", "--state", "S-1", Self.callback], context: CommandContext(output: output, environment: [:], executablePath: "/x"))
        #expect(exit == ExitCode.success)
        #expect(output.lostStandardOutput == nil)
    }
}
