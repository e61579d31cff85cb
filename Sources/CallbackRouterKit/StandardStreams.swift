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

/// Writes straight to file descriptors 1 and 2, unbuffered, and remembers the first write
/// to standard output that failed. A failed write to standard error (progress, warnings)
/// is dropped: there is nowhere left to say so, and it changes no exit code.
public final class StandardStreams: CommandOutput {
    private let out: Int32
    private let err: Int32
    private let closedAtStart: Set<Int32>
    private let lost = Locked<String?>(nil)

    /// The process's own streams, 1 and 2. `closedAtStart` are those of them that were
    /// closed when the process started (``StandardStreams/reserveClosedDescriptors()``
    /// put /dev/null there): a write to one of them is a failure, never a silent success.
    public convenience init(closedAtStart: Set<Int32> = []) {
        self.init(out: 1, err: 2, closedAtStart: closedAtStart)
    }

    /// Streams on other descriptors (tests: /dev/full, a pipe whose reader is gone).
    public init(out: Int32, err: Int32, closedAtStart: Set<Int32> = []) {
        self.out = out
        self.err = err
        self.closedAtStart = closedAtStart
    }

    /// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, so that no socket
    /// or file the command opens later takes that number (a socket on descriptor 1 would
    /// receive the JSON meant for stdout); returns the numbers that were closed. Call it
    /// first thing in `main`.
    public static func reserveClosedDescriptors() -> Set<Int32> {
        Set(Descriptor.occupyClosedStandardDescriptors())
    }

    /// Writes to standard output at once, retrying short writes and `EINTR`.
    public func writeOut(_ text: String) {
        if let failure = write(text, to: out) { lost.withLock { $0 = $0 ?? failure } }
    }

    /// Writes to standard error at once; a failure is dropped (see the type).
    public func writeErr(_ text: String) { _ = write(text, to: err) }

    public var lostStandardOutput: String? { lost.withLock { $0 } }

    /// Why `text` did not arrive whole, nil when it did. A reader that went away is `EPIPE`
    /// here, never a SIGPIPE that would end the process without a word.
    private func write(_ text: String, to fd: Int32) -> String? {
        if closedAtStart.contains(fd) { return "it was closed when the command started" }
        var text = text
        return text.withUTF8 { buffer in
            Descriptor.withBrokenPipeSignalBlocked {
                do throws(SystemError) {
                    try Descriptor.writeAll(UnsafeRawBufferPointer(buffer), to: fd)
                    return nil
                } catch {
                    return error.reason
                }
            }
        }
    }
}

#endif
