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

/// `open`'s side: offers a callback to the listeners of its scheme, delivers it to the one
/// the routing rule picks, or spools it.
///
/// Order matters for races with a `listen` that is starting: the entry is spooled *before*
/// the listeners are looked up, and a listener binds its socket *before* it reads the
/// spool. Whichever way the two interleave, the callback is either seen by the listener in
/// the spool or the listener is seen by `open`; the spool entry's `rename`-to-claim then
/// decides who hands it over, so it is delivered at most once.
struct HandoffSender {
    let runtime: RuntimeDirectory
    /// How long one listener has to answer an offer or confirm a delivery.
    var replyTimeoutMilliseconds: Int64 = 3000

    /// What "now" is for the spool's expiry (a test moves it instead of sleeping).
    var wallClock = WallClock.system

    init(runtime: RuntimeDirectory) { self.runtime = runtime }

    enum Outcome: Equatable {
        /// A listener confirmed it has the callback.
        case delivered
        /// Nobody listens yet; the callback waits in the spool.
        case spooled
        /// A listener took it from the spool while `open` was looking.
        case takenFromSpool
        /// Two or more listeners could take it: delivered to none.
        case conflict
        /// A listener did not answer and may have been the one: delivered to none.
        case busy
        /// No listener, and spooling was not allowed.
        case nobody
        /// The listener took the delivery but did not confirm: not retried (at most once).
        case unconfirmed
    }

    struct SpoolPolicy {
        var enabled: Bool
        var ttlSeconds: Int
    }

    func send(url: String, route: CallbackRoute, spool spoolPolicy: SpoolPolicy) throws(DesktopError) -> Outcome {
        var spooled: (spool: Spool, entry: Spool.Entry)?
        // Every `open` deletes the spool's expired entries, whether it spools or not.
        let spool = try Spool(runtime, wallClock: wallClock)
        spool.sweepExpired()
        if spoolPolicy.enabled {
            do {
                spooled = (spool, try spool.add(url: url, scheme: route.scheme, ttlSeconds: spoolPolicy.ttlSeconds))
            } catch {
                throw .unavailable("cannot spool the callback: \(error.description)")
            }
        }
        let listeners: [Offered]
        do {
            listeners = try offer(route)
        } catch {
            if let spooled, spooled.spool.claim(spooled.entry) { spooled.spool.removeClaimed(spooled.entry) }
            throw error
        }

        let decision = HandoffMatch.decide(listeners.map(\.answer))
        if case .nobody = decision {
            for listener in listeners { listener.connection.close() }
            guard let spooled else { return .nobody }
            return spooled.spool.exists(spooled.entry) ? .spooled : .takenFromSpool
        }
        // From here on the callback leaves the spool: claim it, or learn a listen took it.
        if let spooled {
            guard spooled.spool.claim(spooled.entry) else {
                for listener in listeners { listener.connection.close() }
                return .takenFromSpool
            }
        }
        var putBack = false
        defer { if let spooled, !putBack { spooled.spool.removeClaimed(spooled.entry) } }

        let deadline = Deadline.after(milliseconds: replyTimeoutMilliseconds)
        switch decision {
        case .deliver(let index):
            for (other, listener) in listeners.enumerated() where other != index { listener.connection.close() }
            let target = listeners[index].connection
            defer { target.close() }
            let reply: HandoffWire.Reply?
            do {
                try UnixSocket.send(target, HandoffWire.encode(.deliver, Array(url.utf8)), deadline: deadline)
                reply = try HandoffWire.readReply(target, deadline: deadline)
            } catch {
                return .unconfirmed
            }
            switch reply {
            case .taken: return .delivered
            case .notMine:
                // The listener read the URL and found it is not its own (not its redirect
                // URI): it keeps waiting, and the callback is for nobody who waits now.
                guard let spooled else { return .nobody }
                putBack = spooled.spool.unclaim(spooled.entry)
                return putBack ? .spooled : .takenFromSpool
            default: return .unconfirmed
            }
        case .conflict(let candidates):
            for (index, listener) in listeners.enumerated() {
                if candidates.contains(index) {
                    try? UnixSocket.send(listener.connection, HandoffWire.encode(.conflict), deadline: deadline)
                }
                listener.connection.close()
            }
            return .conflict
        case .busy, .nobody:
            for listener in listeners { listener.connection.close() }
            return .busy
        }
    }

    private struct Offered {
        let connection: Descriptor
        /// nil: no answer in time.
        let answer: HandoffMatch.Answer?
    }

    /// Connects to every listener of the scheme and collects their answers.
    private func offer(_ route: CallbackRoute) throws(DesktopError) -> [Offered] {
        let directory = runtime.listenerDirectory(for: route.scheme)
        guard let status = try? FileSystem.status(directory) else { return [] }
        guard status.kind == .directory, status.owner == runtime.uid, status.isPrivate else {
            throw .permission("'\(directory)' is not a private directory of uid \(runtime.uid)")
        }
        let names: [String]
        do { names = try FileSystem.entries(directory) } catch { throw .permission(error.description) }

        var offered: [Offered] = []
        let offerBytes = HandoffWire.magic + HandoffWire.offer(route)
        for name in names where name.hasSuffix(".sock") {
            let path = joinPath(directory, name)
            guard let socketStatus = try? FileSystem.status(path) else { continue }
            guard socketStatus.kind == .socket, socketStatus.owner == runtime.uid else {
                throw .permission("'\(path)' is not a socket of uid \(runtime.uid): refusing to talk to it")
            }
            let connection: Descriptor
            do {
                connection = try UnixSocket.connect(to: path)
            } catch {
                switch error.code {
                case SystemError.Code.connectionRefused:
                    // Nobody accepts on it: a listener that was killed. Clean up after it.
                    _ = try? FileSystem.remove(path)
                case SystemError.Code.noSuchFile:
                    break // it ended between the listing and now
                default:
                    offered.append(Offered(connection: Descriptor(-1), answer: nil))
                }
                continue
            }
            let peer: PeerCredentials
            do { peer = try UnixSocket.peerCredentials(connection) } catch { throw .permission(error.description) }
            guard peer.uid == runtime.uid else {
                throw .permission("the listener at '\(path)' runs as uid \(peer.uid), not uid \(runtime.uid)")
            }
            let deadline = Deadline.after(milliseconds: replyTimeoutMilliseconds)
            do {
                // A listener that refuses this process answers 'P' and closes at once: the
                // offer may then fail to send, but the answer is still there to read.
                try? UnixSocket.send(connection, offerBytes, deadline: deadline)
                switch try HandoffWire.readReply(connection, deadline: deadline) {
                case .peerRefused?:
                    throw DesktopError.permission("the listener at '\(path)' refused this process")
                case let reply?:
                    guard let answer = reply.answer else { continue }
                    offered.append(Offered(connection: connection, answer: answer))
                case nil:
                    continue // garbage: not a listener of ours
                }
            } catch let failure as DesktopError {
                throw failure
            } catch let error as SystemError where error.code == SystemError.Code.timedOut {
                offered.append(Offered(connection: connection, answer: nil))
            } catch {
                continue // it closed: it ended (took a spooled callback, timed out) meanwhile
            }
        }
        return offered
    }
}

#endif
