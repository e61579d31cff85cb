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

/// The loop: one thread, `poll` over the listeners, the connections, the wake-up pipe and
/// the paste descriptor, until a callback ends the wait, the deadline passes or a stop.
extension LoopbackServer {
    enum Phase {
        case reading(HTTPHeadScanner)
        /// A form_post callback's body: the head was `buffer[..<headLength]`, the body is
        /// the `bodyLength` bytes after it.
        case readingBody(HTTPRequestHead, headLength: Int, bodyLength: Int)
        case writing([UInt8], sent: Int)
        case draining
    }

    struct Connection {
        /// Closed at once where the loop drops the connection (and by its deinit otherwise).
        let descriptor: Descriptor
        var buffer: [UInt8] = []
        var phase: Phase
        var deadline: ContinuousClock.Instant
        let serial: Int
        var isFinal = false

        var isReading: Bool {
            switch phase {
            case .reading, .readingBody: return true
            default: return false
            }
        }

        var fd: Int32 { descriptor.rawValue }

        /// Its answer is being sent or was sent: it only lingers until the peer closes.
        var isAnswered: Bool { !isReading }
    }

    /// Serves until a callback ends the wait or the timeout passes. `log` gets one line per
    /// request that did not end the wait.
    /// `deadline` defaults to ``LoopbackConfiguration/timeout`` from now.
    func run(
        validation: LoopbackValidation, until deadline: ContinuousClock.Instant? = nil,
        log: (String) -> Void = { _ in }
    ) -> LoopbackServerOutcome {
        run(judge: Self.judge(validation), until: deadline, log: log)
    }

    /// Serves until a judgement ends the wait, ``requestStop()`` is called, or the deadline
    /// passes. A server serves one wait: a second run (or one while another is running)
    /// finds the listening socket closed and returns `.stopped` at once.
    func run(
        judge: LoopbackJudge, until deadline: ContinuousClock.Instant? = nil,
        log: (String) -> Void = { _ in }
    ) -> LoopbackServerOutcome {
        guard
            running.withLock({ running in
                if running { return false }
                running = true
                return true
            }), !listeners.isEmpty
        else { return .stopped(ignored: 0) }
        let clock = ContinuousClock()
        let deadline = deadline ?? clock.now.advanced(by: configuration.timeout)
        var connections: [Connection] = []
        var serial = 0
        var verdict: LoopbackEvaluation?
        var stopped = false
        var finishBy: ContinuousClock.Instant?
        var ignored = 0
        var paste = configuration.pasteDescriptor
        var pasteBuffer: [UInt8] = []
        var discardingLongLine = false
        defer {
            for connection in connections { connection.descriptor.close() }
            stopListening()
        }

        while true {
            var now = clock.now
            connections.removeAll { connection in
                guard now >= connection.deadline else { return false }
                connection.descriptor.close()
                return true
            }
            if verdict != nil || stopped {
                let finalPending = connections.contains { $0.isFinal }
                if !finalPending || now >= (finishBy ?? now) {
                    if let verdict { return .finished(verdict) }
                    return .stopped(ignored: ignored)
                }
            } else if now >= deadline {
                return .timedOut(ignored: ignored)
            }

            // The wake-up pipe first, then the listener while it is open, then the connections.
            var fds: [PollEntry] = [PollEntry(readable: wakeup.read.rawValue)]
            for listener in listeners { fds.append(PollEntry(readable: listener.rawValue)) }
            let pasteIndex = fds.count
            let pasting = verdict == nil && !stopped ? paste : nil
            if let pasting { fds.append(PollEntry(readable: pasting)) }
            var wake = (verdict == nil && !stopped) ? deadline : (finishBy ?? deadline)
            for connection in connections {
                switch connection.phase {
                case .reading, .readingBody, .draining: fds.append(PollEntry(readable: connection.fd))
                case .writing: fds.append(PollEntry(writable: connection.fd))
                }
                wake = min(wake, connection.deadline)
            }
            // Interrupted, or failed (nothing sensible is left to wait on: the deadline decides).
            guard case .ready(let ready) = Readiness.wait(&fds, timeoutMilliseconds: Self.milliseconds(until: wake, now: now)),
                ready > 0
            else { continue }
            now = clock.now

            if fds[0].isReady, !stopped {
                stopped = true
                if finishBy == nil { finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1)) }
                stopListening()
                // Only the pages already promised (accepted callbacks) are still finished.
                connections.removeAll { connection in
                    if connection.isFinal { return false }
                    connection.descriptor.close()
                    return true
                }
                continue
            }
            // The descriptors after the pipe's and the listener's are the connections, in
            // order, as they were before this round's accepts.
            let listening = listeners
            let firstConnection = 1 + listening.count + (pasting == nil ? 0 : 1)
            if let pasting, fds[pasteIndex].isReady {
                let limit = configuration.maxHeadBytes
                switch NonBlockingIO.readAvailable(pasting, into: &pasteBuffer, limit: 4096) {
                case .closed:
                    paste = nil
                    log("the terminal closed: pasted URLs are no longer read")
                case .wouldBlock:
                    break
                case .transferred:
                    while let newline = pasteBuffer.firstIndex(of: 0x0A) {
                        var line = Array(pasteBuffer[..<newline])
                        pasteBuffer.removeSubrange(...newline)
                        if discardingLongLine {
                            discardingLongLine = false
                            continue
                        }
                        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
                        while let first = line.first, first == 0x20 || first == 0x09 { line.removeFirst() }
                        guard !line.isEmpty else { continue }
                        let text = String(decoding: line, as: UTF8.self)
                        // Like a request for another path (404), a URL of another place is
                        // not a callback of this receiver: it is ignored, never final.
                        guard isOwnCallbackURL(text) else {
                            ignored += 1
                            log(
                                "the pasted line is not a URL of this receiver (\(redirectURI)); paste the whole URL from the browser's address bar"
                            )
                            continue
                        }
                        let judgement = judge(text)
                        switch judgement.disposition {
                        case .endsWait:
                            verdict = judgement.evaluation
                            log("the pasted URL ended the wait")
                        case .accepted:
                            log("the pasted URL was accepted")
                        case .ignored:
                            ignored += 1
                            log(
                                "the pasted line is not this login's callback (\(judgement.evaluation.reason?.rawValue ?? "not accepted")); paste the whole URL from the browser's address bar"
                            )
                        }
                        if verdict != nil { break }
                    }
                    if pasteBuffer.count > limit {
                        pasteBuffer.removeAll()
                        discardingLongLine = true
                        log("a pasted line is longer than \(limit) bytes: ignored")
                    }
                }
                if verdict != nil {
                    if finishBy == nil { finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1)) }
                    stopListening()
                    continue
                }
            }
            // Connections that are ready are read first: a browser's request already sent
            // is served before a flood of new connections can push it out.
            let readyConnections = fds[firstConnection...].map(\.isReady)
            var closed: [Int] = []
            for i in connections.indices where readyConnections[i] {
                if service(&connections[i], now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log) {
                    closed.append(i)
                }
                if verdict != nil && finishBy == nil {
                    finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1))
                    // The login is consumed: later requests find nobody listening.
                    stopListening()
                }
            }
            for i in closed.reversed() {
                connections[i].descriptor.close()
                connections.remove(at: i)
            }
            var peerLookup = LoopbackPeerOwner.Lookup()
            for (offset, listener) in listening.enumerated() where fds[1 + offset].isReady {
                for _ in 0 ..< configuration.maxConnections {
                    // A callback served above (or just now) closed the listeners.
                    guard !listeners.isEmpty, case .connection(let accepted) = LoopbackTCP.accept(listener.rawValue) else { break }
                    serial += 1
                    var connection = Connection(
                        descriptor: accepted, phase: .reading(HTTPHeadScanner(limit: configuration.maxHeadBytes)),
                        deadline: now.advanced(by: configuration.connectionTimeout), serial: serial)
                    if let refusal = otherUserRefusal(accepted.rawValue, lookup: &peerLookup, log: log) {
                        // Answered before a byte of its request is read; it never reaches the
                        // judge, so it can neither end nor disturb the wait.
                        log(refusal.log)
                        startWriting(&connection, refusal.response)
                    }
                    // A new connection is worth a read attempt now: browsers send at once.
                    if service(&connection, now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log) {
                        connection.descriptor.close()
                    } else {
                        connections.append(connection)
                    }
                    if verdict != nil && finishBy == nil {
                        finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1))
                        stopListening()
                    }
                    enforceLimits(on: &connections, newest: serial)
                }
            }
        }
    }

    /// Keeps at most ``LoopbackConfiguration/maxConnections`` connections that are still
    /// sending their request, and ``LoopbackConfiguration/maxAnsweredConnections`` answered
    /// ones, by closing the oldest of each kind: never the newest connection (it may be the
    /// browser's), never one whose page is a promise (an accepted callback).
    func enforceLimits(on connections: inout [Connection], newest: Int) {
        for answered in [false, true] {
            let limit = answered ? configuration.maxAnsweredConnections : configuration.maxConnections
            var count = connections.reduce(0) { $0 + ($1.isAnswered == answered ? 1 : 0) }
            while count > limit {
                guard
                    let oldest = connections.indices.filter({
                        connections[$0].isAnswered == answered && !connections[$0].isFinal && connections[$0].serial != newest
                    }).min(by: { connections[$0].serial < connections[$1].serial })
                else { break }
                connections[oldest].descriptor.close()
                connections.remove(at: oldest)
                count -= 1
            }
        }
    }

    /// On Linux, unless ``LoopbackConfiguration/allowOtherUsers``: the 403 for a connection
    /// whose socket belongs to another user than ours, or whose owner cannot be found (fail
    /// closed). Where only the kernel's tables can be read and they are too long to read,
    /// nobody can be told apart: the connection goes on, with a warning (see
    /// ``LoopbackPeerOwner/Finding/tablesTooLarge``).
    func otherUserRefusal(
        _ fd: Int32, lookup: inout LoopbackPeerOwner.Lookup, log: (String) -> Void
    ) -> (response: LoopbackResponse, log: String)? {
        #if os(Linux)
        guard !configuration.allowOtherUsers else { return nil }
        var owner: UInt32?
        switch lookup.owner(ofConnection: fd) {
        case .user(let uid): owner = uid
        case .unknown: owner = nil
        case .tablesTooLarge:
            if !lookup.warned { log(LoopbackPeerOwner.tablesTooLargeWarning) }
            lookup.warned = true
            return nil
        }
        let me = configuration.acceptedUser ?? UserIdentity.effective
        if owner == me { return nil }
        let who = owner.map { "user id \($0)" } ?? "a process whose user could not be determined"
        return (
            .refusal(
                .forbidden,
                "This sign-in receiver answers only the user who started it. This connection comes from another user of this computer (or one that could not be identified), so it was refused before its request was read. If your browser runs as another user on purpose, start the sign-in with the option that allows other users (callback-router: --allow-other-users; the library: allowOtherUsers)."
            ),
            "answered 403 to a connection from \(who), not this user (\(me)), before reading its request; still waiting"
        )
        #else
        return nil
        #endif
    }

    /// Moves one connection forward. Returns true when it is finished and must be closed.
    func service(
        _ connection: inout Connection, now: ContinuousClock.Instant, judge: LoopbackJudge,
        verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> Bool {
        switch connection.phase {
        case .readingBody(let head, let headLength, let bodyLength):
            let room = headLength + bodyLength - connection.buffer.count
            if room > 0 {
                switch NonBlockingIO.read(connection.fd, into: &connection.buffer, limit: min(room, 4096)) {
                case .closed: return true
                case .wouldBlock: return false
                case .transferred: break
                }
            }
            guard connection.buffer.count >= headLength + bodyLength else { return false }
            let body = Array(connection.buffer[headLength ..< headLength + bodyLength])
            startWriting(
                &connection,
                respond(
                    to: head, body: body, connection: &connection, judge: judge, verdict: &verdict,
                    ignored: &ignored, log: log))
            return serviceWrite(&connection, now: now)
        case .reading(var scanner):
            let room = configuration.maxHeadBytes + 1 - connection.buffer.count
            switch NonBlockingIO.read(connection.fd, into: &connection.buffer, limit: min(room, 4096)) {
            case .closed: return true
            case .wouldBlock: return false
            case .transferred: break
            }
            let state = scanner.scan(connection.buffer)
            connection.phase = .reading(scanner)
            switch state {
            case .incomplete:
                return false
            case .refused(let status):
                log("answered \(status.code) to a malformed or oversized request")
                startWriting(&connection, LoopbackResponse.refusal(status, status.reason + "."))
            case .complete(let length):
                let response: LoopbackResponse
                switch HTTPRequestHead.parse(connection.buffer[..<length]) {
                case .failure(let status):
                    log("answered \(status.code) to a malformed request")
                    response = .refusal(status, status.reason + ".")
                case .success where verdict != nil:
                    // Two callbacks in one round: only the first one ends the wait, and
                    // the page must not tell the second one it succeeded.
                    log("answered 410 to a request that arrived after the wait ended")
                    response = .refusal(.gone, "This sign-in has already finished.")
                case .success(let head):
                    switch bodyPlan(head) {
                    case .none:
                        response = respond(
                            to: head, body: nil, connection: &connection, judge: judge, verdict: &verdict,
                            ignored: &ignored, log: log)
                    case .refuse(let status, let line):
                        log(line)
                        response = .refusal(
                            status, status == .contentTooLarge ? "The form is larger than this receiver accepts." : status.reason + ".")
                    case .read(let bodyLength):
                        connection.phase = .readingBody(head, headLength: length, bodyLength: bodyLength)
                        // The body may be in the buffer already.
                        return service(&connection, now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log)
                    }
                }
                startWriting(&connection, response)
            }
            return serviceWrite(&connection, now: now)
        case .writing:
            return serviceWrite(&connection, now: now)
        case .draining:
            var discard: [UInt8] = []
            while true {
                discard.removeAll(keepingCapacity: true)
                switch NonBlockingIO.read(connection.fd, into: &discard, limit: 4096) {
                case .closed: return true
                case .wouldBlock: return false
                case .transferred: continue
                }
            }
        }
    }

    func respond(
        to head: HTTPRequestHead, body: [UInt8]?, connection: inout Connection, judge: LoopbackJudge,
        verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> LoopbackResponse {
        if verdict != nil {
            log("answered 410 to a request that arrived after the wait ended")
            return .refusal(.gone, "This sign-in has already finished.")
        }
        let decision = decide(head, body: body, judge: judge)
        if verdict == nil, let ending = decision.verdict {
            verdict = ending
            connection.isFinal = true
        }
        if decision.accepted { connection.isFinal = true }
        if decision.ignoredReason != nil { ignored += 1 }
        if let line = decision.log { log(line) }
        return decision.response
    }

    func startWriting(_ connection: inout Connection, _ response: LoopbackResponse) {
        connection.buffer = []
        connection.phase = .writing(response.bytes(configuration.pages), sent: 0)
    }

    func serviceWrite(_ connection: inout Connection, now: ContinuousClock.Instant) -> Bool {
        guard case .writing(let bytes, var sent) = connection.phase else { return false }
        while sent < bytes.count {
            switch NonBlockingIO.write(connection.fd, bytes, from: sent) {
            case .closed: return true
            case .wouldBlock:
                connection.phase = .writing(bytes, sent: sent)
                return false
            case .transferred(let count): sent += count
            }
        }
        // Half-close and read until the peer closes: closing with unread bytes would send
        // a reset that can destroy the answer before the browser reads it.
        connection.descriptor.shutdownWriting()
        connection.phase = .draining
        connection.deadline = min(connection.deadline, now.advanced(by: configuration.lingerTimeout))
        return false
    }

    /// Milliseconds from `now` to `instant`, rounded up, for `poll`.
    static func milliseconds(until instant: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int32 {
        guard instant > now else { return 0 }
        let (seconds, attoseconds) = now.duration(to: instant).components
        // A deadline years away (a caller's "forever") must not overflow: poll again later.
        guard seconds < Int64(Int32.max / 1000) else { return Int32.max }
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}
