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

extension Command {
    /// Reads what `--WHAT-from-stdin` promises (a state, a verifier) from the first line of
    /// stdin, waiting `seconds` (at least one). Returns nil with `exit` set once the refusal
    /// is printed: the timeout rejection and 75, or a usage error. Never echoes the line.
    static func readFromStandardInput(
        _ what: String, seconds: Int, context: CommandContext,
        exit: inout Int32
    ) -> String? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(max(seconds, 1)))
        switch StandardInput.readLine(from: context.standardInput, until: deadline) {
        case .success(let line):
            return line
        case .failure(.timedOut):
            context.printJSON(
                Rendering.rejectionJSON(
                    reason: .timeout, detail: "no \(what) arrived on stdin within \(Durations.describe(seconds: Double(max(seconds, 1))))",
                    offset: nil))
            exit = ExitCode.tryAgain
        case .failure(let problem):
            exit = usageError("--\(what)-from-stdin: " + problem.description(of: what), context: context)
        }
        return nil
    }
}

#endif
