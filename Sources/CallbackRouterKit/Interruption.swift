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

/// How SIGINT (Ctrl-C) and SIGTERM end a waiting command (`login`, `loopback`, `listen`):
/// the last line on stdout is an outcome, `{"outcome":"rejected","reason":"cancelled",…}`,
/// never only the loopback's first `{"redirect_uri":…}` line a script would misread, and
/// the exit code is 130 (SIGINT) or 143 (SIGTERM), as a shell reports a process killed by
/// that signal.
///
/// ``install()`` blocks both signals in the calling thread before any other thread exists
/// (every later thread inherits the mask) and takes them with `sigwait` on a thread of its
/// own, so no code runs in a signal handler. A signal then:
/// - during a wait that can be stopped (the loopback receiver): stops it; the command
///   prints the cancelled outcome itself and returns ``exitCode``;
/// - during any other part of a wait (reading a state from stdin, a hand-off socket):
///   prints the cancelled outcome, runs the cleanups (`listen` removes its socket) and
///   exits at once;
/// - after ``finish()`` (the final line is being printed): nothing more; the process ends
///   with that line anyway;
/// - outside a wait (`parse`, `register`, …): exits at once with 128 + the signal, as the
///   default action would have killed it.
public final class Interruption: Sendable {
    private struct Waiting {
        var output: any CommandOutput
        var extras: [(String, JSONValue)]
        var stop: (@Sendable () -> Void)?
        var cleanups: [@Sendable () -> Void] = []
    }

    private struct State {
        var signal: Int32?
        var waiting: Waiting?
        var finished = false
        var exitCleanups: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    /// Ends the process (tests replace it: a test runner must not `_exit`).
    private let terminate: @Sendable (Int32) -> Void

    init(terminate: @escaping @Sendable (Int32) -> Void = { Signals.endProcessAtOnce(status: $0) }) {
        self.terminate = terminate
    }

    /// Blocks SIGINT and SIGTERM and handles them on a thread of their own, as the type's
    /// documentation says. Call it first thing in `main`, before any thread is started.
    /// Programs this process starts (a browser) get both signals unblocked again.
    public static func install() -> Interruption {
        let interruption = Interruption()
        Signals.block(handledSignals)
        let started = DetachedThread.start {
            while true {
                if let received = Signals.wait(for: handledSignals) { interruption.deliver(received) }
            }
        }
        if !started { Signals.unblock(handledSignals) }
        return interruption
    }

    private static let handledSignals = [Signals.interrupt, Signals.terminate]

    /// The first signal received, if any.
    package var signal: Int32? { state.withLock { $0.signal } }

    /// 130 or 143 once a signal was received, else nil.
    package var exitCode: Int32? { signal.map(Self.exitCode(for:)) }

    static func exitCode(for signal: Int32) -> Int32 {
        signal == Signals.terminate ? ExitCode.terminated : ExitCode.interrupted
    }

    /// The outcome a command prints when a signal ended its wait.
    package static func cancelledJSON(signal: Int32) -> JSONValue {
        let detail = signal == Signals.terminate ? "stopped by SIGTERM" : "interrupted (SIGINT, Ctrl-C)"
        // The shape of every rejection (Rendering.rejectionJSON), built here: the signal
        // thread's line must not wait for anything but this module.
        return .object([
            ("outcome", .string("rejected")), ("reason", .string(ReasonCode.cancelled.rawValue)),
            ("detail", .string("the wait was \(detail)")), ("offset", .null),
        ])
    }

    /// The wait begins: from now on a signal ends the command with the cancelled outcome
    /// (with `extras` appended) on `output`.
    package func beginWaiting(output: any CommandOutput, extras: [(String, JSONValue)] = []) {
        state.withLock { $0.waiting = Waiting(output: output, extras: extras) }
    }

    /// Runs at exit when a signal ends the command outside a wait (a terminal's echo,
    /// turned off for a pasted secret, is turned back on).
    package func addExitCleanup(_ cleanup: @escaping @Sendable () -> Void) {
        state.withLock { $0.exitCleanups.append(cleanup) }
    }

    /// Runs at exit when a signal ends the wait (`listen` removes its socket).
    package func addCleanup(_ cleanup: @escaping @Sendable () -> Void) {
        state.withLock { $0.waiting?.cleanups.append(cleanup) }
    }

    /// While `body` runs, a signal calls `stop`, which must make `body` return soon; the
    /// command then prints the cancelled outcome. A signal already received stops at once.
    func stoppable<T, Failure: Error>(by stop: @escaping @Sendable () -> Void, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let already = state.withLock { state in
            state.waiting?.stop = stop
            return state.signal != nil
        }
        if already { stop() }
        defer { state.withLock { $0.waiting?.stop = nil } }
        return try body()
    }

    /// The final line is about to be printed: a signal from now on is left to it.
    package func finish() {
        state.withLock { $0.finished = true }
    }

    /// What a signal does (see the type's documentation); the signal thread calls it.
    func deliver(_ signal: Int32) {
        state.withLock { state in
            if state.signal == nil { state.signal = signal }
            guard !state.finished else { return }
            guard let waiting = state.waiting else {
                for cleanup in state.exitCleanups { cleanup() }
                return terminate(Self.exitCode(for: signal))
            }
            if let stop = waiting.stop {
                state.waiting?.stop = nil
                stop()
                return
            }
            // Printed while holding the lock: `finish()` waits for it, so no second line follows.
            waiting.output.writeOut(Self.cancelledJSON(signal: signal).appending(waiting.extras).serialized + "\n")
            for cleanup in waiting.cleanups { cleanup() }
            state.finished = true
            terminate(Self.exitCode(for: signal))
        }
    }
}

extension CommandContext {
    /// `body` with ``Interruption/stoppable(by:_:)`` when signals are handled, else as is.
    package func stoppable<T, Failure: Error>(by stop: @escaping @Sendable () -> Void, _ body: () throws(Failure) -> T) throws(Failure) -> T
    {
        guard let interruption else { return try body() }
        return try interruption.stoppable(by: stop, body)
    }
}

extension CommandContext {
    /// Prints a waiting command's final line: a signal after this is left to it (no second
    /// line), while one before it (during a token request, say) still ends the command with
    /// the cancelled outcome. False when stdout lost it (``printJSON(_:)``).
    @discardableResult
    package func printOutcome(_ value: JSONValue) -> Bool {
        interruption?.finish()
        return printJSON(value)
    }
}

#endif
