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

/// The browser's connection of an accepted callback whose answer waits for the app
/// (LoopbackReceiver/Configuration/answerHold): served on its own thread after the wait
/// has returned, until finish(_:) says how the sign-in ended or the hold runs out; then
/// it sends the page (signed in, failed, or "finishing in the terminal"), lingers until the
/// browser closes (bounded) and closes the connection.
///
/// `@unchecked Sendable`: the connection and the pipes' read ends are used only by the
/// serving thread (or, if none could start, by the loop that made it, before anyone else
/// sees it); other threads only set the ending, signal the wake-up pipe and poll the
/// answered pipe.
final class LoopbackHeldAnswer: @unchecked Sendable {
    private let connection: Descriptor
    /// The page for a finished sign-in: the accepted page, or the 303 to the success URL.
    private let signedIn: LoopbackResponse
    private let failureURL: String?
    private let pages: LoopbackPages
    /// When the hold runs out and the page says the sign-in finishes in the terminal (or app).
    let holdUntil: ContinuousClock.Instant
    private let writeTimeout: Duration
    private let linger: Duration
    private let wakeup: (read: Descriptor, write: Descriptor)
    /// Readable once the page is sent and the connection closed.
    private let answered: (read: Descriptor, write: Descriptor)
    private let ending = Locked<LoopbackSignInEnding?>(nil)

    /// Takes over `descriptor` (the loop must no longer use it) once both pipes exist.
    init(
        descriptor: Descriptor, signedIn: LoopbackResponse, configuration: LoopbackConfiguration, hold: Duration,
        now: ContinuousClock.Instant
    ) throws(SystemError) {
        wakeup = try NonBlockingIO.makeWakeupPipe()
        answered = try NonBlockingIO.makeWakeupPipe()
        connection = Descriptor(descriptor.release())
        self.signedIn = signedIn
        failureURL = configuration.failureURL
        pages = configuration.pages
        holdUntil = now.advanced(by: hold)
        writeTimeout = configuration.connectionTimeout
        linger = configuration.lingerTimeout
    }

    /// Serves the held answer on its own thread; where none can start, answers at once
    /// (the page then says the sign-in finishes in the terminal or the app).
    func start() {
        if !DetachedThread.start({ self.serve() }) { answer(with: nil) }
    }

    /// Records how the sign-in ended (the first call wins) and waits until the page is sent
    /// and the browser closed, at most until the hold, the write and the linger time pass.
    func finish(_ ending: LoopbackSignInEnding) {
        self.ending.withLock { if $0 == nil { $0 = ending } }
        NonBlockingIO.signal(wakeup.write)
        let clock = ContinuousClock()
        let bound = max(clock.now, holdUntil).advanced(by: writeTimeout + linger + .seconds(1))
        waitReadable(answered.read.rawValue, until: bound)
    }

    private func serve() {
        waitReadable(wakeup.read.rawValue, until: holdUntil) { self.ending.withLock { $0 } != nil }
        answer(with: ending.withLock { $0 })
    }

    /// The page for `ending` (nil: the hold ran out), sent in full, then the connection closed.
    private func answer(with ending: LoopbackSignInEnding?) {
        send(response(for: ending).bytes(pages))
        connection.close()
        NonBlockingIO.signal(answered.write)
    }

    func response(for ending: LoopbackSignInEnding?) -> LoopbackResponse {
        switch ending {
        case .signedIn?:
            return signedIn
        case .failed(let sentence)?:
            return failureURL.map { .redirect(.seeOther, to: $0) }
                ?? LoopbackResponse(status: .ok, page: .notSignedIn(sentence: LoopbackPageContent.displayableDescription(sentence)))
        case nil:
            return LoopbackResponse(status: .ok, page: .finishing)
        }
    }

    /// Writes `bytes` (within the write timeout), half-closes, and reads until the browser
    /// closes or the linger time passes: closing with unread bytes could reset the page away.
    private func send(_ bytes: [UInt8]) {
        let clock = ContinuousClock()
        let writeBy = clock.now.advanced(by: writeTimeout)
        var sent = 0
        writing: while sent < bytes.count {
            switch NonBlockingIO.write(connection.rawValue, bytes, from: sent) {
            case .closed: return
            case .transferred(let count): sent += count
            case .wouldBlock:
                var fds = [PollEntry(writable: connection.rawValue)]
                let now = clock.now
                guard now < writeBy else { return }
                if case .ready(0) = Readiness.wait(&fds, timeoutMilliseconds: LoopbackServer.milliseconds(until: writeBy, now: now)) {
                    break writing
                }
            }
        }
        guard sent == bytes.count else { return }
        connection.shutdownWriting()
        let lingerUntil = clock.now.advanced(by: linger)
        var discard: [UInt8] = []
        while clock.now < lingerUntil {
            discard.removeAll(keepingCapacity: true)
            switch NonBlockingIO.read(connection.rawValue, into: &discard, limit: 4096) {
            case .closed: return
            case .transferred: continue
            case .wouldBlock: waitReadable(connection.rawValue, until: lingerUntil)
            }
        }
    }

    /// Polls `fd` until it is readable, `done` holds, or `deadline` passes.
    private func waitReadable(_ fd: Int32, until deadline: ContinuousClock.Instant, done: () -> Bool = { false }) {
        let clock = ContinuousClock()
        while !done() {
            let now = clock.now
            guard now < deadline else { return }
            var fds = [PollEntry(readable: fd)]
            if case .ready(let ready) = Readiness.wait(&fds, timeoutMilliseconds: LoopbackServer.milliseconds(until: deadline, now: now)),
                ready > 0, fds[0].isReady
            {
                return
            }
        }
    }
}
