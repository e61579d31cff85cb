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

/// `listen` through real sockets, in-process: what it prints must be what `parse` prints.
@Suite struct ListenCommandTests {
    let temporary = TemporaryDirectory()
    let runtimeBase: String
    var environment: [String: String] { isolatedEnvironment(runtime: runtimeBase) }

    init() {
        runtimeBase = temporary.privateSubdirectory("run")
    }

    /// Starts `listen` on a real thread and waits until its socket exists.
    func startListening(_ arguments: [String]) -> BlockingThread<(exit: Int32, stdout: String, stderr: String)> {
        let environment = environment
        let before = listenerSockets()
        let thread = BlockingThread { runTool(["listen"] + arguments, environment: environment) }
        let deadline = Deadline.after(milliseconds: 5000)
        while listenerSockets() <= before && !deadline.hasPassed { usleep(1000) }
        return thread
    }

    func listenerSockets() -> Int {
        let base = joinPath(runtimeBase, "callback-router/listeners")
        return ((try? FileSystem.entries(base)) ?? []).reduce(0) { count, key in
            count + (((try? FileSystem.entries(joinPath(base, key))) ?? []).filter { $0.hasSuffix(".sock") }.count)
        }
    }

    static let cases: [(options: [String], url: String)] = [
        (["--state", "s+1 2"], "myapp://cb?code=a%2Bb+c%20d&state=s%2B1+2"),
        (["--state", "xyz", "--dialect", "oauth2", "--redirect-uri", "myapp://cb"], "myapp://cb?code=abc&state=xyz&q=%22quoted%22"),
        (["--state", "xyz"], "myapp://cb?code=abc&state=xyz&code=again"),
        (["--state", "xyz"], "myapp://cb?error=access_denied&error_description=no+thanks&state=xyz"),
        ([], "myapp://oauth-callback?challenge_token=\(preludeToken("ct_"))" + String(repeating: "A", count: 8000)),
        (["--dialect", "zephr"], "myapp://cb?action=login&status=success&session_id=s1&tracking_id=t1"),
    ]

    @Test(arguments: cases)
    func printsExactlyWhatParsePrints(options: [String], url: String) {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--timeout", "10"] + options)
        let opened = runTool(["open", url], environment: environment)
        #expect(opened.exit == 0)
        let listened = listening.join()
        let parsed = runTool(["parse"] + options + ["--", url], environment: environment)
        #expect(listened.stdout == parsed.stdout)
        #expect(listened.exit == parsed.exit, "stderr: \(listened.stderr)")
        #expect(listened.stdout.hasPrefix("{\"outcome\":"))
    }

    /// The state can come on stdin, so it never shows in the process list.
    @Test func readsTheExpectedStateFromStandardInput() throws {
        defer { temporary.remove() }
        let url = "myapp://cb?code=abc&state=s3cr3t"
        #expect(runTool(["open", url], environment: environment).stdout.contains("spooled"))
        let listened = runTool(
            ["listen", "--scheme", "myapp", "--state-from-stdin", "--timeout", "0"], environment: environment, stdin: Array("s3cr3t\n".utf8)
        )
        #expect(listened.exit == 0, "stderr: \(listened.stderr)")
        #expect(listened.stdout == runTool(["parse", "--state", "s3cr3t", url], environment: environment).stdout)
        #expect(!listened.stderr.contains("s3cr3t"))
    }

    @Test func refusesAStateGivenTwoWays() {
        defer { temporary.remove() }
        let result = runTool(["listen", "--scheme", "myapp", "--state", "a", "--state-from-stdin"], environment: environment)
        #expect(result.exit == ExitCode.usage)
    }

    @Test func takesASpooledCallbackOnce() {
        defer { temporary.remove() }
        let url = "myapp://cb?code=abc&state=xyz"
        #expect(runTool(["open", url], environment: environment).stdout.contains("spooled"))
        let first = runTool(["listen", "--scheme", "myapp", "--state", "xyz", "--timeout", "0"], environment: environment)
        #expect(first.stdout == runTool(["parse", "--state", "xyz", url], environment: environment).stdout)
        #expect(first.exit == 0)
        let second = runTool(["listen", "--scheme", "myapp", "--state", "xyz", "--timeout", "0"], environment: environment)
        #expect(second.exit == ExitCode.tryAgain)
        #expect(second.stdout.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"timeout\""))
    }

    @Test func neverMissesACallbackWhileStarting() {
        defer { temporary.remove() }
        // open and listen start at the same time: the spool-then-offer / bind-then-read-spool
        // order makes every interleaving hand the callback over exactly once.
        for round in 0 ..< 20 {
            let url = "myapp://cb?code=c\(round)&state=s\(round)"
            let environment = environment
            let listening = BlockingThread {
                runTool(["listen", "--scheme", "myapp", "--state", "s\(round)", "--timeout", "5"], environment: environment)
            }
            let opened = runTool(["open", url], environment: environment)
            let listened = listening.join()
            #expect(opened.exit == 0)
            #expect(listened.exit == 0)
            #expect(listened.stdout.contains("\"code\":\"c\(round)\""))
        }
        #expect(((try? FileSystem.entries(joinPath(runtimeBase, "callback-router/spool"))) ?? []).isEmpty)
    }

    /// Any web page can make the browser open these: none may end a login that waits for
    /// its state; the real callback is delivered afterwards.
    @Test func aForgedCallbackDoesNotEndAWaitForAState() {
        defer { temporary.remove() }
        let options = ["--state", "s3cr3t", "--redirect-uri", "myapp://cb", "--dialect", "oauth2"]
        let listening = startListening(["--scheme", "myapp", "--timeout", "10"] + options)
        for forged in [
            "myapp:x", "myapp://cb?error=access_denied", "myapp://cb?code=forged", "myapp://cb?code=forged&state=other",
            "myapp://elsewhere?code=forged&state=s3cr3t",
        ] {
            let opened = runTool(["open", forged], environment: environment)
            #expect(opened.exit == 0 && opened.stdout.contains("\"spooled\""), "\(forged): \(opened.stdout)")
            #expect(listenerSockets() == 1, "\(forged) ended the wait")
        }
        let url = "myapp://cb?code=real&state=s3cr3t"
        #expect(runTool(["open", url], environment: environment).stdout == "{\"outcome\":\"delivered\"}\n")
        let listened = listening.join()
        #expect(listened.exit == 0, "stderr: \(listened.stderr)")
        #expect(listened.stdout == runTool(["parse"] + options + ["--", url], environment: environment).stdout)
    }

    /// Formerly a conflict: both listeners exited 75 ("another login is in progress").
    @Test func twoListenersWithStatesBothKeepWaitingOnACallbackWithoutState() {
        defer { temporary.remove() }
        let alice = startListening(["--scheme", "myapp", "--state", "state-alice", "--timeout", "10"])
        let bob = startListening(["--scheme", "myapp", "--state", "state-bob", "--timeout", "10"])
        let forged = runTool(["open", "myapp://cb?error=access_denied"], environment: environment)
        #expect(forged.exit == 0 && forged.stdout.contains("\"spooled\""), "\(forged.stdout)")
        #expect(runTool(["open", "myapp://cb?code=b&state=state-bob"], environment: environment).exit == 0)
        #expect(runTool(["open", "myapp://cb?code=a&state=state-alice"], environment: environment).exit == 0)
        let (aliceResult, bobResult) = (alice.join(), bob.join())
        #expect(aliceResult.exit == 0 && aliceResult.stdout.contains("\"code\":\"a\""), "\(aliceResult.stdout)")
        #expect(bobResult.exit == 0 && bobResult.stdout.contains("\"code\":\"b\""), "\(bobResult.stdout)")
    }

    /// A forgery planted in the spool before the login began does not end it either.
    @Test func aCallbackWithoutStateInTheSpoolDoesNotEndTheNextLogin() {
        defer { temporary.remove() }
        #expect(runTool(["open", "myapp:x"], environment: environment).stdout.contains("spooled"))
        let result = runTool(["listen", "--scheme", "myapp", "--state", "s3cr3t", "--timeout", "0"], environment: environment)
        #expect(result.exit == ExitCode.tryAgain)
        #expect(result.stdout.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"timeout\""), "\(result.stdout)")
    }

    /// `open` with nobody listening spools; a stateless `listen` that starts later must not
    /// take it (the forgery would need no race), while one opened during its wait is its own.
    @Test func aStatelessListenNeverTakesACallbackSpooledBeforeItStarted() {
        defer { temporary.remove() }
        let planted = "myapp://oauth-callback?challenge_token=\(preludeToken("planted"))"
        #expect(runTool(["open", planted], environment: environment).stdout.contains("spooled"))
        let late = runTool(["listen", "--scheme", "myapp", "--dialect", "prelude", "--timeout", "1"], environment: environment)
        #expect(late.exit == ExitCode.tryAgain, "\(late.stdout)")
        #expect(!late.stdout.contains(planted.split(separator: "=")[1]))

        let listening = startListening(["--scheme", "myapp", "--dialect", "prelude", "--timeout", "10"])
        let real = "myapp://oauth-callback?challenge_token=\(preludeToken("real"))"
        #expect(runTool(["open", real], environment: environment).stdout == "{\"outcome\":\"delivered\"}\n")
        let listened = listening.join()
        #expect(listened.exit == 0)
        #expect(listened.stdout == runTool(["parse", "--dialect", "prelude", real], environment: environment).stdout)
    }

    /// Issue 34.6: without a state, a callback the dialect refuses (any page can make the
    /// browser open one) never ends the wait; stderr says it was ignored and why, and the
    /// genuine callback that follows is delivered.
    /// (Clerk is not here: it reads a callback without its fields as `bare_callback`, which
    /// it accepts, unbound, as "reload the sign-in".)
    @Test(arguments: ["prelude", "ory", "zephr"])
    func aRefusedCallbackNeverEndsAStatelessWait(dialect: String) {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--dialect", dialect, "--timeout", "10"])
        for forged in ["myapp://cb?junk=1", "myapp://cb?code=a&code=b"] {
            let opened = runTool(["open", forged], environment: environment)
            #expect(opened.exit == 0 && opened.stdout.contains("\"spooled\""), "\(forged): \(opened.stdout)")
            #expect(listenerSockets() == 1, "\(forged) ended the wait")
        }
        let real =
            switch dialect {
            case "prelude": "myapp://cb?challenge_token=\(preludeToken("real"))"
            case "ory": "myapp://cb?code=ory_ac_real"
            default: "myapp://cb?action=login&status=success&session_id=s1&tracking_id=t1"
            }
        #expect(runTool(["open", real], environment: environment).stdout == "{\"outcome\":\"delivered\"}\n")
        let listened = listening.join()
        #expect(listened.exit == 0, "stdout: \(listened.stdout) stderr: \(listened.stderr)")
        #expect(listened.stdout == runTool(["parse", "--dialect", dialect, real], environment: environment).stdout)
        #expect(listened.stderr.contains("ignored a callback its dialect refused (missing_parameter)"), "\(listened.stderr)")
        #expect(listened.stderr.contains("(duplicate_parameter)"))
        #expect(!listened.stderr.contains("junk"))
    }

    /// A well-formed provider error still ends a stateless wait: it cannot be told from the
    /// user pressing Cancel (docs/security.md, "What is not protected").
    @Test func aProviderErrorStillEndsAStatelessWait() {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--dialect", "prelude", "--timeout", "10"])
        let cancel = "myapp://cb?error=access_denied"
        #expect(runTool(["open", cancel], environment: environment).stdout == "{\"outcome\":\"delivered\"}\n")
        let listened = listening.join()
        let parsed = runTool(["parse", "--dialect", "prelude", cancel], environment: environment)
        #expect(listened.stdout == parsed.stdout)
        #expect(listened.exit == parsed.exit)
    }

    /// Ory account linking (`?flow=<login flow id>`, no code) ends a stateless wait with its
    /// outcome, exit 0, as `parse` prints it (issue 34: it ended with 65).
    @Test func oryAccountLinkingEndsTheWaitWithTheLoginFlowToContinue() {
        defer { temporary.remove() }
        let listening = startListening(["--scheme", "myapp", "--dialect", "ory", "--timeout", "10"])
        let linking = "myapp://ory/callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&no_org_ui=true"
        #expect(runTool(["open", linking], environment: environment).exit == 0)
        let listened = listening.join()
        #expect(listened.exit == 0, "stderr: \(listened.stderr)")
        #expect(
            listened.stdout
                == #"{"outcome":"continue_login_flow","dialect":"ory","flow":"5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c","extra":{"no_org_ui":"true"}}"#
                + "\n")
        #expect(listened.stdout == runTool(["parse", "--dialect", "ory", linking], environment: environment).stdout)
    }

    /// A Clerk magic link with '/' added to the path, and one split across query and fragment,
    /// end the wait as the SDKs read them (issue 34: redirect_uri_mismatch, parameters_in_fragment).
    @Test(arguments: [
        "cq.app://callback/?flow_id=flow_123&approval_token=approval_123",
        "cq.app://callback?flow_id=flow_123#approval_token=approval_123",
    ])
    func aClerkMagicLinkEndsTheWaitAsTheSDKsReadIt(_ link: String) {
        defer { temporary.remove() }
        let options = ["--dialect", "clerk", "--redirect-uri", "cq.app://callback"]
        let listening = startListening(["--scheme", "cq.app", "--timeout", "10"] + options)
        #expect(runTool(["open", link], environment: environment).exit == 0)
        let listened = listening.join()
        #expect(listened.exit == 0, "stderr: \(listened.stderr)")
        #expect(
            listened.stdout
                == #"{"outcome":"magic_link","dialect":"clerk","flow_id":"flow_123","approval_token":"approval_123","extra":{}}"# + "\n")
    }

    @Test func givesUpAtTheTimeout() {
        defer { temporary.remove() }
        let start = SystemClock.monotonicMilliseconds()
        let result = runTool(["listen", "--scheme", "myapp", "--timeout", "1"], environment: environment)
        #expect(result.exit == ExitCode.tryAgain)
        #expect(
            result.stdout
                == "{\"outcome\":\"rejected\",\"reason\":\"timeout\",\"detail\":\"no callback for 'myapp' within 1 second\",\"offset\":null}\n"
        )
        #expect(SystemClock.monotonicMilliseconds() - start >= 990)
        #expect(listenerSockets() == 0)
    }

    @Test(arguments: [
        ["listen"], ["listen", "--scheme", "http"], ["listen", "--scheme", "myapp", "--timeout", "-1"],
        ["listen", "--scheme", "myapp", "--dialect", "nonsense"], ["listen", "--scheme", "myapp", "stray"],
        ["listen", "--scheme", "myapp", "--redirect-uri", "javascript:alert(1)"],
        // No callback of --scheme could match it: the wait would only time out.
        ["listen", "--scheme", "myapp", "--state", "xyz", "--redirect-uri", "otherapp://cb"],
        ["listen", "--scheme", "myapp", "--logout", "--no-state", "--redirect-uri", "myapp:/a", "--redirect-uri", "otherapp:/x"],
    ])
    func refusesBadUsageBeforeWaiting(arguments: [String]) {
        defer { temporary.remove() }
        let result = runTool(arguments, environment: environment)
        #expect(result.exit == ExitCode.usage)
        #expect(listenerSockets() == 0)
    }

    /// listen reads parse's options itself (no second parse run through argv): a bad one is
    /// listen's usage error, pointing to listen's help, and a warning is given once.
    @Test func namesItselfInUsageErrorsAndWarnings() {
        defer { temporary.remove() }
        let bad = runTool(["listen", "--scheme", "myapp", "--dialect", "nonsense"], environment: environment)
        #expect(bad.exit == ExitCode.usage)
        #expect(bad.stderr.hasPrefix("callback-router: listen: --dialect takes one of "), "\(bad.stderr)")
        #expect(bad.stderr.contains("Try 'callback-router listen --help'."))
        let url = "myapp://cb?code=abc&state=xyz"
        #expect(runTool(["open", url], environment: environment).stdout.contains("spooled"))
        let listened = runTool(
            ["listen", "--scheme", "myapp", "--state", "xyz", "--redirect-uri", "myapp://cb", "--timeout", "0"], environment: environment)
        #expect(listened.exit == ExitCode.success)
        #expect(
            listened.stderr
                == "callback-router: listen: warning: --redirect-uri #1: the scheme 'myapp' is not a reverse domain name; RFC 8252 §7.1 recommends one (com.example.app) so that apps do not collide\n"
        )
    }
}
