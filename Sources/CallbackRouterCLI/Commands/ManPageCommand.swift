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
import CallbackSystem

/// `callback-router manpage [COMMAND]`: print a man page rendered from `--help`.
enum ManPageCommand: Command {
    static let name = "manpage"
    static let summary = "Print the man page of the tool or of a command, made from its --help"
    static let overview = """
        OVERVIEW: Print a man page (roff) of callback-router or of one of its commands,
        made from the same option declarations and text as its --help, so the two never
        disagree.

        ARGUMENTS:
          COMMAND                 The command whose page to print: callback-router-COMMAND(1).
                                  None: the page of the tool itself, callback-router(1).

        """
    static let usageArguments = "[COMMAND]"
    static let options: [OptionDeclaration] = [directory]
    static let directory = OptionDeclaration.value(
        "directory", "DIR",
        "Write every page instead (callback-router.1 and one callback-router-COMMAND.1 per command) into DIR, which must exist; prints {\"written\":[file names]}."
    )
    static let discussion = """
        EXIT CODES:
          0 printed or written, 64 usage (an unknown command), 77 a page could not be written
          (as for register).
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router manpage parse | man -l -

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let pages = ManPage(tool: context.tool)
        do throws(Arguments.UsageError) {
            if let directory = try args.single(Self.directory) {
                try args.noPositionals()
                return write(pages, into: directory, context: context)
            }
            guard args.positionals.count <= 1 else {
                throw Arguments.UsageError(description: "expected at most one command, got \(args.positionals.count) arguments")
            }
            guard let page = pages.page(named: args.positionals.first) else {
                // The unknown word is not echoed (it may be a pasted URL or state).
                let names = context.tool.commands.map { $0.name }.joined(separator: ", ")
                throw Arguments.UsageError(description: "no such command; the commands are \(names)")
            }
            context.output.writeOut(page)
            return ExitCode.success
        } catch {
            return usageError(error.description, context: context)
        }
    }

    static func write(_ pages: ManPage, into directory: String, context: CommandContext) -> Int32 {
        var written: [JSONValue] = []
        for (fileName, text) in pages.allPages {
            let path = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
            do {
                try FileSystem.writeAtomically(path, Array(text.utf8), mode: 0o644)
            } catch {
                context.printError("\(name): \(error)")
                return ExitCode.permission
            }
            written.append(.string(fileName))
        }
        context.printJSON(.object([("written", .array(written))]))
        return ExitCode.success
    }
}

#endif
