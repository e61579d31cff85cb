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
@testable import CallbackSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Checked before waiting: a scheme nobody hands to this helper is said at once, with the
/// command to run; status exiting 69 says what to run.
@Suite struct HandlerCheckTests {
    let temporary = TemporaryDirectory()
    var environment: [String: String] {
        isolatedEnvironment(runtime: temporary.privateSubdirectory("run"), home: temporary.privateSubdirectory("home"))
    }

    @Test func listenWithoutAHandlerSaysHowToRegisterAtOnce() {
        defer { temporary.remove() }
        let result = runTool(["listen", "--scheme", "myapp", "--state", "s", "--timeout", "0"], environment: environment)
        #expect(result.stderr.contains("no handler is registered for myapp"))
        #expect(result.stderr.contains("run 'callback-router register --scheme myapp' first"))
    }

    @Test func loginWithoutAHandlerSaysHowToRegisterAtOnce() {
        defer { temporary.remove() }
        let result = runTool(
            ["login", "--endpoint", "https://a.example/a", "--client-id", "c", "--scheme", "myapp", "--no-browser", "--timeout", "0.1"],
            environment: environment)
        #expect(result.stderr.contains("run 'callback-router register --scheme myapp' first"))
    }

    @Test func aRegisteredSchemeGetsNoWarningAndStatusSaysWhatToRun() {
        defer { temporary.remove() }
        let environment = environment
        let before = runTool(["status", "--scheme", "myapp"], environment: environment)
        #expect(before.exit == ExitCode.unavailable)
        #expect(before.stderr.contains("run 'callback-router register --scheme myapp'"))
        let registered = runTool(["register", "--scheme", "myapp"], environment: environment)
        #expect(registered.exit == 0, "\(registered.stderr)")
        let result = runTool(["listen", "--scheme", "myapp", "--state", "s", "--timeout", "0"], environment: environment)
        #expect(!result.stderr.contains("register"), "\(result.stderr)")
    }
}

/// A second stateless listen for a scheme is refused at its start, not after the sign-in.
@Suite struct SecondListenerTests {
    @Test func aSecondStatelessListenIsRefusedAtOnce() {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"))
        let first = BlockingThread { runTool(["listen", "--scheme", "myapp", "--timeout", "3"], environment: environment) }
        let sockets = temporary.path + "/run/callback-router/listeners"
        for _ in 0 ..< 500 {
            let keys = (try? FileSystem.entries(sockets)) ?? []
            if keys.contains(where: { !((try? FileSystem.entries(sockets + "/" + $0)) ?? []).isEmpty }) { break }
            usleep(10_000)
        }
        let start = SystemClock.monotonicMilliseconds()
        let second = runTool(["listen", "--scheme", "myapp", "--timeout", "3"], environment: environment)
        #expect(SystemClock.monotonicMilliseconds() - start < 2000, "refused at once, not at the timeout")
        #expect(second.exit == ExitCode.tryAgain)
        #expect(second.stdout.hasPrefix(#"{"outcome":"rejected","reason":"conflict""#))
        // One with a state does not compete with a stateless one: it starts.
        let stateful = runTool(["listen", "--scheme", "myapp", "--state", "s", "--timeout", "0.2"], environment: environment)
        #expect(stateful.stdout.contains(#""reason":"timeout""#))
        _ = first.join()
    }
}
