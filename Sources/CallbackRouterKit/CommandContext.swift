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

/// What every command gets: its output streams and the environment it runs in.
public struct CommandContext: Sendable {
    /// Where the command writes its JSON (stdout) and its diagnostics (stderr).
    public var output: any CommandOutput
    /// The process environment (tests pass an isolated one).
    public var environment: [String: String]
    /// The helper's own absolute path, written into `.desktop` files by `register`.
    public var executablePath: String
    /// Where `--state-from-stdin` reads (0; tests pass one end of a pipe).
    public var standardInput: Int32
    /// What SIGINT and SIGTERM do to a waiting command (``Interruption/install()``); nil:
    /// nothing is set up (in-process tests), the signals keep their default action.
    public var interruption: Interruption?
    /// The tool the command runs in (set by ``CallbackRouterTool/run(_:context:)``): how
    /// `manpage` and `completions` learn the other commands without naming them.
    package var tool = ToolDescription(commands: [], help: "", version: "")

    /// A context for one run; `standardInput` defaults to the process's own (descriptor 0).
    public init(
        output: any CommandOutput, environment: [String: String], executablePath: String,
        standardInput: Int32 = 0
    ) {
        self.output = output
        self.environment = environment
        self.executablePath = executablePath
        self.standardInput = standardInput
    }

    /// Where the command's result goes and what became of it: shared by every copy of
    /// this context (``settled(_:command:)`` reads it when the command returns).
    package let result = CommandResult()

    /// Prints one JSON line on stdout, or keeps it for ``settled(_:command:)`` when the
    /// result goes to a file (`--output`). False when stdout has lost a write: the command
    /// then ends 74 whatever it returns.
    @discardableResult
    package func printJSON(_ value: JSONValue) -> Bool {
        result.printed(value)
        if let earlier = result.keep(value) { output.writeOut(earlier.serialized + "\n") }
        if result.file == nil { output.writeOut(value.serialized + "\n") }
        guard output.lostStandardOutput != nil else { return true }
        result.lost(value)
        return false
    }

    /// The exit code once the command returned `exit`: a result kept for `--output` is
    /// written now (to its file when `exit` is 0, else to stdout as without the option);
    /// a result that did not arrive whole is 74 (``ExitCode/ioError``) with one line on
    /// stderr, saying so in words (and, when stderr is gone too, the exit code alone).
    package func settled(_ exit: Int32, command: String?) -> Int32 {
        let who = command.map { $0 + ": " } ?? ""
        if let (value, file) = result.takeKept() {
            if exit == ExitCode.success {
                do throws(SystemError) {
                    try FileSystem.writeAtomically(file, Array((value.serialized + "\n").utf8), mode: 0o600, privately: true)
                    return exit
                } catch {
                    printError(who + CommandResult.lossLine(of: value, to: "the --output file", because: error.reasonWithoutPath))
                    return ExitCode.ioError
                }
            }
            printJSON(value)
        }
        guard let failure = output.lostStandardOutput else {
            let ending = result.silentEnding
            if exit != ExitCode.success, ending.silent {
                printError(who + tool.failureLine(ending.json, exit, command, colourOnStandardError))
            }
            return exit
        }
        printError(who + CommandResult.lossLine(of: result.lostValue, to: "stdout", because: failure))
        return ExitCode.ioError
    }

    /// Prints a verdict's JSON; returns its exit code.
    package func print(_ verdict: (json: JSONValue, exit: Int32)) -> Int32 {
        printJSON(verdict.json)
        return verdict.exit
    }
    package func printError(_ text: String) {
        result.spoke()
        output.writeErr("callback-router: " + text + "\n")
    }

    /// Writes the last human line (``SignInSummary``, ``FailureLine``) as is, on stderr.
    package func writeHumanLine(_ text: String) {
        result.spoke()
        output.writeErr(text + "\n")
    }

    /// Colour on stderr: only on a terminal, and never with NO_COLOR set.
    package var colourOnStandardError: Bool { standardErrorIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty }
}

#endif
