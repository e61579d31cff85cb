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

import Testing
@testable import CallbackRouterCLI
import CallbackTestSupport

/// Which options apply to which mode of a command (login's loopback or `--scheme` form, the
/// `--logout` form of parse, loopback and listen) is declared once, with each option; one
/// given in a mode it does not apply to is a usage error (64) made from that declaration.
@Suite struct OptionModeTests {
    /// An argument list that gives `option` (with a value when it takes one).
    static func giving(_ option: OptionDeclaration) -> [String] {
        option.takesValue ? ["--" + option.name, option.choices.first ?? "x"] : ["--" + option.name]
    }

    @Test func aLoopbackOptionWithSchemeIsAUsageErrorNotIgnored() {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"))
        let result = runTool(
            [
                "login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp", "--no-browser",
                "--timeout", "1", "--accept-paste",
            ], environment: environment)
        #expect(result.exit == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--accept-paste does not apply to --scheme: it is a loopback option"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anOptionOutsideTheModeAValueChoosesIsAUsageError() {
        let result = runTool(
            [
                "end-session-url", "--endpoint", "https://t.auth0.com/v2/logout", "--post-logout-redirect-uri", "myapp:/done",
                "--style", "auth0-return-to", "--id-token-hint-from-stdin",
            ], environment: [:])
        #expect(result.exit == 64)
        #expect(
            result.stderr.contains(
                "--id-token-hint-from-stdin does not apply to --style auth0-return-to: it is an OpenID Connect option"),
            "\(result.stderr)")
    }

    @Test func aSchemeOptionWithoutSchemeNamesTheOptionItNeeds() {
        let result = runTool(
            ["login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--redirect-uri", "myapp:/cb"],
            environment: [:])
        #expect(result.exit == 64)
        #expect(result.stderr.contains("--redirect-uri needs --scheme: it is a scheme option"), "\(result.stderr)")
    }

    /// Every option of every command, given in each mode it does not apply to, is refused
    /// before the command runs, in words that name it and the mode.
    @Test func everyOptionOutsideItsModesIsRefusedByTheRealTool() {
        var checked = 0
        for command in CallbackRouterTool.commands {
            for mode in command.modes {
                let chooser = mode.selector.flatMap { selector in command.options.first { $0.name == selector } }
                let choosing = chooser.map { option in mode.value.map { ["--" + option.name, $0] } ?? Self.giving(option) } ?? []
                // An option that chooses a mode is never outside it: giving it chooses it.
                let selectors = command.modes.compactMap(\.selector)
                for option in command.options where !option.applies(in: mode) && !selectors.contains(option.name) {
                    let arguments = [command.name] + choosing + Self.giving(option)
                    let result = runTool(arguments, environment: [:])
                    #expect(result.exit == 64, "\(arguments)")
                    let reason = mode.chooser.map { "does not apply to " + $0 } ?? "needs --"
                    #expect(result.stderr.contains("--\(option.name) \(reason)"), "\(arguments): \(result.stderr)")
                    #expect(result.stdout.isEmpty, "\(arguments)")
                    checked += 1
                }
            }
        }
        // login's 10 loopback options and --redirect-uri; the login-only options of parse,
        // loopback and listen, and their --no-state; end-session-url's id token hint.
        #expect(checked >= 28)
    }

    /// An option's modes are modes of its command, a selected mode's option is declared, and
    /// every command has at most one default mode.
    @Test func declaredModesAreTheCommandsOwn() {
        for command in CallbackRouterTool.commands {
            #expect(command.modes.filter { $0.selector == nil }.count <= 1, "\(command.name)")
            for mode in command.modes {
                if let selector = mode.selector {
                    #expect(command.options.contains { $0.name == selector }, "\(command.name): --\(selector)")
                }
            }
            for option in command.options {
                #expect(option.modes.allSatisfy(command.modes.contains), "\(command.name) --\(option.name)")
            }
        }
    }
}
