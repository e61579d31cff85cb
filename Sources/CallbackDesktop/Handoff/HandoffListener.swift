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

import CallbackRouter
import CallbackSystem

/// `listen`'s side: a socket in the runtime directory that accepts, from processes of the
/// same user only, the one callback meant for it.
///
/// The socket's name is a random id: the expected state stays in this process and is
/// compared in constant time when an offer arrives. The socket is removed when the
/// listener ends; a socket left behind by a killed listener is removed by the next `open`
/// that finds nobody accepting on it.
///
/// A listener without an expected state (a stateless dialect) has nothing that tells a
/// forged callback from its own, so it never takes one that was spooled before it began:
/// `init` notes the spool's entries of its scheme *before* it binds its socket, and
/// ``takeFromSpool()`` skips them. Names are random and never reused, so no clock is
/// compared (no skew, no clock step, no one-second resolution to reason about): an entry
/// not in that list was written after the listener began.
final class HandoffListener {
    let scheme: CallbackScheme
    let socketPath: String
    private let expectedState: String?
    /// The magic-link flow this listener is bound to (`listen --flow-id`): it takes only that
    /// flow's link, from the spool too (one clicked before it began), like a state.
    private let expectedFlowID: String?
    private let runtime: RuntimeDirectory
    private let listening: Descriptor
    /// How long one connection may take, from accept to `open`'s decision.
    var connectionTimeoutMilliseconds: Int64 = 5000
    /// The only uid whose processes may connect: the runtime directory's.
    var allowedPeer: UserID
    /// Whether a callback the routing rule gives this listener is really its own (e.g. it
    /// matches its redirect URI); nil: every one. A URL it refuses is answered "not mine"
    /// on the socket (`open` spools it or reports `no_route`) and left in the spool: the
    /// wait goes on.
    var accepts: ((String) -> Bool)?
    /// Spool entries that existed before this listener began: never taken when it expects
    /// no state.
    private let spooledBefore: Set<String>
    /// When this listener last deleted the spool's expired entries (monotonic ms).
    private var lastSweep: Int64 = 0
    /// How often a waiting listener deletes the spool's expired entries.
    var sweepIntervalMilliseconds: Int64 = 1000
    /// What "now" is for the spool's expiry (a test moves it instead of sleeping).
    var wallClock = WallClock.system

    enum Result: Equatable {
        case received(url: String)
        /// `open` found two or more listeners that could take a callback and delivered it to none.
        case conflict
        case timedOut
    }

    /// - Parameter refusingSecondStateless: without an expected state, refuse (`conflict`)
    ///   when another stateless listener of `scheme` is already waiting. The check and the
    ///   bind happen under one `flock` on `stateless.lock` in the scheme's listener
    ///   directory, so two such listeners started at the same instant cannot both start.
    init(
        runtime: RuntimeDirectory, scheme: CallbackScheme, expectedState: String?, expectedFlowID: String? = nil,
        refusingSecondStateless: Bool = false
    ) throws(DesktopError) {
        self.runtime = runtime
        self.scheme = scheme
        self.expectedState = expectedState
        self.expectedFlowID = expectedState == nil ? expectedFlowID : nil
        allowedPeer = runtime.uid
        // A flow id binds as a state does: only that flow's link is taken, so one spooled
        // before this listener began is its own too.
        let bound = expectedState != nil || self.expectedFlowID != nil
        // Before the socket exists: what is in the spool now predates this listener.
        spooledBefore = bound ? [] : Set(try Spool(runtime).entries(for: scheme).map(\.name))
        try runtime.makePrivateDirectory(runtime.listenersDirectory)
        let directory = runtime.listenerDirectory(for: scheme)
        try runtime.makePrivateDirectory(directory)
        var lock: Descriptor?
        defer { lock?.close() }
        if !bound && refusingSecondStateless {
            lock = Self.lockStatelessStart(in: directory, uid: runtime.uid)
            if Self.statelessListenerIsWaiting(runtime: runtime, scheme: scheme) {
                throw DesktopError(
                    .conflict,
                    message:
                        "another listen of '\(scheme)' without a state is already waiting: a callback could go to either, so neither would get it. End that one first, or give each login its own --state"
                )
            }
        }
        // Named apart: a stateless listener's socket says so (statelessListenerIsWaiting).
        let path = joinPath(directory, (bound ? "" : Self.statelessPrefix) + RandomName.hex(bytes: 8) + ".sock")
        guard path.utf8.count <= UnixSocket.maxPathBytes else {
            throw .permission(
                "the socket path '\(path)' is longer than a Unix socket allows (\(UnixSocket.maxPathBytes) bytes): set XDG_RUNTIME_DIR to a shorter private directory (mode 0700)"
            )
        }
        do {
            listening = try UnixSocket.listen(at: path)
        } catch {
            throw .unavailable("cannot listen: \(error.description)")
        }
        socketPath = path
    }

    deinit { stop() }

    /// The start of a stateless listener's socket name.
    static let statelessPrefix = "any-"

    /// Whether a listener of `scheme` without an expected state is waiting (its socket
    /// accepts connections; one left by a killed listener refuses them). Two such listeners
    /// would both be candidates for the same callback, which then reaches neither: a
    /// command refuses to start a second one instead of finding the conflict after the
    /// sign-in.
    static func statelessListenerIsWaiting(runtime: RuntimeDirectory, scheme: CallbackScheme) -> Bool {
        let directory = runtime.listenerDirectory(for: scheme)
        let names = (try? FileSystem.entries(directory)) ?? []
        for name in names where name.hasPrefix(statelessPrefix) && name.hasSuffix(".sock") {
            if let connection = try? UnixSocket.connect(to: joinPath(directory, name)) {
                connection.close()
                return true
            }
        }
        return false
    }

    /// An exclusive `flock` on the private `stateless.lock` of a scheme's listener directory,
    /// released when the descriptor is closed; nil when it cannot be had (then the check
    /// still runs, without the guarantee for two starts at the same instant).
    private static func lockStatelessStart(in directory: String, uid: UserID) -> Descriptor? {
        guard let descriptor = try? FileSystem.openOrCreate(joinPath(directory, "stateless.lock"), mode: 0o600) else { return nil }
        guard let status = try? descriptor.status(), status.kind == .regular, status.owner == uid, status.isPrivate,
            (try? descriptor.lockExclusively()) != nil
        else {
            descriptor.close()
            return nil
        }
        return descriptor
    }

    /// Removes the socket: no `open` can reach this listener afterwards.
    func stop() {
        if listening.rawValue >= 0 {
            _ = try? FileSystem.remove(socketPath)
            listening.close()
        }
    }

    /// A matching callback from the spool, if one waits there. Call after `init` (the
    /// socket exists first, so a callback is either in the spool already or will be
    /// offered on the socket). Without an expected state, only an entry written after
    /// `init` began counts.
    func takeFromSpool() throws(DesktopError) -> String? {
        let spool = try Spool(runtime, wallClock: wallClock)
        spool.sweepExpired()
        lastSweep = SystemClock.monotonicMilliseconds()
        return spool.take(
            scheme: scheme, expectedState: expectedState, expectedFlowID: expectedFlowID, accepting: accepts, skipping: spooledBefore)
    }

    /// Deletes the spool's expired entries at most once per ``sweepIntervalMilliseconds``,
    /// so that a callback's time to live ends on time while anyone waits.
    private func sweepIfDue() {
        let now = SystemClock.monotonicMilliseconds()
        guard now - lastSweep >= sweepIntervalMilliseconds else { return }
        lastSweep = now
        (try? Spool(runtime, wallClock: wallClock))?.sweepExpired()
    }

    /// Waits until a callback is delivered, `open` reports a conflict, or `deadline`.
    func wait(until deadline: Deadline) throws(DesktopError) -> Result {
        while true {
            sweepIfDue()
            let slice = Deadline(milliseconds: lastSweep + sweepIntervalMilliseconds).earlier(deadline)
            let connection: Descriptor?
            do {
                connection = try UnixSocket.accept(listening, deadline: slice)
            } catch {
                throw .unavailable(error.description)
            }
            guard let connection else {
                if deadline.hasPassed { return .timedOut }
                continue
            }
            // A connection accepted in time gets its own time, not what is left of `deadline`
            // (which for `HandoffReceiver` is a 100 ms slice): an `open` that has begun a
            // delivery is not cut off halfway.
            let connectionDeadline = Deadline.after(milliseconds: connectionTimeoutMilliseconds)
            if let result = serve(connection, deadline: connectionDeadline) { return result }
        }
    }

    /// One connection; nil when it did not end this listener's wait.
    private func serve(_ connection: Descriptor, deadline: Deadline) -> Result? {
        defer { connection.close() }
        guard let peer = try? UnixSocket.peerCredentials(connection), peer.uid == allowedPeer else {
            try? UnixSocket.send(connection, [HandoffWire.Reply.peerRefused.rawValue], deadline: deadline)
            // Let the stranger finish writing before closing, so that it reads the refusal
            // instead of failing on a broken pipe; what it sent is discarded unread.
            connection.shutdownWriting()
            let drainUntil = Deadline.after(milliseconds: 250).earlier(deadline)
            while (try? UnixSocket.receive(connection, count: 1024, deadline: drainUntil)) != nil {}
            return nil
        }
        do {
            guard try UnixSocket.receive(connection, count: HandoffWire.magic.count, deadline: deadline) == HandoffWire.magic,
                let offerFrame = try HandoffWire.readFrame(connection, deadline: deadline), offerFrame.type == .offer,
                let offered = HandoffWire.decodeOffer(offerFrame.payload)
            else { return nil }
            let answer = HandoffMatch.answer(
                listenerScheme: scheme, expectedState: expectedState, expectedFlowID: expectedFlowID, offered: offered)
            try UnixSocket.send(connection, [HandoffWire.Reply(answer).rawValue], deadline: deadline)
            guard answer != .notMine, let decision = try HandoffWire.readFrame(connection, deadline: deadline) else { return nil }
            switch decision.type {
            case .deliver:
                let url = String(decoding: decision.payload, as: UTF8.self)
                // Trust the URL, not the offer: route it again before taking it.
                guard let parsed = try? CallbackURL(parsing: url), let route = try? CallbackRoute(parsed),
                    HandoffMatch.answer(
                        listenerScheme: scheme, expectedState: expectedState, expectedFlowID: expectedFlowID, offered: route) == answer,
                    accepts?(url) ?? true
                else {
                    try UnixSocket.send(connection, [HandoffWire.Reply.notMine.rawValue], deadline: deadline)
                    return nil
                }
                try UnixSocket.send(connection, [HandoffWire.Reply.taken.rawValue], deadline: deadline)
                return .received(url: url)
            case .conflict:
                return .conflict
            case .abort, .offer:
                return nil
            }
        } catch {
            return nil
        }
    }
}

#endif
