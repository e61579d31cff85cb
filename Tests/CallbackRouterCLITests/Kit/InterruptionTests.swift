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
@testable import CallbackSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import CallbackRouter

/// SIGINT and SIGTERM during a wait, delivered in-process (the e2e suite
/// Tests/EndToEnd/terminal.sh sends real signals to the real binary): the last stdout
/// line is the cancelled outcome and the exit code 130 / 143.
@Suite struct InterruptionTests {
    /// The commands wait 600 s: on 2 cores the cooperative pool this test sleeps on can be
    /// held for half a minute by other suites' blocking waits, and a shorter wait ended on
    /// its own timeout before the signal came (a flaky 75 instead of 130).
    /// Runs `arguments` on a thread, delivers `signal` once `ready` holds, and returns the
    /// exit code (the command's, or the one the signal thread would `_exit` with) and stdout
    /// at that moment.
    func interrupt(
        _ arguments: [String], environment: [String: String] = [:], with signal: Int32,
        once ready: @escaping (CapturedOutput) -> Bool
    ) async throws -> (code: Int32, stdout: String) {
        let output = CapturedOutput()
        let exited = Locked<(code: Int32, stdout: String)?>(nil)
        let interruption = Interruption(terminate: { code in exited.withLock { $0 = (code, output.stdout) } })
        var context = CommandContext(output: output, environment: environment, executablePath: "/x")
        context.interruption = interruption
        let finished = Locked<Int32?>(nil)
        let started = DetachedThread.start { [context] in
            let code = CallbackRouterTool.run(arguments, context: context)
            finished.withLock { $0 = code }
        }
        #expect(started)
        for _ in 0 ..< 2000 where !ready(output) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ready(output), "the command did not start waiting: \(output.stderr)")
        interruption.deliver(signal)
        for _ in 0 ..< 500 where finished.withLock({ $0 }) == nil && exited.withLock({ $0 }) == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        if let exit = exited.withLock({ $0 }) { return exit }
        return (finished.withLock { $0 } ?? -1, output.stdout)
    }

    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    static let cancelled = #"{"outcome":"rejected","reason":"cancelled""#

    @Test(arguments: [(SIGINT, ExitCode.interrupted), (SIGTERM, ExitCode.terminated)])
    func loopbackEndsWithTheCancelledOutcome(_ signal: Int32, _ expected: Int32) async throws {
        let result = try await interrupt(["loopback", "--no-state", "--timeout", "600"], with: signal) {
            $0.stdout.contains("redirect_uri")
        }
        #expect(result.code == expected)
        #expect(Self.lastLine(result.stdout).hasPrefix(Self.cancelled))
        #expect(!result.stdout.contains("timeout"))
    }

    @Test func loopbackReadingItsStateFromStdinEndsWithTheCancelledOutcome() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let output = CapturedOutput()
        let exited = Locked<Int32?>(nil)
        let interruption = Interruption(terminate: { code in exited.withLock { $0 = code } })
        var context = CommandContext(output: output, environment: [:], executablePath: "/x", standardInput: fds[0])
        context.interruption = interruption
        let started = DetachedThread.start { [context] in
            _ = CallbackRouterTool.run(["loopback", "--state-from-stdin", "--timeout", "3"], context: context)
        }
        #expect(started)
        for _ in 0 ..< 500 where !output.stdout.contains("redirect_uri") { try await Task.sleep(for: .milliseconds(10)) }
        interruption.deliver(SIGTERM)
        #expect(exited.withLock { $0 } == ExitCode.terminated)
        #expect(Self.lastLine(output.stdout).hasPrefix(Self.cancelled))
    }

    @Test func loginEndsWithTheCancelledOutcomeAndWhatTheTokenRequestNeeds() async throws {
        let result = try await interrupt(
            [
                "login", "--endpoint", "https://example.com/authorize", "--client-id", "abc", "--no-browser",
                "--timeout", "600",
            ], with: SIGINT
        ) { $0.stderr.contains("waiting for the callback") }
        #expect(result.code == ExitCode.interrupted)
        let line = Self.lastLine(result.stdout)
        #expect(line.hasPrefix(Self.cancelled))
        #expect(line.contains("\"redirect_uri\":\"http://127.0.0.1:"))
    }

    @Test func listenEndsWithTheCancelledOutcomeAndRemovesItsSocket() async throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let runtime = temporary.privateSubdirectory("run")
        let sockets = joinPath(runtime, "callback-router/listeners")
        func socketCount() -> Int {
            ((try? FileSystem.entries(sockets)) ?? []).reduce(0) { count, key in
                count + (((try? FileSystem.entries(joinPath(sockets, key))) ?? []).filter { $0.hasSuffix(".sock") }.count)
            }
        }
        let result = try await interrupt(
            ["listen", "--scheme", "myapp", "--state", "xyz", "--timeout", "600"], environment: isolatedEnvironment(runtime: runtime),
            with: SIGINT
        ) { _ in socketCount() > 0 }
        #expect(result.code == ExitCode.interrupted)
        #expect(Self.lastLine(result.stdout).hasPrefix(Self.cancelled))
        #expect(socketCount() == 0)
    }

    @Test func aSignalAfterTheFinalLineAddsNothing() {
        let output = CapturedOutput()
        let exited = Locked<Int32?>(nil)
        let interruption = Interruption(terminate: { code in exited.withLock { $0 = code } })
        interruption.beginWaiting(output: output)
        interruption.finish()
        interruption.deliver(SIGINT)
        #expect(output.stdout.isEmpty)
        #expect(exited.withLock { $0 } == nil)
    }

    @Test func aSignalOutsideAWaitEndsLikeTheDefaultAction() {
        let exited = Locked<Int32?>(nil)
        let interruption = Interruption(terminate: { code in exited.withLock { $0 = code } })
        interruption.deliver(SIGTERM)
        #expect(exited.withLock { $0 } == ExitCode.terminated)
    }
}
