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
@testable import CallbackRouterKit
@testable import CallbackRouterPackaging

/// Every command's USAGE lines are made from its option declarations and modes
/// (``OptionDeclaration/required(in:oneOf:)``, ``CommandMode``), so they name only what the
/// command takes.
@Suite struct UsageLineTests {
    /// The `--names` a USAGE text names (without `--`).
    static func optionNames(in usage: String) -> [String] {
        usage.split { !($0.isLetter || $0.isNumber || $0 == "-") }.filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
    }

    @Test func everyUsageLineNamesOnlyOptionsTheCommandDeclares() {
        for command in CallbackRouterTool.commands {
            let usage = HelpText(command.help).usage
            #expect(usage.hasPrefix("callback-router \(command.name)"), "\(command.name): \(usage)")
            let declared = Set(command.options.map(\.name))
            for name in Self.optionNames(in: usage) {
                #expect(declared.contains(name), "\(command.name)'s USAGE names --\(name), which it does not declare")
            }
        }
    }

    @Test func aModeHasALineNamingTheOptionThatChoosesIt() {
        for command in CallbackRouterTool.commands {
            let lines = command.usage.split(separator: "\n").filter { $0.contains("callback-router \(command.name)") }
            #expect(lines.count == max(1, command.modes.count), "\(command.name): \(command.usage)")
            for mode in command.modes {
                guard let selector = mode.selector else { continue }
                #expect(lines.contains { Self.optionNames(in: String($0)).first == selector }, "\(command.name): \(command.usage)")
            }
        }
    }

    @Test func requiredOptionsAndAlternativesAreShownAsSuch() {
        #expect(LoopbackCommand.usage.hasPrefix("USAGE: callback-router loopback (--state S | --state-from-stdin | --no-state)"))
        #expect(AuthorizeURLCommand.usage.hasPrefix("USAGE: callback-router authorize-url --endpoint URL --client-id ID --redirect-uri U"))
        #expect(AuthorizeURLCommand.usage.contains("[--scope S | --no-scope]"))
        #expect(ParseCommand.usage.contains("callback-router parse --logout (--state S | --no-state)"))
        #expect(RefreshCommand.usage.contains("(--issuer I | --token-endpoint URL)"))
        #expect(LoginCommand.usage.contains("callback-router login --scheme S (--endpoint URL | --issuer I) --client-id ID"))
    }

    @Test func theNamesOfAUsageTextAreFound() {
        #expect(Self.optionNames(in: "callback-router x --a A [--b-c | --d]... URL") == ["a", "b-c", "d"])
    }
}
