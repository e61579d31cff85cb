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
import CallbackRouter
import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackSystem
import CallbackTestSupport

/// `login --scheme S` through the real hand-off socket: a "browser" (a `$BROWSER` script)
/// records its command line and environment and is opened on a one-time start link on
/// 127.0.0.1, which the test follows as a browser would to learn the state a real provider
/// would return.
@Suite struct LoginSchemeCommandTests {
    let temporary = TemporaryDirectory()

    /// A login waiting on `myapp:` and what its browser was given.
    struct WaitingLogin {
        let thread: BlockingThread<(exit: Int32, stdout: String, stderr: String)>
        let environment: [String: String]
        /// The browser's argv (one line) and environment (`export -p`), as it recorded them.
        let recorded: String
        /// What the browser was opened on.
        let link: String
        let port: Int
    }

    /// Starts `login --scheme myapp` with a `$BROWSER` that records `"$@"` and `export -p`
    /// (PATH is /nonexistent: the shell's builtins only) and waits until it has.
    func startLogin(_ extra: [String] = [], environment extraEnvironment: [String: String] = [:]) throws -> WaitingLogin {
        let runtime = temporary.privateSubdirectory("run")
        let recorded = joinPath(temporary.path, "browser-saw")
        let browser = joinPath(temporary.path, "browser")
        // The file is complete once its last line, "end", is there.
        let script = Array("#!/bin/sh\n{ printf 'argv %s\\n' \"$*\"; export -p; printf 'end\\n'; } > '\(recorded)'\n".utf8)
        let descriptor = try FileSystem.createExclusive(browser, mode: 0o700)
        try descriptor.writeAll(script)
        descriptor.close()
        var environment = isolatedEnvironment(runtime: runtime)
        environment["BROWSER"] = browser
        environment.merge(extraEnvironment) { $1 }
        let arguments =
            [
                "login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp",
                "--redirect-uri", "myapp:/callback", "--dialect", "oauth2", "--timeout", "15",
            ] + extra
        let environmentCopy = environment
        let thread = BlockingThread { runTool(arguments, environment: environmentCopy) }
        let deadline = Deadline.after(milliseconds: 10_000)
        func readRecorded() -> String? {
            (try? FileSystem.readFile(recorded)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
        }
        while readRecorded()?.hasSuffix("end\n") != true && !deadline.hasPassed { usleep(10_000) }
        reapBrowser()
        let saw = try #require(readRecorded())
        let argv = try #require(saw.split(separator: "\n").first.map { String($0.dropFirst("argv ".count)) })
        let prefix = "http://127.0.0.1:"
        let port = Int(argv.dropFirst(prefix.count).prefix { $0.isNumber }) ?? 0
        return WaitingLogin(thread: thread, environment: environment, recorded: saw, link: argv, port: port)
    }

    /// The browser's part: follow the start link to the authorization URL.
    func follow(_ login: WaitingLogin) throws -> CallbackURL {
        let path = String(login.link.dropFirst("http://127.0.0.1:\(login.port)".count))
        let start = try RawClient.get(port: login.port, path)
        #expect(start.statusCode == 302, "\(start.text)")
        return try CallbackURL(parsing: try #require(start.header("location")))
    }

    /// Issue 33: the authorization URL (state, challenge, nonce) was the browser's argument,
    /// readable by every local user in /proc/PID/cmdline. Now the browser gets a one-time
    /// link on 127.0.0.1 that redirects once, and nothing of the login is in its environment.
    @Test func theBrowserGetsAOneTimeStartLinkNeverTheStateChallengeOrNonce() throws {
        defer { temporary.remove() }
        let login = try startLogin()
        #expect(login.link.hasPrefix("http://127.0.0.1:\(login.port)/start/"), "\(login.link)")
        #expect(login.link.count >= "http://127.0.0.1:\(login.port)/start/".count + 43, "256 random bits")
        let path = String(login.link.dropFirst("http://127.0.0.1:\(login.port)".count))
        // A link scanner's HEAD and another path neither reveal nor use it.
        let head = try RawClient.get(port: login.port, path, method: "HEAD")
        #expect(head.statusCode == 200 && head.header("location") == nil)
        let other = try RawClient.get(port: login.port, "/callback?code=c&state=s")
        #expect(other.statusCode == 404, "nothing but the start link is served: \(other.text)")

        let authorization = try follow(login)
        #expect(authorization.host?.text == "id.example")
        let parameters = authorization.queryParameters
        let secrets = try ["state", "code_challenge", "nonce"].map { try #require(try parameters.value(named: $0)) }
        for secret in secrets {
            #expect(!login.recorded.contains(secret), "the browser's argv or environment holds a secret of the login")
        }
        let again = try RawClient.get(port: login.port, path)
        #expect(again.statusCode == 410, "used once")
        #expect(again.header("location") == nil && !again.text.contains("id.example"))

        let real = runTool(["open", "myapp:/callback?code=real&state=\(secrets[0])"], environment: login.environment)
        #expect(real.stdout == "{\"outcome\":\"delivered\"}\n")
        let result = login.thread.join()
        #expect(result.exit == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("\"code\":\"real\""))
        for secret in secrets { #expect(!result.stderr.contains(secret), "stderr holds a secret of the login") }
        #expect(result.stderr.contains("the sign-in link (it works once): \(login.link)"))
        #expect(!isListening(port: login.port), "the start link is closed when the wait ends")
    }

    /// Any web page can make the browser open these while the login waits: none ends it.
    @Test func aForgedCallbackDoesNotEndTheLogin() throws {
        defer { temporary.remove() }
        let login = try startLogin()
        let state = try #require(try follow(login).queryParameters.value(named: "state"))

        for forged in [
            "myapp:x", "myapp:/callback?error=access_denied", "myapp:/callback?code=forged&state=other",
            "myapp:/elsewhere?code=forged&state=\(state)",
        ] {
            let opened = runTool(["open", forged], environment: login.environment)
            #expect(opened.stdout.contains("\"spooled\""), "\(forged): \(opened.stdout)")
        }
        let real = runTool(["open", "myapp:/callback?code=real&state=\(state)"], environment: login.environment)
        #expect(real.stdout == "{\"outcome\":\"delivered\"}\n")
        let result = login.thread.join()
        #expect(result.exit == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("\"code\":\"real\""))
    }

    /// `--no-browser` and SSH sessions show the start link, never the authorization URL,
    /// whatever stderr is (it holds no secret: it works once, for this user).
    @Test(arguments: [false, true])
    func withoutABrowserTheStartLinkIsShownNeverTheAuthorizationURL(ssh: Bool) {
        defer { temporary.remove() }
        var environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"))
        if ssh { environment["SSH_CONNECTION"] = "10.0.0.5 51000 10.0.0.9 22" }
        let result = runTool(
            [
                "login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp", "--timeout", "0.5",
            ] + (ssh ? [] : ["--no-browser"]), environment: environment)
        #expect(result.exit == ExitCode.tryAgain)
        #expect(!result.stderr.contains("https://id.example/authorize"), "\(result.stderr)")
        #expect(result.stderr.contains("http://127.0.0.1:") && result.stderr.contains("/start/"), "\(result.stderr)")
        if ssh { #expect(result.stderr.contains("this is an SSH session, so no browser is started here")) }
    }

    /// A browser command that exits 0 without showing anything (`BROWSER=true`) is noticed
    /// by the link never being fetched, as for the loopback login.
    @Test func aBrowserThatNeverFetchesTheLinkIsNoticed() {
        defer { temporary.remove() }
        var environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"))
        environment["BROWSER"] = "true"
        environment["PATH"] = "/usr/bin:/bin"
        let result = runTool(
            ["login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp", "--timeout", "1.5"],
            environment: environment)
        #expect(result.exit == ExitCode.tryAgain)
        #expect(result.stderr.contains("opened in the browser ('true')"))
        let notice = "no browser has opened the link after 0.5 seconds: open it yourself: http://127.0.0.1:"
        #expect(result.stderr.contains(notice), "\(result.stderr)")
    }

    /// `login` starts the browser detached and never waits for it; here it is a child of the
    /// test process, so reap it (by its pid only): an unreaped child makes Swift Testing's
    /// exit-test monitor (waitid on every child, WNOWAIT) spin and never see its own exit.
    func reapBrowser() {
        #if os(Linux)
        let deadline = Deadline.after(milliseconds: 5000)
        while !deadline.hasPassed {
            for name in (try? FileSystem.entries("/proc")) ?? [] {
                guard let pid = pid_t(name), let bytes = (try? FileSystem.readFile("/proc/\(name)/stat")).flatMap({ $0 }) else {
                    continue
                }
                let stat = String(decoding: bytes, as: UTF8.self)
                guard let close = stat.lastIndex(of: ")"), stat[..<close].hasSuffix("(browser")
                else { continue }
                let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
                guard fields.count > 1, pid_t(fields[1]) == getpid() else { continue }
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                return
            }
            usleep(10_000)
        }
        #endif
    }
}
