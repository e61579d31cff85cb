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

import CallbackRouter
import CallbackSystem

/// The RFC 8252 §7.3 receiver: one listening socket on a loopback address and a
/// single-threaded `poll` loop that serves every connection at once.
///
/// Concurrency without threads: each connection is a non-blocking descriptor with its
/// own buffer and deadline, so a preconnected socket that never speaks, a peer that
/// trickles one byte a second, or junk cannot delay the browser's real request.
///
/// `@unchecked Sendable`: ``run(judge:until:log:)`` owns the mutable state and runs on one
/// thread at a time (a second concurrent run is refused); from other threads only
/// ``requestStop()`` is called, which writes one byte to a pipe the loop polls.
final class LoopbackServer: @unchecked Sendable {
    let configuration: LoopbackConfiguration
    /// The port actually bound.
    let port: Int
    /// The listening sockets: one, or two for `localhost` (127.0.0.1 and ::1, one port).
    var listeners: [Descriptor]
    /// The self-pipe that wakes the loop for ``requestStop()``.
    let wakeup: (read: Descriptor, write: Descriptor)
    let running = Locked(false)
    /// The one-time start link: `/start/<256 random bits, base64url>`.
    let startPath = "/start/" + AttemptSecrets.randomToken()
    /// The authorization URL the start link reveals, once known, and whether it has.
    let startLink = Locked(StartLink())
    /// The answer to an accepted callback held for the app (``LoopbackReceiver/Configuration/answerHold``), once one is.
    let heldAnswer = Locked<LoopbackHeldAnswer?>(nil)

    struct StartLink {
        var authorizationURL: String?
        var used = false
    }

    /// `http://127.0.0.1:PORT/path`: the IP literal actually bound, the port actually bound.
    var redirectURI: String { "http://\(authority)\(configuration.path)" }

    /// What a browser following ``redirectURI`` sends as `Host`.
    var authority: String { "\(configuration.host.uriHost):\(port)" }

    init(configuration: LoopbackConfiguration) throws(SystemError) {
        self.configuration = configuration
        let (listeners, port) = try Self.bind(configuration)
        self.wakeup = try NonBlockingIO.makeWakeupPipe()
        self.listeners = listeners
        self.port = port
    }

    /// Binds the literal, or for `localhost` 127.0.0.1 and then ::1 on the same port (a
    /// kernel-picked port taken on ::1 is tried again with another, a few times). A system
    /// without IPv6 (`EADDRNOTAVAIL`, `EAFNOSUPPORT`) gets 127.0.0.1 alone.
    static func bind(_ configuration: LoopbackConfiguration) throws(SystemError) -> ([Descriptor], Int) {
        guard configuration.host == .localhost else {
            let (listener, port) = try LoopbackTCP.listen(ipv6: configuration.host == .ipv6, port: configuration.port)
            return ([listener], port)
        }
        var lastFailure = SystemError("bind", code: SystemError.Code.addressInUse)
        for _ in 0 ..< (configuration.port == 0 ? 8 : 1) {
            let (v4, port) = try LoopbackTCP.listen(ipv6: false, port: configuration.port)
            do {
                let (v6, _) = try LoopbackTCP.listen(ipv6: true, port: port)
                return ([v4, v6], port)
            } catch {
                if error.code == SystemError.Code.addressNotAvailable || error.code == SystemError.Code.addressFamilyNotSupported {
                    return ([v4], port)
                }
                lastFailure = error
                guard error.code == SystemError.Code.addressInUse else { throw error }
            }
        }
        throw lastFailure
    }

    /// Ends a wait in progress from any thread: the listening socket is closed at once, a
    /// page being sent is finished (within the linger timeout), and ``run(judge:until:log:)``
    /// returns ``LoopbackServerOutcome/stopped(ignored:)`` unless a callback already ended it. A
    /// stop requested before the run starts ends it as soon as it starts.
    func requestStop() {
        NonBlockingIO.signal(wakeup.write)
    }

    /// Closes the listening sockets now (a copy the loop holds must not keep them open).
    func stopListening() {
        for listener in listeners { listener.close() }
        listeners = []
    }
}
