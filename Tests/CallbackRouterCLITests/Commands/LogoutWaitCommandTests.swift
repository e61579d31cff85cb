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
import CallbackSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// `loopback --logout` over real sockets on 127.0.0.1: the post-logout redirect, judged
/// exactly as `parse --logout` judges it.
@Suite struct LoopbackLogoutCommandTests {
    static let state = "lo-St4te_0123456789abcdefghijklmnop"
    static let secret = "SECRET-VALUE-4711"

    func parse(_ arguments: [String]) -> (exit: Int32, stdout: String, stderr: String) {
        runTool(["parse"] + arguments, environment: [:])
    }

    @Test(arguments: [
        ("issuer", ["--logout", "--state", "s", "--issuer", LoopbackLogoutCommandTests.secret]),
        ("require-issuer", ["--logout", "--state", "s", "--require-issuer"]),
        ("dialect", ["--logout", "--state", "s", "--dialect", "oauth2"]),
        ("form_post", ["--logout", "--state", "s", "--response-mode", "form_post"]),
        ("no state choice", ["--logout"]),
        ("state and no-state", ["--logout", "--state", LoopbackLogoutCommandTests.secret, "--no-state"]),
        ("stdin and no-state", ["--logout", "--state-from-stdin", "--no-state"]),
    ])
    func refusesLoginOptionsBeforeBinding(_ name: String, _ arguments: [String]) {
        let result = runTool(["loopback"] + arguments + ["--timeout", "5"], environment: [:])
        #expect(result.exit == ExitCode.usage, "\(name)")
        #expect(result.stdout.isEmpty, "\(name): nothing bound, nothing printed")
        #expect(!result.stderr.contains(Self.secret), "\(name): the message echoes a value")
        #expect(result.stderr.contains("Try 'callback-router loopback --help'"), "\(name)")
    }

    @Test func theLogoutsRedirectPrintsWhatParseLogoutPrints() throws {
        let run = try RunningLoopback(["--logout", "--state", Self.state, "--timeout", "20"])
        let target = "/callback?state=\(Self.state)&ui=en"
        let response = try RawClient.get(port: run.port, target)
        #expect(response.statusCode == 200)
        #expect(!response.text.contains(Self.state))
        #expect(run.waitForExit() == ExitCode.success)
        let parsed = parse(["--logout", "--state", Self.state, "--redirect-uri", run.redirectURI, "http://127.0.0.1:\(run.port)\(target)"])
        #expect(run.lastLine + "\n" == parsed.stdout)
        #expect(run.lastLine.hasPrefix("{\"outcome\":\"logout_complete\""))
        #expect(!run.output.stderr.contains(Self.state))
    }

    /// A login's callback never completes the logout: another login's is ignored; one with
    /// the logout's state is the provider's final word, refused as parse --logout refuses it.
    @Test func aLoginsCallbackNeverCompletesTheLogout() throws {
        let run = try RunningLoopback(["--logout", "--state", Self.state, "--timeout", "20"])
        #expect(try RawClient.get(port: run.port, "/callback?code=c1&state=another-login").statusCode == 400)
        let target = "/callback?code=c2&state=\(Self.state)"
        #expect(try RawClient.get(port: run.port, target).statusCode == 400)
        #expect(run.waitForExit() == ExitCode.rejected)
        #expect(run.lastLine.contains("\"reason\":\"invalid_parameter\""))
        let parsed = parse(["--logout", "--state", Self.state, "--redirect-uri", run.redirectURI, "http://127.0.0.1:\(run.port)\(target)"])
        #expect(run.lastLine + "\n" == parsed.stdout)
        #expect(parsed.exit == ExitCode.rejected)
        #expect(!run.lastLine.contains("logout_complete"))
    }

    /// The reverse: a logout's redirect never completes a login's wait.
    @Test func aLogoutsRedirectNeverCompletesALogin() throws {
        let run = try RunningLoopback(["--state", Self.state, "--timeout", "20"])
        #expect(try RawClient.get(port: run.port, "/callback?state=\(Self.state)").statusCode == 400)
        #expect(run.waitForExit() == ExitCode.rejected)
        #expect(run.lastLine.contains("\"reason\":\"missing_parameter\""))
        #expect(!run.lastLine.contains("logout_complete"))
    }

    @Test func withNoStateTheOutcomeIsUnboundAndALoginsCallbackIsIgnored() throws {
        let run = try RunningLoopback(["--logout", "--no-state", "--timeout", "20"])
        let ignored = try RawClient.get(port: run.port, "/callback?code=c1")
        #expect(ignored.statusCode == 400)
        #expect(try RawClient.get(port: run.port, "/callback").statusCode == 200)
        #expect(run.waitForExit() == ExitCode.success)
        #expect(run.lastLine == parse(["--logout", "--no-state", "http://127.0.0.1:\(run.port)/callback"]).stdout.dropLast())
        #expect(run.lastLine.contains("\"unbound\":true"))
        #expect(run.output.stderr.contains("ignored a callback"))
    }

    @Test func theStateCanComeFromStandardInput() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let output = CapturedOutput()
        let reader = fds[0]
        let thread = BlockingThread {
            CallbackRouterTool.run(
                ["loopback", "--logout", "--state-from-stdin", "--timeout", "20"],
                context: CommandContext(output: output, environment: [:], executablePath: "/x", standardInput: reader))
        }
        var port = 0
        for _ in 0 ..< 1000 where port == 0 {
            if let line = output.stdout.split(separator: "\n").first, let match = line.split(separator: ":").last {
                port = Int(match.prefix { $0.isNumber }) ?? 0
            }
            if port == 0 { usleep(10_000) }
        }
        #expect(port > 0)
        let line = Array("\(Self.state)\n".utf8)
        #expect(line.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == line.count)
        close(fds[1])
        // The state is read before the wait; a request sent now waits in the backlog.
        #expect(try RawClient.get(port: port, "/callback?state=\(Self.state)").statusCode == 200)
        #expect(thread.join() == ExitCode.success)
        #expect(output.stdout.contains("{\"outcome\":\"logout_complete\""))
        #expect(!output.stderr.contains(Self.state))
    }
}

/// `listen --logout` through the real hand-off (open → socket or spool), in-process.
@Suite struct ListenLogoutCommandTests {
    let temporary = TemporaryDirectory()
    let runtimeBase: String
    var environment: [String: String] { isolatedEnvironment(runtime: runtimeBase) }
    static let state = "lo-l1sten-St4te_abcdefghij"
    static let secret = "SECRET-VALUE-0815"

    init() {
        runtimeBase = temporary.privateSubdirectory("run")
    }

    func startListening(_ arguments: [String]) -> BlockingThread<(exit: Int32, stdout: String, stderr: String)> {
        let environment = environment
        let base = joinPath(runtimeBase, "callback-router/listeners")
        func sockets() -> Int {
            ((try? FileSystem.entries(base)) ?? []).reduce(0) { count, key in
                count + (((try? FileSystem.entries(joinPath(base, key))) ?? []).filter { $0.hasSuffix(".sock") }.count)
            }
        }
        let before = sockets()
        let thread = BlockingThread { runTool(["listen"] + arguments, environment: environment) }
        let deadline = Deadline.after(milliseconds: 5000)
        while sockets() <= before && !deadline.hasPassed { usleep(1000) }
        return thread
    }

    @Test(arguments: [
        ("issuer", ["--logout", "--state", "s", "--issuer", ListenLogoutCommandTests.secret]),
        ("require-issuer", ["--logout", "--state", "s", "--require-issuer"]),
        ("dialect", ["--logout", "--state", "s", "--dialect", "oauth2"]),
        ("form_post", ["--logout", "--state", "s", "--response-mode", "form_post"]),
        ("fragment", ["--logout", "--state", "s", "--response-mode", "fragment"]),
        ("no state choice", ["--logout"]),
        ("state and no-state", ["--logout", "--state", ListenLogoutCommandTests.secret, "--no-state"]),
        ("no-state without logout", ["--no-state"]),
    ])
    func refusesLoginOptionsBeforeListening(_ name: String, _ arguments: [String]) {
        defer { temporary.remove() }
        let result = runTool(["listen", "--scheme", "myapp", "--timeout", "0"] + arguments, environment: environment)
        #expect(result.exit == ExitCode.usage, "\(name): \(result.stderr)")
        #expect(result.stdout.isEmpty, "\(name)")
        #expect(!result.stderr.contains(Self.secret), "\(name): the message echoes a value")
    }

    static let cases: [(options: [String], url: String)] = [
        (["--state", state], "myapp:/logged-out?state=\(state)"),
        (["--state", state, "--redirect-uri", "myapp:/logged-out"], "myapp:/logged-out?state=\(state)&x=1"),
        // A login's callback with the logout's state: refused, never logout_complete.
        (["--state", state], "myapp:/logged-out?code=c1&state=\(state)"),
        (["--state", state], "myapp:/logged-out?error=access_denied&state=\(state)"),
        (["--no-state"], "myapp:/logged-out"),
    ]

    /// A logout wait without a state is a stateless wait (issue 34): a login's callback,
    /// which `parse --logout --no-state` refuses, does not end it; the redirect that
    /// follows completes it. (Formerly it ended the wait with 65.)
    @Test func aRefusedCallbackNeverEndsALogoutWaitWithoutState() {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--logout", "--no-state", "--response-mode", "query", "--timeout", "10"])
        #expect(runTool(["parse", "--logout", "--no-state", "--", "myapp:/logged-out?code=c1"], environment: environment).exit == 65)
        #expect(runTool(["open", "myapp:/logged-out?code=c1"], environment: environment).stdout.contains("\"spooled\""))
        #expect(runTool(["open", "myapp:/logged-out"], environment: environment).stdout == "{\"outcome\":\"delivered\"}\n")
        let listened = listening.join()
        #expect(listened.exit == 0, "stderr: \(listened.stderr)")
        #expect(listened.stdout.contains("\"outcome\":\"logout_complete\""))
        #expect(listened.stderr.contains("ignored a callback its dialect refused"))
    }

    @Test(arguments: cases)
    func printsExactlyWhatParseLogoutPrints(options: [String], url: String) {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--logout", "--timeout", "10"] + options)
        #expect(runTool(["open", url], environment: environment).exit == 0)
        let listened = listening.join()
        let parseOptions = options.filter { $0 != "--response-mode" && $0 != "query" }
        let parsed = runTool(["parse", "--logout"] + parseOptions + ["--", url], environment: environment)
        #expect(listened.stdout == parsed.stdout, "stderr: \(listened.stderr)")
        #expect(listened.exit == parsed.exit)
        #expect(listened.stdout.hasPrefix("{\"outcome\":"))
        let completes = !url.contains("code=") && !url.contains("error=")
        #expect(listened.stdout.contains("\"outcome\":\"logout_complete\"") == completes)
    }

    /// The reverse: a logout's redirect never completes a login's `listen`.
    @Test func aLogoutsRedirectNeverCompletesALogin() {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--state", Self.state, "--timeout", "10"])
        #expect(runTool(["open", "myapp:/cb?state=\(Self.state)"], environment: environment).exit == 0)
        let listened = listening.join()
        #expect(listened.exit == ExitCode.rejected)
        #expect(listened.stdout.contains("\"reason\":\"missing_parameter\""))
        #expect(!listened.stdout.contains("logout_complete"))
    }

    /// Another login's callback (another state) goes elsewhere: the logout keeps waiting.
    @Test func anotherLoginsCallbackIsNotTheLogouts() {
        defer { temporary.remove() }
        let url = "myapp:/cb?code=c1&state=another-login"
        #expect(runTool(["open", url], environment: environment).stdout.contains("spooled"))
        let listened = runTool(
            ["listen", "--scheme", "myapp", "--logout", "--state", Self.state, "--timeout", "0"], environment: environment)
        #expect(listened.exit == ExitCode.tryAgain)
        #expect(listened.stdout.contains("\"reason\":\"timeout\""))
    }

    @Test func readsTheStateFromStandardInput() {
        defer { temporary.remove() }
        let url = "myapp:/logged-out?state=\(Self.state)"
        #expect(runTool(["open", url], environment: environment).stdout.contains("spooled"))
        let listened = runTool(
            ["listen", "--scheme", "myapp", "--logout", "--state-from-stdin", "--timeout", "0"], environment: environment,
            stdin: Array("\(Self.state)\n".utf8))
        #expect(listened.exit == ExitCode.success, "stderr: \(listened.stderr)")
        #expect(listened.stdout == runTool(["parse", "--logout", "--state", Self.state, url], environment: environment).stdout)
        #expect(!listened.stderr.contains(Self.state))
    }
}
