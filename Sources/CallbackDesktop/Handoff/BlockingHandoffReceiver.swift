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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackSystem

/// The receiving side of ``CallbackHandoff`` for a program without a concurrency runtime
/// of its own (a command-line tool, a thread of one's own): its wait blocks the calling
/// thread. ``HandoffReceiver`` is the same receiver for `async` code.
///
/// ```swift
/// let receiver = try BlockingHandoffReceiver(scheme: scheme, state: attempt.state, environment: env)
/// openBrowser(url)
/// switch try receiver.wait(timeout: .seconds(300)) {
/// case .callback(let url): _ = try router.handle(url)      // validate it: nothing is judged here
/// case .conflict, .timedOut: break                          // the login did not complete
/// }
/// ```
///
/// Only processes of the same user reach its socket. A URL whose state is not `state`, or
/// that has none while `state` is set, goes to another receiver (or the spool), never here;
/// one that `accepting` refuses is answered "not mine" (`open` spools it) and does not end
/// the wait. Not `Sendable`: one thread uses it; ``close()`` (or deinit) removes the socket.
///
/// Each ``wait(timeout:)`` looks in the spool once, at its start (so a wait after another
/// finds what was spooled meanwhile, e.g. a URL `accepting` refused and now accepts), then
/// waits on the socket; it never lists the spool again while it waits: while the socket
/// exists, `open` hands this receiver's callbacks to it, not to the spool. This is the one
/// wait of the hand-off: ``HandoffReceiver`` runs it on a thread of its own.
public final class BlockingHandoffReceiver {
    /// How one wait ended.
    public enum Arrival: Sendable, Equatable {
        /// A callback URL for this receiver, from the spool or from `open` (not yet validated).
        case callback(String)
        /// `open` found two or more receivers that could take a callback and gave it to none:
        /// another login of the scheme is in progress.
        case conflict
        /// Nothing arrived within the timeout.
        case timedOut
    }

    private let listener: HandoffListener

    /// The scheme whose callbacks this receiver takes, lowercased.
    public var scheme: CallbackScheme { listener.scheme }

    /// The receiver's socket, for a signal handler that must remove it (`unlink`) before the
    /// process exits, where ``close()`` cannot run. Never a secret: the name is random.
    public var socketPath: String { listener.socketPath }

    /// Creates the receiver's socket. Make it before the browser is opened: a callback that
    /// comes earlier waits in the spool, and a receiver without `state` takes only one
    /// spooled after it was made.
    ///
    /// - Parameters:
    ///   - scheme: the scheme whose callbacks it takes.
    ///   - state: the login's state; nil for dialects without one.
    ///   - flowID: without a `state`, the Clerk magic-link flow this receiver waits for: it
    ///     takes only a callback whose `flow_id` is this one (exactly, in constant time), from
    ///     the spool too (a link clicked before it was made), as with a state; another flow's
    ///     link is "not mine" and the wait goes on. Nil: not bound to a flow.
    ///   - environment: where `XDG_RUNTIME_DIR` comes from.
    ///   - refusingSecondStateless: without a `state`, refuse to start while another receiver
    ///     of the scheme without a state waits (a callback could go to either, so neither
    ///     would get it). Checked and bound under one lock: two cannot both start.
    ///   - accepting: whether a URL the routing rule gives this receiver is its own (e.g. it
    ///     matches its redirect URI); nil: every one. Called on the waiting thread.
    /// - Throws: ``DesktopError/conflict`` (another stateless receiver waits and
    ///   `refusingSecondStateless`), ``DesktopError/permission`` for a foreign or badly owned
    ///   runtime directory, ``DesktopError/unavailable`` when the socket cannot be made.
    public init(
        scheme: CallbackScheme, state: String?, flowID: String? = nil, environment: [String: String],
        refusingSecondStateless: Bool = false, accepting: ((String) -> Bool)? = nil
    ) throws(DesktopError) {
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: UserIdentity.real)
        listener = try HandoffListener(
            runtime: runtime, scheme: scheme, expectedState: state, expectedFlowID: flowID,
            refusingSecondStateless: refusingSecondStateless)
        listener.accepts = accepting
    }

    deinit { listener.stop() }

    /// Stops answering and removes the socket. Callbacks not yet taken stay with `open`
    /// (spooled, or reported as undelivered).
    public func close() { listener.stop() }

    /// The spool first, then the socket, until a callback for this receiver arrives, `open`
    /// reports a conflict, or `timeout` passes (a timeout past a year waits a year).
    ///
    /// - Throws: ``DesktopError/permission`` or ``DesktopError/unavailable`` when the spool or
    ///   the socket fails.
    public func wait(timeout: Duration) throws(DesktopError) -> Arrival {
        try wait(until: .after(milliseconds: Self.milliseconds(timeout)), readingSpool: true)
    }

    /// The one wait of the hand-off, for both receivers: the spool first when `readingSpool`
    /// (a matching entry is taken and deleted), then the socket until `deadline`.
    /// ``wait(timeout:)`` reads the spool at each call; ``HandoffReceiver``'s thread, which
    /// waits in slices of 100 ms so that its `close()` is seen promptly, reads it only in its
    /// first slice (listing the spool ten times a second would find nothing more: while the
    /// socket exists, `open` hands this receiver's callbacks to it).
    func wait(until deadline: Deadline, readingSpool: Bool) throws(DesktopError) -> Arrival {
        if readingSpool, let spooled = try listener.takeFromSpool() { return .callback(spooled) }
        switch try listener.wait(until: deadline) {
        case .received(let url): return .callback(url)
        case .conflict: return .conflict
        case .timedOut: return .timedOut
        }
    }

    /// Whole milliseconds of `timeout`, between 0 and a year.
    static func milliseconds(_ timeout: Duration) -> Int64 {
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0 else { return 0 }
        guard seconds < 365 * 24 * 3600 else { return 365 * 24 * 3600 * 1000 }
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

#endif
