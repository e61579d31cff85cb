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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackRouterKit

/// What shell completions and man pages know about each command: its option declarations
/// (the same ones its arguments are parsed with and its `--help` lists) and its hand-written
/// help. Nothing here is a second list that could drift, and nothing is scraped from text
/// but the USAGE line's positional argument.
package struct CommandCatalog: Sendable {
    /// One subcommand.
    struct Entry: Sendable {
        let name: String
        let summary: String
        /// The hand-written start of its help (OVERVIEW, USAGE, ARGUMENTS, OUTPUT...).
        let overview: String
        let options: [OptionDeclaration]
        /// The hand-written rest of its help (prose, EXIT CODES, EXAMPLE...).
        let discussion: String
        /// The values of its positional argument when they come from a fixed set
        /// (`completions bash|zsh|fish`), else empty.
        let positionalChoices: [String]
        /// Whether the help's USAGE line shows a positional argument (`URL`, `SHELL`).
        let takesPositional: Bool
    }

    let commands: [Entry]

    /// The catalog of `commands` (default: every command of the helper).
    package init(_ commands: [any Command.Type]) {
        self.commands = commands.map(Self.entry(for:))
    }

    func command(named name: String) -> Entry? { commands.first { $0.name == name } }

    static func entry(for command: any Command.Type) -> Entry {
        let positionalChoices = (command as? any PositionalChoices.Type)?.positionalChoices ?? []
        return Entry(
            name: command.name, summary: command.summary, overview: command.introduction, options: command.options,
            discussion: command.discussion, positionalChoices: positionalChoices,
            takesPositional: HelpText(command.introduction).usageTakesPositional)
    }
}

#endif
