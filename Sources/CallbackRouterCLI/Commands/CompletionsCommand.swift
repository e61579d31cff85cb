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
import CallbackRouterPackaging

/// `callback-router completions bash|zsh|fish`: print a shell completion script.
enum CompletionsCommand: Command, PositionalChoices {
    static let name = "completions"
    static let summary = "Print the shell completion script for bash, zsh or fish"
    static let positionalChoices = CompletionShell.allCases.map(\.rawValue)
    static let overview = """
        OVERVIEW: Print the shell completion script for bash, zsh or fish.

        ARGUMENTS:
          SHELL                   bash, zsh or fish.

        """
    static let usageArguments = "bash|zsh|fish"
    static let options: [OptionDeclaration] = []
    static let discussion = """
        The script completes the commands, their options, the names an option takes from a
        fixed set (--dialect, --policy, --response-mode...), and file names where an option
        takes a file (never a state, a code or a URL). It is generated from the one
        declaration of each option that the command also reads its arguments with, so it
        lists exactly what each command accepts. The Debian package installs
        it where each shell looks; without the package, save it there yourself.

        INSTALL:
          bash: callback-router completions bash > ~/.local/share/bash-completion/completions/callback-router
          zsh:  callback-router completions zsh > ~/.zfunc/_callback-router
                (and fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)
          fish: callback-router completions fish > ~/.config/fish/completions/callback-router.fish

        EXIT CODES:
          0 printed, 64 usage.
          74 the result could not be written (stdout full, closed or gone).

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let shellName: String
        do {
            shellName = try args.onePositional("shell (bash, zsh or fish)")
        } catch {
            return usageError(error.description, context: context)
        }
        // Not echoed: whatever was typed in its place may be a pasted secret.
        guard let shell = CompletionShell(rawValue: shellName) else {
            return usageError("the shell is one of " + positionalChoices.joined(separator: ", "), context: context)
        }
        context.output.writeOut(CompletionScript(catalog: CommandCatalog(context.tool.commands)).script(for: shell))
        return ExitCode.success
    }
}

#endif
