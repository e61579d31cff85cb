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

import CallbackRouter
import CallbackSystem

/// One subcommand of `callback-router`.
package protocol Command: Sendable {
    /// The word after `callback-router`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The hand-written start of `--help`: OVERVIEW, then ARGUMENTS, OUTPUT... (USAGE is
    /// made from the options, ``usage``, and goes after the OVERVIEW paragraph).
    static var overview: String { get }
    /// What follows the options on the USAGE lines (`URL`, `[COMMAND]`); empty for none.
    static var usageArguments: String { get }
    /// Every option the command takes, declared once: its parsing, the OPTIONS part of
    /// `--help`, completions and man page are made from these.
    static var options: [OptionDeclaration] { get }
    /// The ways the command runs, when it has more than one (`login`: loopback or
    /// `--scheme`): which options apply to which is declared with each option.
    static var modes: [CommandMode] { get }
    /// The hand-written rest of `--help`, after the options: prose, EXIT CODES, EXAMPLE...
    static var discussion: String { get }
    /// Runs with its arguments read (``main(_:context:)`` has answered `--help` and usage
    /// errors); returns the exit code.
    static func run(_ args: Arguments, context: CommandContext) -> Int32
}

extension Command {
    package static var modes: [CommandMode] { [] }
    package static var usageArguments: String { "" }

    /// The USAGE lines, made from the option declarations and the modes.
    package static var usage: String { options.usage(of: name, modes: modes, arguments: usageArguments) }

    /// ``overview`` with ``usage`` after its first paragraph (OVERVIEW): the start of `--help`.
    package static var introduction: String {
        guard let end = overview.locate("\n\n") else { return overview + "\n" + usage }
        return String(overview[..<end.upperBound]) + usage + "\n" + String(overview[end.upperBound...])
    }

    /// The whole `--help` text: ``introduction``, the options, ``discussion``.
    package static var help: String {
        introduction + "\n" + options.helpSections + (discussion.isEmpty ? "" : "\n" + discussion)
    }

    /// Prints a usage error with a pointer to `--help`; returns 64.
    package static func usageError(_ message: String, context: CommandContext) -> Int32 {
        context.printError("\(name): \(message)\nTry 'callback-router \(name) --help'.")
        return ExitCode.usage
    }

    /// Runs with the arguments after the command's name: reads them by the command's
    /// option declarations, answers `--help` and usage errors, else ``run(_:context:)``.
    package static func main(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        let args: Arguments
        do throws(Arguments.UsageError) {
            args = try Arguments(arguments, options: options.valueNames, flags: options.flagNames)
            if !args.wantsHelp, let misplaced = options.misplaced(in: args, modes: modes) { throw misplaced }
        } catch {
            return usageError(error.description, context: context)
        }
        if args.wantsHelp {
            context.output.writeOut(help)
            return context.settled(ExitCode.success, command: name)
        }
        return context.settled(run(args, context: context), command: name)
    }
}

#endif
