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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting until descriptors are ready: `poll`, except where `poll` cannot see a terminal.
///
/// On macOS (and the other Darwin systems) `poll` reports a terminal as invalid (`POLLNVAL`)
/// at once instead of waiting for a line, so a wait on the loopback socket and a pasted line
/// (`login --accept-paste`), or on a state typed at the terminal, would spin or fail there.
/// `select` does see terminals on Darwin; so on Darwin the terminals among the descriptors
/// are asked with `select` (without waiting) and the rest with `poll`, in slices of at most
/// ``terminalSliceMilliseconds``, until one is ready or the time is up. A pasted line is
/// then noticed within that slice, which a person cannot tell. Everywhere else this is
/// `poll` itself.
/// One descriptor of a ``Readiness/poll(_:timeoutMilliseconds:)`` (`struct pollfd`).
package typealias PollEntry = pollfd

extension PollEntry {
    /// Waits until `fd` can be read (or is at end of file).
    package init(readable fd: Int32) { self.init(fd: fd, events: Int16(POLLIN), revents: 0) }

    /// Waits until `fd` can be written.
    package init(writable fd: Int32) { self.init(fd: fd, events: Int16(POLLOUT), revents: 0) }

    /// Whether the last poll reported anything for this descriptor (readable, writable,
    /// closed or failed: the caller's next read or write says which).
    package var isReady: Bool { revents != 0 }
}

package enum Readiness {
    /// How long a Darwin wait that includes a terminal polls the other descriptors before it
    /// asks the terminal again.
    package static let terminalSliceMilliseconds: Int32 = 50

    /// Whether `poll` fails on terminals here (Darwin), so that they go to ``pollSelecting(_:timeoutMilliseconds:selecting:)``.
    /// The only line of this type that differs between the systems: the rest is compiled
    /// (and tested) on Linux too.
    package static let pollRefusesTerminals: Bool = {
        #if canImport(Darwin)
        return true
        #else
        return false
        #endif
    }()

    /// `poll(entries, timeoutMilliseconds)` (a negative timeout: no limit), with `poll`'s
    /// contract: the number of ready entries, 0 when the time is up, -1 with `errno` set
    /// (`EINTR`: a signal, ask again). Terminals work on Darwin too (the type's documentation).
    package static func poll(_ entries: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
        if pollRefusesTerminals {
            let terminals = entries.indices.filter { entries[$0].events == Int16(POLLIN) && isatty(entries[$0].fd) == 1 }
            if !terminals.isEmpty { return pollSelecting(&entries, timeoutMilliseconds: timeoutMilliseconds, selecting: terminals) }
        }
        return systemPoll(&entries, timeoutMilliseconds)
    }

    /// ``poll(_:timeoutMilliseconds:)`` until it is not interrupted by a signal or `deadline`
    /// passes; false when it failed otherwise or the time ran out before it was asked.
    @discardableResult
    package static func pollUninterrupted(_ entries: inout [PollEntry], until deadline: Deadline) -> Bool {
        while !deadline.hasPassed {
            let ready = poll(&entries, timeoutMilliseconds: deadline.remainingMilliseconds)
            if ready >= 0 { return true }
            if errno != EINTR { return false }
        }
        return false
    }

    /// The outcome of one ``wait(_:timeoutMilliseconds:)``.
    package enum WaitResult: Equatable {
        /// This many entries are ready (0: the time ran out).
        case ready(Int32)
        /// A signal arrived first: ask again.
        case interrupted
        /// `poll` failed otherwise (no memory, too many descriptors); the caller has slept
        /// `failurePauseMilliseconds` so that asking again does not spin.
        case failed
    }

    /// How long ``wait(_:timeoutMilliseconds:)`` sleeps after a failed `poll`.
    package static let failurePauseMilliseconds: Int32 = 10

    /// ``poll(_:timeoutMilliseconds:)``, its `-1` told apart: interrupted, or failed (and then
    /// a pause of ``failurePauseMilliseconds``, a `poll` on no descriptor, so that a loop
    /// that asks again does not spin while nothing can be waited on).
    package static func wait(_ entries: inout [PollEntry], timeoutMilliseconds: Int32) -> WaitResult {
        let ready = poll(&entries, timeoutMilliseconds: timeoutMilliseconds)
        if ready >= 0 { return .ready(ready) }
        if errno == EINTR { return .interrupted }
        var nothing: [PollEntry] = []
        _ = systemPoll(&nothing, failurePauseMilliseconds)
        return .failed
    }

    /// The Darwin terminal wait: the entries at `selecting` (each asking only `POLLIN`) are
    /// asked with `select`, the others with `poll` in slices; their `revents` are set as
    /// `poll` would set them (`POLLIN` for a readable selected one, `POLLNVAL` for one
    /// `select` refuses). Visible to the package so that Linux tests run it on pipes and
    /// pseudo-terminals.
    package static func pollSelecting(_ entries: inout [pollfd], timeoutMilliseconds: Int32, selecting: [Int]) -> Int32 {
        let deadline = timeoutMilliseconds < 0 ? nil : Deadline.after(milliseconds: Int64(timeoutMilliseconds))
        // poll skips an entry whose descriptor is negative (its revents 0): the selected ones.
        var others = entries
        for index in selecting { others[index].fd = -1 }
        for index in entries.indices { entries[index].revents = 0 }
        while true {
            var readable: [Int] = [], invalid: [Int] = []
            for index in selecting {
                switch isReadable(entries[index].fd) {
                case .some(true): readable.append(index)
                case .some(false): break
                case .none:
                    if errno == EINTR { return -1 }
                    // As poll reports a descriptor it cannot wait on: ready, POLLNVAL. The
                    // caller's read then fails and it stops reading there; the other
                    // descriptors are still waited on.
                    invalid.append(index)
                }
            }
            readable += invalid
            let slice = readable.isEmpty ? min(deadline?.remainingMilliseconds ?? Int32.max, terminalSliceMilliseconds) : 0
            for index in others.indices { others[index].revents = 0 }
            let polled = systemPoll(&others, slice)
            if polled < 0 { return -1 }
            for index in entries.indices where !selecting.contains(index) { entries[index].revents = others[index].revents }
            for index in readable { entries[index].revents = invalid.contains(index) ? Int16(POLLNVAL) : Int16(POLLIN) }
            let ready = polled + Int32(readable.count)
            if ready > 0 || (deadline?.hasPassed ?? false) { return ready }
        }
    }

    /// Whether `select` says `fd` can be read without blocking (end of input included), or
    /// nil with `errno` set (`EBADF`, `EINTR`; `EINVAL` for a descriptor past `FD_SETSIZE`).
    package static func isReadable(_ fd: Int32) -> Bool? {
        var set = fd_set()
        // FD_SET and FD_ISSET are macros Swift does not import. fd_set is an array of words
        // (Int32 on Darwin, Int on Linux), fd's bit at fd % bits-per-word of word fd / bits-per-word:
        // on a little-endian machine (every Darwin and Linux target here) that is bit fd % 8
        // of byte fd / 8, whatever the word size.
        guard fd >= 0, Int(fd) < MemoryLayout<fd_set>.size * 8 else {
            errno = fd < 0 ? EBADF : EINVAL
            return nil
        }
        let byte = Int(fd) / 8, bit = UInt8(1) << UInt8(fd % 8)
        withUnsafeMutableBytes(of: &set) { $0[byte] |= bit }
        var noWait = timeval()
        let result = select(fd + 1, &set, nil, nil, &noWait)
        if result < 0 { return nil }
        return withUnsafeBytes(of: &set) { $0[byte] & bit != 0 }
    }
}
