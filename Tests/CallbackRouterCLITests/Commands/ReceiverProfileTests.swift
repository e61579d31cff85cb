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

import CallbackLoopback
import CallbackRouter
import Testing

@testable import CallbackRouterCLI
@testable import CallbackRouterKit

/// `--profile NAME` on `loopback`, `listen` and `login` (shared/design.md: "parse, listen,
/// loopback and login take --profile NAME"): read like parse's, passed to the validation,
/// and an unknown name is a usage error that lists the known ones and never the value.
@Suite struct ReceiverProfileTests {
    static func run(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let run = runTool(arguments, executablePath: "/x")
        return (run.exit, run.stdout, run.stderr)
    }

    @Test func loopbackReadsItsProfiles() throws {
        let args = try Arguments(
            ["--state", "s", "--profile", "cognito", "--profile", "entra", "--profile", "cognito"][...],
            options: LoopbackCommand.options.valueNames, flags: LoopbackCommand.options.flagNames)
        let settings = try LoopbackCommand.readSettings(args)
        #expect(settings.profiles == [.cognito, .entra])
    }

    @Test func listenReadsItsProfilesAsParseDoes() throws {
        let args = try Arguments(
            ["--scheme", "myapp", "--profile", "supabase"][...],
            options: ListenCommand.options.valueNames, flags: ListenCommand.options.flagNames)
        #expect(try CallbackOptions(args, state: nil).expectations.profiles == [.supabase])
    }

    @Test(arguments: [
        ["loopback", "--state", "s", "--profile", "SplxlOBeZQQYbYS6WxSbIA"],
        ["listen", "--scheme", "myapp", "--timeout", "0", "--profile", "SplxlOBeZQQYbYS6WxSbIA"],
        [
            "login", "--endpoint", "https://as.example/authorize", "--client-id", "c", "--no-browser",
            "--profile", "SplxlOBeZQQYbYS6WxSbIA",
        ],
    ])
    func anUnknownProfileIsAUsageErrorThatNeverShowsTheValue(_ arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains("--profile takes one of apple, auth0-spa, clerk-hosted, cognito, entra, spotify, supabase"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("SplxlOBe") && !result.stdout.contains("SplxlOBe"))
    }

    @Test(arguments: [
        ["loopback", "--logout", "--state", "s", "--profile", "entra"],
        ["listen", "--scheme", "myapp", "--logout", "--state", "s", "--timeout", "0", "--profile", "entra"],
        ["parse", "--logout", "--state", "s", "--profile", "entra", "myapp:/done?state=s"],
    ])
    func aProfileDoesNotApplyToALogout(_ arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--profile does not apply to --logout"), "\(result.stderr)")
    }

    @Test(arguments: ["loopback", "listen", "login"])
    func helpNamesTheOption(_ command: String) {
        #expect(Self.run([command, "--help"]).stdout.contains("--profile NAME"))
    }
}
