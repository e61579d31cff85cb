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
@testable import CallbackDesktop
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// What `login` says at the terminal while it waits: the sign-in link every time, each
/// browser tried in turn, a failed or absent browser noticed, SSH handled.
@Suite struct LoginTerminalTests {
    static let request = ["login", "--endpoint", "https://example.com/authorize", "--client-id", "abc"]

    func login(_ extra: [String], environment: [String: String]) -> (exit: Int32, stdout: String, stderr: String) {
        var environment = environment
        environment["PATH"] = environment["PATH"] ?? "/usr/bin:/bin"
        return runTool(Self.request + extra, environment: environment)
    }

    @Test func theStartURLIsShownEvenWhenABrowserIsStarted() {
        let result = login(["--timeout", "1"], environment: ["BROWSER": "true"])
        #expect(result.exit == ExitCode.tryAgain)
        #expect(result.stderr.contains("the sign-in link (it works once): http://127.0.0.1:"))
        #expect(result.stderr.contains("/start/"))
    }

    @Test func eachBrowserIsTriedInTurnAndAFailureIsSaid() {
        let result = login(["--timeout", "3"], environment: ["BROWSER": "false:no-such-browser-x:true"])
        #expect(result.stderr.contains("the browser command 'false' failed (exit status 1)"))
        #expect(result.stderr.contains("the browser command 'no-such-browser-x' was not found"))
        #expect(result.stderr.contains("opened in the browser ('true')"))
        #expect(result.stderr.contains("no browser has opened the link after 1 second: open it yourself: http://127.0.0.1:"))
        #expect(result.stdout.contains(#""reason":"timeout""#), "it kept waiting until the deadline")
    }

    @Test func whenEveryBrowserFailsTheWaitGoesOn() {
        let result = login(["--timeout", "1"], environment: ["BROWSER": "false", "PATH": "/nonexistent:/bin"])
        #expect(result.stderr.contains("the browser command 'false' failed"))
        #expect(result.stderr.contains("no browser could be started: open the link above yourself"))
        #expect(result.stdout.contains(#""reason":"timeout""#))
        #expect(result.stdout.contains("within 1 second\""))
    }

    @Test func overSSHNoBrowserIsStartedAndTheForwardIsShownWithTheURL() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let marker = temporary.path + "/browser-ran"
        let browser = temporary.path + "/browser"
        let script = "#!/bin/sh\ntouch '\(marker)'\n"
        let fd = open(browser, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        _ = script.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let result = login(
            ["--timeout", "1"], environment: ["BROWSER": browser, "SSH_CONNECTION": "10.0.0.5 51000 10.0.0.9 22"])
        #expect(access(marker, F_OK) != 0, "a browser was started on the server")
        #expect(result.stderr.contains("this is an SSH session, so no browser is started here"))
        #expect(result.stderr.contains("/start/"))
        #expect(result.stderr.contains("ssh -N -L "))
        #expect(result.stderr.contains("--accept-paste"))
    }

    @Test(arguments: [false, true])
    func theOutcomeCarriesTheNonceSent(_ scheme: Bool) throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        var environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"))
        environment["PATH"] = "/usr/bin:/bin"
        let result = runTool(
            Self.request + (scheme ? ["--scheme", "myapp"] : []) + ["--no-browser", "--timeout", "0.3"], environment: environment)
        let nonce = try #require(result.stdout.firstRange(of: #""nonce":""#))
        let value = result.stdout[nonce.upperBound...].prefix { $0 != "\"" }
        #expect(value.count == 43, "a 32-byte base64url nonce")
        #expect(!result.stderr.contains(String(value)), "the nonce stays off stderr")
    }
}
