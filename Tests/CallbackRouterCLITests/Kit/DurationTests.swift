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
import Testing

/// One rule for every --timeout: decimal seconds with an optional fraction, nothing else.
@Suite struct DurationTests {
    @Test(arguments: [("300", 300.0), ("1.5", 1.5), ("0.25", 0.25), ("86400", 86_400.0)])
    func acceptsDecimalSeconds(_ text: String, _ expected: Double) {
        #expect(Durations.parse(text) == expected)
    }

    @Test(arguments: ["", "0x10", "-0", "-1", "+1", "inf", "nan", "1e3", " 1", "1 ", "1.", ".5", "1.5.2", "١"])
    func refusesAnythingElse(_ text: String) {
        #expect(Durations.parse(text) == nil)
    }

    @Test(arguments: ["listen", "loopback", "login"], ["0x10", "-0", "inf", "nan", "", "1e3", "86401"])
    func everyTimeoutRefusesTheSameTexts(_ command: String, _ text: String) {
        let arguments: [String]
        switch command {
        case "listen": arguments = ["listen", "--scheme", "myapp", "--state", "s"]
        case "loopback": arguments = ["loopback", "--no-state"]
        default: arguments = ["login", "--endpoint", "https://example.com/a", "--client-id", "c"]
        }
        let result = runTool(arguments + ["--timeout", text], environment: [:])
        #expect(result.exit == ExitCode.usage, "\(command) --timeout '\(text)'")
        #expect(result.stderr.contains("--timeout takes a number of seconds"), "\(command) --timeout '\(text)'")
    }

    @Test func listenTakesAFraction() {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let runtime = temporary.privateSubdirectory("run")
        let result = runTool(
            ["listen", "--scheme", "myapp", "--state", "s", "--timeout", "0.2"], environment: isolatedEnvironment(runtime: runtime))
        #expect(result.exit == ExitCode.tryAgain)
        #expect(result.stdout.contains("within 0.2 seconds"))
    }

    @Test(arguments: [
        (1.0, "1 second"), (1.5, "1.5 seconds"), (300.0, "300 seconds"), (0.0, "0 seconds"), (8.0 / 3, "2.67 seconds"),
        (0.999, "1 second"),
    ])
    func messagesSaySecondOrSeconds(_ seconds: Double, _ text: String) {
        #expect(Durations.describe(seconds: seconds) == text)
    }
}
