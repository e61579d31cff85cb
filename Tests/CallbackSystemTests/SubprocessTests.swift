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

import CallbackSystem
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Running a program as the token step runs curl: input on its stdin, its outputs read
/// within limits and a deadline. Real processes (`/bin/sh`).
@Suite struct SubprocessTests {
    static let environment = ["PATH": "/usr/bin:/bin"]

    static func shell(_ script: String, input: [UInt8] = [], outputLimit: Int = 1 << 20, milliseconds: Int64 = 10_000) throws
        -> Subprocess.Exchange
    {
        try Subprocess.exchange(
            "/bin/sh", ["-c", script], environment: environment, input: input, outputLimit: outputLimit, errorLimit: 4096,
            until: .after(milliseconds: milliseconds))
    }

    @Test func theInputReachesTheProgramsStdinAndItsOutputsComeBack() throws {
        let secret = Array("client_secret=s3cr3t\n".utf8)
        let result = try Self.shell("cat; echo oops >&2; exit 3", input: secret)
        #expect(result.status == 3)
        #expect(result.standardOutput == secret)
        #expect(result.standardError == Array("oops\n".utf8))
        #expect(result.stop == nil)
    }

    @Test func aProgramThatDoesNotReadItsInputDoesNotKillTheCaller() throws {
        // More than a pipe holds: the write meets a closed pipe (EPIPE), not SIGPIPE.
        let result = try Self.shell("exec 0<&-; exit 4", input: [UInt8](repeating: 0x61, count: 1 << 20))
        #expect(result.status == 4)
    }

    @Test func outputPastTheLimitStopsAndKillsTheProgram() throws {
        let result = try Self.shell("while :; do echo 0123456789abcdef; done", outputLimit: 10_000)
        #expect(result.stop == .outputOverLimit)
        #expect(result.standardOutput.count > 10_000)
        #expect(result.status == 128 + SIGKILL)
    }

    @Test func stderrPastItsLimitIsDroppedNotFatal() throws {
        let result = try Self.shell("i=0; while [ $i -lt 2000 ]; do echo 0123456789 >&2; i=$((i+1)); done; echo done")
        #expect(result.stop == nil && result.status == 0)
        #expect(result.standardOutput == Array("done\n".utf8))
        #expect(result.standardError.count >= 4096 && result.standardError.count < 4096 + 16 * 1024)
    }

    @Test func aProgramPastTheDeadlineIsKilled() throws {
        let started = SystemClock.monotonicMilliseconds()
        let result = try Self.shell("sleep 30", milliseconds: 300)
        #expect(result.stop == .timedOut)
        #expect(result.status == 128 + SIGKILL)
        #expect(SystemClock.monotonicMilliseconds() - started < 10_000)
    }

    @Test func aProgramThatCannotStartIsASpawnError() {
        do {
            _ = try Subprocess.exchange(
                "/nonexistent/curl", [], environment: Self.environment, input: [], outputLimit: 1, errorLimit: 1,
                until: .after(milliseconds: 1000))
            Issue.record("a missing program started")
        } catch {
            #expect(error.operation == "posix_spawn")
            #expect(error.path == "/nonexistent/curl")
        }
    }

    @Test func anExitWithinTheGraceIsReportedAndALongRunIsLeftRunning() throws {
        let quick = try #require(Subprocess.spawn("/bin/sh", ["-c", "exit 7"], environment: Self.environment, standardOutput: nil))
        #expect(Subprocess.exitStatus(of: quick, withinMilliseconds: 5000) == 7)
        let slow = try #require(Subprocess.spawn("/bin/sh", ["-c", "sleep 30"], environment: Self.environment, standardOutput: nil))
        #expect(Subprocess.exitStatus(of: slow, withinMilliseconds: 100) == nil)
        kill(slow, SIGKILL)
        #expect(Subprocess.exitStatus(of: slow, withinMilliseconds: 5000) == 128 + SIGKILL)
    }

    static let waitStatuses: [(Int32, Int32)] = [(0, 0), (0x300, 3), (0xFF00, 255), (9, 137), (15, 143)]

    @Test(arguments: waitStatuses)
    func exitStatusesAreReadAsAShellReadsThem(_ waitStatus: Int32, _ expected: Int32) {
        #expect(Subprocess.exitStatus(fromWaitStatus: waitStatus) == expected)
    }

    @Test func theDesktopsRunCapturesStdout() throws {
        let result = try #require(Subprocess.run("/bin/sh", ["-c", "echo hello; exit 2"], environment: Self.environment))
        #expect(result.status == 2 && result.standardOutput == "hello\n")
    }
}
