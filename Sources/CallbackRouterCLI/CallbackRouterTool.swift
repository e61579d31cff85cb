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

// The public types of the helper's toolbox (CommandContext, StandardStreams, JSONValue…)
// are part of this module's API, as they were before the toolbox became a module.
@_exported import CallbackRouterKit
import CallbackRouterPackaging

/// The helper's JSON value (CallbackRouterKit's), not the core's package one of the same name.
typealias JSONValue = CallbackRouterKit.JSONValue

/// The `callback-router` helper, as a library: `main` only forwards to ``run(_:context:)``.
public enum CallbackRouterTool {
    /// The helper's version, as `callback-router --version` prints it and the Debian package
    /// is numbered (packaging/debian/changelog must have an entry for it).
    public static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        InspectCommand.self,
        ParseCommand.self,
        PKCECommand.self,
        AuthorizeURLCommand.self,
        EndSessionURLCommand.self,
        RegisterCommand.self,
        UnregisterCommand.self,
        StatusCommand.self,
        OpenCommand.self,
        ListenCommand.self,
        LoopbackCommand.self,
        LoginCommand.self,
        RefreshCommand.self,
        TokenCommand.self,
        LogoutCommand.self,
        CompletionsCommand.self,
        ManPageCommand.self,
    ]

    /// Every word `run` acts on in the command position: the commands, `help`, `-h`,
    /// `--help` and `--version`. Any other first argument is a usage error that does not
    /// repeat it.
    public static var commandWords: [String] {
        commands.map { $0.name } + ["help", "-h", "--help", "--version"]
    }

    static var help: String {
        var text = """
            OVERVIEW: Parse, validate and route OAuth / OIDC redirect callbacks.

            USAGE: callback-router <command> [options]

            COMMANDS:

            """
        var width = 0
        for command in commands { width = max(width, command.name.count) }
        for command in commands {
            let name = command.name
            text += "  " + name + String(repeating: " ", count: width - name.count + 2) + command.summary + "\n"
        }
        text += """

            OPTIONS:
              -h, --help   Show this help; 'callback-router <command> --help' (or 'help <command>')
                           for a command's.
              --version    Print the version.

            Output is one JSON object on stdout. Exit codes: 0 success, 1 the provider reported
            a failure, 64 usage, 65 rejected input, 69 nobody to deliver to, 74 the result could
            not be written (stdout full, closed or gone), 75 timed out or conflict (try again),
            77 permission; 130 / 143 a waiting command (login, loopback, listen) ended by Ctrl-C
            (SIGINT) / SIGTERM, its last line the outcome "cancelled".

            """
        return text
    }

    /// The error for a first argument that is not a command. Never the argument itself: a
    /// callback URL or a state pasted without its command would put a secret on stderr. Its
    /// length is all it shows, so the message is the same for any argument of that length.
    /// A word within a typo's distance of a command (`logn`) adds the command meant (the
    /// word itself is still not shown).
    static func unknownCommand(_ argument: String) -> String {
        let meant = Suggestion.closest(to: argument, among: commands.map { $0.name } + ["help"]).map { "; did you mean \($0)?" } ?? "."
        return "unknown command (\(argument.utf8.count) bytes, not shown)\(meant) The commands are "
            + commands.map { $0.name }.joined(separator: ", ") + "."
    }

    /// Whether an error about `word` names what was meant ("did you mean …?") because it is
    /// within a typo's distance of one of `names`: such an error depends on the word's text
    /// by design (fuzz-cli leaves these words out of its blind-twin comparison).
    public static func isTypo(_ word: String, ofOneOf names: [String]) -> Bool {
        Suggestion.closest(to: word, among: names) != nil
    }

    /// The names (without `--`) of the options `command` takes; empty for an unknown one.
    public static func optionNames(of command: String) -> [String] {
        commands.first { $0.name == command }?.options.map(\.name) ?? []
    }

    /// The tool as its commands see it (``CommandContext``).
    static var description: ToolDescription {
        ToolDescription(commands: commands, help: help, version: version) { json, exit, command, colour in
            FailureLine.line(for: json, exit: exit, command: command, colour: colour)
        }
    }

    /// Runs the helper with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        var context = context
        context.tool = description
        guard let first = arguments.first else {
            context.output.writeErr(help)
            return ExitCode.usage
        }
        switch first {
        case "help" where arguments.count == 2:
            // `help login`: the command's own help, as `login --help`.
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                context.printError(unknownCommand(arguments[1]) + "\nTry 'callback-router --help'.")
                return ExitCode.usage
            }
            context.output.writeOut(command.help)
            return context.settled(ExitCode.success, command: nil)
        case "-h", "--help", "help":
            context.output.writeOut(help)
            return context.settled(ExitCode.success, command: nil)
        case "--version":
            context.output.writeOut("callback-router \(version)\n")
            return context.settled(ExitCode.success, command: nil)
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                context.printError(unknownCommand(first) + "\nTry 'callback-router --help'.")
                return ExitCode.usage
            }
            return command.main(arguments.dropFirst(), context: context)
        }
    }
}

// The packaging of this tool: its command catalog, completion scripts and man pages.
extension CommandCatalog {
    init() { self.init(CallbackRouterTool.commands) }
}

extension CompletionScript {
    init() { self.init(catalog: CommandCatalog()) }
}

extension ManPage {
    init() { self.init(tool: CallbackRouterTool.description) }
}

#endif
