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

/// A command's result on its way out: the file it goes to instead of stdout (`--output`),
/// the JSON kept for that file until the exit code is known, and what stdout lost.
/// A reference, so that every copy of a ``CommandContext`` shares one.
package final class CommandResult: Sendable {
    private struct State {
        var file: String?
        var kept: JSONValue?
        var lost: JSONValue?
        /// The last JSON line the command printed (or kept), and whether a human line on
        /// stderr followed it.
        var last: JSONValue?
        var spoke = false
    }

    private let state = Locked(State())

    /// The result's file (`--output FILE`), nil for stdout.
    var file: String? { state.withLock { $0.file } }

    /// From now on the result goes to `path` (written when the command succeeds).
    package func send(to path: String) { state.withLock { $0.file = path } }

    /// Keeps `value` for the file when there is one; returns a value kept before (a command
    /// prints one result: an earlier line is printed on stdout after all).
    func keep(_ value: JSONValue) -> JSONValue? {
        state.withLock { state in
            guard state.file != nil else { return nil }
            defer { state.kept = value }
            return state.kept
        }
    }

    /// The kept value and its file, once.
    func takeKept() -> (JSONValue, String)? {
        state.withLock { state in
            guard let kept = state.kept, let file = state.file else { return nil }
            state.kept = nil
            state.file = nil
            return (kept, file)
        }
    }

    /// `value` did not reach stdout; the first one that held tokens is remembered.
    func lost(_ value: JSONValue) {
        state.withLock { state in
            if state.lost == nil || (!Self.holdsTokens(state.lost) && Self.holdsTokens(value)) { state.lost = value }
        }
    }

    /// The command printed (or kept) `value` as its JSON line.
    func printed(_ value: JSONValue) {
        state.withLock {
            $0.last = value; $0.spoke = false
        }
    }

    /// The command wrote a line on stderr.
    func spoke() { state.withLock { $0.spoke = true } }

    /// Whether the command's last word was a JSON line with no human line after it (or
    /// nothing at all): then a failing exit gets its line from ``FailureLine``. The JSON,
    /// when there is one.
    var silentEnding: (silent: Bool, json: JSONValue?) { state.withLock { (!$0.spoke, $0.last) } }

    /// What stdout lost (the tokens, when any line held them).
    var lostValue: JSONValue? { state.withLock { $0.lost } }

    /// The line that says a result was lost: with tokens, that they were issued (a refresh
    /// or a login cannot simply be printed again: the code is spent, the refresh token may be).
    static func lossLine(of value: JSONValue?, to place: String, because reason: String) -> String {
        guard holdsTokens(value) else { return "the result could not be written to \(place) (\(reason))" }
        return "the tokens were issued and could not be written to \(place) (\(reason)): they are lost;"
            + " sign in again (or refresh again) with --output FILE or a writable stdout"
    }

    static func holdsTokens(_ value: JSONValue?) -> Bool {
        guard case .object(let members)? = value?.storage else { return false }
        return members.contains { $0.0 == "access_token" }
    }
}

extension SystemError {
    /// The failed call and the system's sentence, without the path (stderr repeats no
    /// argument's value).
    package var reasonWithoutPath: String { "\(operation): \(reason)" }
}

#endif
