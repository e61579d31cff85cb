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
import CallbackDesktop
import CallbackSystem

/// `login --scheme S` through the real hand-off socket: a "browser" (a `$BROWSER` script)
/// records the authorization URL, so the test knows the state a real provider would return.
@Suite struct LoginSchemeCommandTests {
    let temporary = TemporaryDirectory()

    /// Any web page can make the browser open these while the login waits: none ends it.
    @Test func aForgedCallbackDoesNotEndTheLogin() throws {
        defer { temporary.remove() }
        let runtime = temporary.privateSubdirectory("run")
        let recorded = joinPath(temporary.path, "authorization-url")
        let browser = joinPath(temporary.path, "browser")
        // PATH is /nonexistent: the shell's builtins only. The line ends once it is whole.
        let script = Array("#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(recorded)'\n".utf8)
        let descriptor = try FileSystem.createExclusive(browser, mode: 0o700)
        try descriptor.writeAll(script)
        descriptor.close()
        var environment = isolatedEnvironment(runtime: runtime)
        environment["BROWSER"] = browser

        let login = BlockingThread {
            runTool(
                [
                    "login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp",
                    "--redirect-uri", "myapp:/callback", "--dialect", "oauth2", "--timeout", "15",
                ], environment: environment)
        }
        let deadline = Deadline.after(milliseconds: 10_000)
        func readRecorded() -> String? {
            (try? FileSystem.readFile(recorded)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
        }
        while readRecorded()?.hasSuffix("\n") != true && !deadline.hasPassed { usleep(10_000) }
        reapBrowser()
        let authorization = try #require(readRecorded()).dropLast().description
        let state = try #require(try CallbackURL(parsing: authorization).queryParameters.value(named: "state"))

        for forged in [
            "myapp:x", "myapp:/callback?error=access_denied", "myapp:/callback?code=forged&state=other",
            "myapp:/elsewhere?code=forged&state=\(state)",
        ] {
            let opened = runTool(["open", forged], environment: environment)
            #expect(opened.stdout.contains("\"spooled\""), "\(forged): \(opened.stdout)")
        }
        let real = runTool(["open", "myapp:/callback?code=real&state=\(state)"], environment: environment)
        #expect(real.stdout == "{\"outcome\":\"delivered\"}\n")
        let result = login.join()
        #expect(result.exit == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("\"code\":\"real\""))
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
