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
        /// Its answer is held for the app by a ``LoopbackHeldAnswer``, which owns the socket now.
        case handedOff
    }

    struct Connection {
        /// Closed at once where the loop drops the connection (and by its deinit otherwise).
        let descriptor: Descriptor
        var buffer: [UInt8] = []
        var phase: Phase
        var deadline: ContinuousClock.Instant
        let serial: Int
        var isFinal = false
        /// Its answer waits for the app (``LoopbackServer/Decision/held``).
        var holdsAnswer = false

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

    /// What one wait has seen so far: the loop's state, passed to each of its steps.
    struct Wait {
        let deadline: ContinuousClock.Instant
        var connections: [Connection] = []
        /// The serial number of the newest connection.
        var serial = 0
        /// The judgement that ended the wait, once one did.
        var verdict: LoopbackEvaluation?
        /// ``requestStop()`` was called.
        var stopped = false
        /// Once the wait is over: when to stop waiting for the final pages to be read.
        var finishBy: ContinuousClock.Instant?
        /// Requests that reached the callback path without ending the wait.
        var ignored = 0
        /// The paste descriptor while it is open.
        var paste: Int32?
        var pasteBuffer: [UInt8] = []
        /// The rest of a pasted line longer than the limit is skipped up to its newline.
        var discardingLongLine = false

        /// Whether new callbacks are still taken (nothing has ended the wait).
        var isTakingCallbacks: Bool { verdict == nil && !stopped }
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
        var wait = Wait(deadline: deadline ?? clock.now.advanced(by: configuration.timeout), paste: configuration.pasteDescriptor)
        defer {
            for connection in wait.connections { connection.descriptor.close() }
            stopListening()
        }

        while true {
            let before = clock.now
            if let outcome = closeExpiredConnections(&wait, now: before) { return outcome }

            // The wake-up pipe first, then the listener while it is open, then the connections.
            let pasting = wait.isTakingCallbacks ? wait.paste : nil
            var (fds, wake) = pollEntries(wait, pasting: pasting)
            // Interrupted, or failed (nothing sensible is left to wait on: the deadline decides).
            guard case .ready(let ready) = Readiness.wait(&fds, timeoutMilliseconds: Self.milliseconds(until: wake, now: before)),
                ready > 0
            else { continue }
            let now = clock.now

            if fds[0].isReady, !wait.stopped {
                stop(&wait, now: now)
                continue
            }
            // The descriptors after the pipe's and the listener's are the connections, in
            // order, as they were before this round's accepts.
            let listening = listeners
            let pasteIndex = 1 + listening.count
            let firstConnection = pasteIndex + (pasting == nil ? 0 : 1)
            if let pasting, fds[pasteIndex].isReady {
                readPastedLines(from: pasting, &wait, judge: judge, log: log)
                if wait.verdict != nil {
                    finishAfterVerdict(&wait, now: now)
                    continue
                }
            }
            serviceReadyConnections(&wait, ready: fds[firstConnection...].map(\.isReady), now: now, judge: judge, log: log)
            var peerLookup = LoopbackPeerOwner.Lookup()
            for (offset, listener) in listening.enumerated() where fds[1 + offset].isReady {
                acceptConnections(on: listener, &wait, lookup: &peerLookup, now: now, judge: judge, log: log)
            }
        }
    }

    /// Closes the connections whose deadline passed; the outcome when the wait is over: a
    /// verdict or a stop whose final pages are read (or out of time), or the deadline.
    func closeExpiredConnections(_ wait: inout Wait, now: ContinuousClock.Instant) -> LoopbackServerOutcome? {
        wait.connections.removeAll { connection in
            guard now >= connection.deadline else { return false }
            connection.descriptor.close()
            return true
        }
        if !wait.isTakingCallbacks {
            let finalPending = wait.connections.contains { $0.isFinal }
            if !finalPending || now >= (wait.finishBy ?? now) {
                if let verdict = wait.verdict { return .finished(verdict) }
                return .stopped(ignored: wait.ignored)
            }
        } else if now >= wait.deadline {
            return .timedOut(ignored: wait.ignored)
        }
        return nil
    }

    /// What to poll (the wake-up pipe, the listeners, `pasting`, the connections, in that
    /// order) and until when.
    func pollEntries(_ wait: Wait, pasting: Int32?) -> ([PollEntry], ContinuousClock.Instant) {
        var fds: [PollEntry] = [PollEntry(readable: wakeup.read.rawValue)]
        for listener in listeners { fds.append(PollEntry(readable: listener.rawValue)) }
        if let pasting { fds.append(PollEntry(readable: pasting)) }
        var wake = wait.isTakingCallbacks ? wait.deadline : (wait.finishBy ?? wait.deadline)
        for connection in wait.connections {
            switch connection.phase {
            case .reading, .readingBody, .draining, .handedOff: fds.append(PollEntry(readable: connection.fd))
            case .writing: fds.append(PollEntry(writable: connection.fd))
            }
            wake = min(wake, connection.deadline)
        }
        return (fds, wake)
    }

    /// ``requestStop()`` was called: no more connections; only the pages already promised
    /// (accepted callbacks) are still finished.
    func stop(_ wait: inout Wait, now: ContinuousClock.Instant) {
        wait.stopped = true
        if wait.finishBy == nil { wait.finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1)) }
        stopListening()
        wait.connections.removeAll { connection in
            if connection.isFinal { return false }
            connection.descriptor.close()
            return true
        }
    }

    /// A verdict ended the wait: the login is consumed, later requests find nobody
    /// listening, and the final pages get the linger time to be read.
    func finishAfterVerdict(_ wait: inout Wait, now: ContinuousClock.Instant) {
        if wait.finishBy == nil { wait.finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1)) }
        stopListening()
    }

    /// Connections that are ready are read first: a browser's request already sent is served
    /// before a flood of new connections can push it out. `ready[i]`: whether connection `i` is.
    func serviceReadyConnections(
        _ wait: inout Wait, ready: [Bool], now: ContinuousClock.Instant, judge: LoopbackJudge, log: (String) -> Void
    ) {
        var closed: [Int] = []
        for i in wait.connections.indices where ready[i] {
            if service(&wait.connections[i], now: now, judge: judge, verdict: &wait.verdict, ignored: &wait.ignored, log: log) {
                closed.append(i)
            }
            if wait.verdict != nil && wait.finishBy == nil { finishAfterVerdict(&wait, now: now) }
        }
        for i in closed.reversed() {
            wait.connections[i].descriptor.close()
            wait.connections.remove(at: i)
        }
    }

    /// Accepts what waits on `listener`, at most ``LoopbackReceiver/Configuration/maxConnections``
    /// at a time, refusing other users' connections and trying a first read at once.
    func acceptConnections(
        on listener: Descriptor, _ wait: inout Wait, lookup peerLookup: inout LoopbackPeerOwner.Lookup,
        now: ContinuousClock.Instant, judge: LoopbackJudge, log: (String) -> Void
    ) {
        for _ in 0 ..< configuration.maxConnections {
            // A callback served above (or just now) closed the listeners.
            guard !listeners.isEmpty, case .connection(let accepted) = LoopbackTCP.accept(listener.rawValue) else { break }
            wait.serial += 1
            var connection = Connection(
                descriptor: accepted, phase: .reading(HTTPHeadScanner(limit: configuration.maxHeadBytes)),
                deadline: now.advanced(by: configuration.connectionTimeout), serial: wait.serial)
            if let refusal = otherUserRefusal(accepted.rawValue, lookup: &peerLookup, log: log) {
                // Answered before a byte of its request is read; it never reaches the
                // judge, so it can neither end nor disturb the wait.
                log(refusal.log)
                startWriting(&connection, refusal.response)
            }
            // A new connection is worth a read attempt now: browsers send at once.
            if service(&connection, now: now, judge: judge, verdict: &wait.verdict, ignored: &wait.ignored, log: log) {
                connection.descriptor.close()
            } else {
                wait.connections.append(connection)
            }
            if wait.verdict != nil && wait.finishBy == nil { finishAfterVerdict(&wait, now: now) }
            enforceLimits(on: &wait.connections, newest: wait.serial)
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

    /// Moves one connection on by what it can do now (read its request head or body, write
    /// its answer, drain what the peer still sends); true when it is finished and must be closed.
    func service(
        _ connection: inout Connection, now: ContinuousClock.Instant, judge: LoopbackJudge,
        verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> Bool {
        switch connection.phase {
        case .readingBody(let head, let headLength, let bodyLength):
            return serviceBody(
                &connection, head: head, headLength: headLength, bodyLength: bodyLength, now: now, judge: judge, verdict: &verdict,
                ignored: &ignored, log: log)
        case .reading(let scanner):
            return serviceHead(&connection, scanner: scanner, now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log)
        case .writing:
            return serviceWrite(&connection, now: now)
        case .draining:
            return drain(&connection)
        case .handedOff:
            return true
        }
    }

    /// A form_post body: read until `bodyLength` bytes follow the head, then answered.
    private func serviceBody(
        _ connection: inout Connection, head: HTTPRequestHead, headLength: Int, bodyLength: Int, now: ContinuousClock.Instant,
        judge: LoopbackJudge, verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> Bool {
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
    }

    /// The request head: read and scanned until complete (or refused), then answered, or its
    /// body read first.
    private func serviceHead(
        _ connection: inout Connection, scanner: HTTPHeadScanner, now: ContinuousClock.Instant, judge: LoopbackJudge,
        verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> Bool {
        var scanner = scanner
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
    }

    /// After the answer: reads and discards until the peer closes (true) or has nothing now.
    private func drain(_ connection: inout Connection) -> Bool {
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
        if decision.held { connection.holdsAnswer = true }
        if decision.ignoredReason != nil { ignored += 1 }
        if let line = decision.log { log(line) }
        return decision.response
    }

    func startWriting(_ connection: inout Connection, _ response: LoopbackResponse) {
        connection.buffer = []
        if connection.holdsAnswer {
            if holdAnswer(of: connection, response) {
                connection.phase = .handedOff
                return
            }
            // Nothing can hold it: the page must not say more than is known yet.
            connection.phase = .writing(LoopbackResponse(status: .ok, page: .finishing).bytes(configuration.pages), sent: 0)
            return
        }
        connection.phase = .writing(response.bytes(configuration.pages), sent: 0)
    }

    func serviceWrite(_ connection: inout Connection, now: ContinuousClock.Instant) -> Bool {
        if case .handedOff = connection.phase { return true }
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

    /// Hands `connection` and its page for a finished sign-in to a ``LoopbackHeldAnswer``
    /// that waits for the app; false (the page then says the sign-in is still finishing)
    /// when one is already held or no pipe can be had.
    func holdAnswer(of connection: Connection, _ signedIn: LoopbackResponse) -> Bool {
        guard let hold = configuration.answerHold else { return false }
        let held: LoopbackHeldAnswer? = heldAnswer.withLock { slot in
            guard slot == nil,
                let held = try? LoopbackHeldAnswer(
                    descriptor: connection.descriptor, signedIn: signedIn, configuration: configuration, hold: hold,
                    now: ContinuousClock.now)
            else { return nil }
            slot = held
            return held
        }
        held?.start()
        return held != nil
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
