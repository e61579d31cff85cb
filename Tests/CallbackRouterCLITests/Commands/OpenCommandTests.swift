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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackSystem

@Suite struct OpenCommandTests {
    let temporary = TemporaryDirectory()
    let runtimeBase: String
    var environment: [String: String] { isolatedEnvironment(runtime: runtimeBase) }

    init() {
        runtimeBase = temporary.privateSubdirectory("run")
    }

    var spoolEntries: [String] {
        ((try? FileSystem.entries(joinPath(runtimeBase, "callback-router/spool"))) ?? []).filter { !$0.hasPrefix(".") }
    }

    @Test(arguments: [
        ("myapp://cb?code=1&state=a&state=b", "duplicate_parameter"),
        ("https://example.com/cb?code=1", "scheme_not_allowed"),
        ("javascript:alert(document.cookie)", "scheme_not_allowed"),
        ("myapp://cb?code=1 2", "invalid_character"),
        ("/relative?code=1", "relative_reference"),
        ("", "empty_input"),
        ("myapp://cb?code=%zz", "invalid_percent_encoding"),
    ])
    func rejectsURLsItCannotRoute(url: String, reason: String) {
        defer { temporary.remove() }
        let result = runTool(["open", url], environment: environment)
        #expect(result.exit == ExitCode.rejected)
        #expect(result.stdout.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"\(reason)\""))
        #expect(spoolEntries.isEmpty)
    }

    @Test func spoolsWhenNobodyListens() {
        defer { temporary.remove() }
        let result = runTool(["open", "myapp://cb?code=1&state=s"], environment: environment)
        #expect(result.exit == 0)
        #expect(result.stdout == "{\"outcome\":\"spooled\",\"expires_in\":600}\n")
        #expect(spoolEntries.count == 1)
        let ttl = runTool(["open", "--spool-ttl", "30", "myapp://cb?code=2&state=t"], environment: environment)
        #expect(ttl.stdout == "{\"outcome\":\"spooled\",\"expires_in\":30}\n")
    }

    @Test func failsWithNoRouteWhenSpoolingIsOff() {
        defer { temporary.remove() }
        let result = runTool(["open", "--no-spool", "myapp://cb?code=1&state=s"], environment: environment)
        #expect(result.exit == ExitCode.unavailable)
        #expect(result.stdout.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"no_route\""))
        #expect(spoolEntries.isEmpty)
    }

    @Test func reportsAConflictWithTwoStatelessListeners() throws {
        defer { temporary.remove() }
        let scheme = try CallbackScheme(validating: "myapp")
        // Two receivers of the library's public API. Each refuses every URL it would be handed:
        // `open` spools the URL before it offers it, and a stateless receiver whose wait began
        // after that would take it from the spool. The conflict is decided on the offers alone.
        func receiver() throws -> Handover<BlockingHandoffReceiver> {
            Handover(try BlockingHandoffReceiver(scheme: scheme, state: nil, environment: environment, accepting: { _ in false }))
        }
        let first = try receiver()
        let second = try receiver()
        let waits = [first, second].map { receiver in
            BlockingThread { try? receiver.value.wait(timeout: .seconds(5)) }
        }
        let result = runTool(["open", "myapp://cb?challenge_token=\(preludeToken("ct"))"], environment: environment)
        #expect(result.exit == ExitCode.tryAgain)
        #expect(result.stdout.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"conflict\""))
        #expect(waits.map { $0.join() } == [.conflict, .conflict])
        #expect(spoolEntries.isEmpty)
    }

    @Test(arguments: [0o755, 0o750, 0o701, 0o777] as [mode_t])
    func refusesARuntimeDirectoryOthersCanEnter(mode: mode_t) {
        defer { temporary.remove() }
        chmod(runtimeBase, mode)
        let result = runTool(["open", "myapp://cb?code=1&state=s"], environment: environment)
        #expect(result.exit == ExitCode.permission)
        #expect(result.stderr.contains("must be 0700"))
        #expect((try? FileSystem.entries(runtimeBase)) == [])
    }

    /// As root only: the directory is made someone else's (nobody's). The library's refusal
    /// of a directory of another uid, seen as that uid, is
    /// `RuntimeDirectoryTests.aDirectoryOfAnotherUserIsRefused` (CallbackDesktopTests).
    @Test(.enabled(if: getuid() == 0)) func refusesARuntimeDirectoryOfAnotherUser() throws {
        defer { temporary.remove() }
        chown(runtimeBase, 65534, 65534)
        let result = runTool(["open", "myapp://cb?code=1&state=s"], environment: environment)
        #expect(result.exit == ExitCode.permission)
        #expect(result.stderr.contains("belongs to uid 65534"))
    }

    @Test func refusesALinkedOrRelativeRuntimeDirectory() {
        defer { temporary.remove() }
        let link = joinPath(temporary.path, "link")
        symlink(runtimeBase, link)
        #expect(runTool(["open", "myapp://cb?code=1"], environment: isolatedEnvironment(runtime: link)).exit == ExitCode.permission)
        #expect(runTool(["open", "myapp://cb?code=1"], environment: isolatedEnvironment(runtime: "run/user")).exit == ExitCode.permission)
    }

    @Test func refusesARuntimeSubdirectoryOthersCanEnter() throws {
        defer { temporary.remove() }
        let ours = joinPath(runtimeBase, "callback-router")
        mkdir(ours, 0o700)
        chmod(ours, 0o711)
        #expect(runTool(["open", "myapp://cb?code=1"], environment: environment).exit == ExitCode.permission)
    }

    @Test func neverPrintsASecretToStandardError() throws {
        defer { temporary.remove() }
        let secretURL = "myapp://cb?code=SECRETCODE123&state=SECRETSTATE456&session_id=SECRETSESSION789"
        var outcomes: [(exit: Int32, stdout: String, stderr: String)] = []
        outcomes.append(runTool(["open", "--no-spool", secretURL], environment: environment))
        outcomes.append(runTool(["open", secretURL + "&state=SECRETSTATE456"], environment: environment))
        outcomes.append(runTool(["open", secretURL.replacingOccurrences(of: "myapp", with: "https")], environment: environment))
        outcomes.append(runTool(["open", secretURL], environment: environment))
        chmod(runtimeBase, 0o755)
        outcomes.append(runTool(["open", secretURL], environment: environment))
        #expect(outcomes.map(\.exit) == [ExitCode.unavailable, ExitCode.rejected, ExitCode.rejected, 0, ExitCode.permission])
        for outcome in outcomes {
            #expect(!outcome.stderr.contains("SECRET"))
            #expect(!outcome.stdout.contains("SECRET"))
        }
    }

    @Test(arguments: [
        ["open"], ["open", "a:b", "c:d"], ["open", "--spool-ttl", "0", "myapp://x"],
        ["open", "--spool-ttl", "86401", "myapp://x"], ["open", "--bogus", "myapp://x"],
    ])
    func refusesBadUsage(arguments: [String]) {
        defer { temporary.remove() }
        #expect(runTool(arguments, environment: environment).exit == ExitCode.usage)
    }
}
