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

/// The examples in `--help` are copied into shells: each must be one working command line.
@Suite struct HelpExampleTests {
    /// A `printf '%s\n'` whose `\n` became a real newline in the Swift string leaves an
    /// unterminated quote in the help (pkce and listen had it).
    @Test(arguments: CallbackRouterTool.commands.map { $0.name })
    func printfFormatsStayOnTheirLine(_ name: String) throws {
        let command = try #require(CallbackRouterTool.commands.first { $0.name == name })
        for line in command.help.split(separator: "\n", omittingEmptySubsequences: false) where line.contains("printf '") {
            let quotes = line.filter { $0 == "'" }.count
            #expect(quotes % 2 == 0, "\(name) --help: an unterminated quote in \(line)")
            #expect(line.contains("'%s\\n'"), "\(name) --help: \(line)")
        }
    }
}
