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

/// Where a command writes. The executable writes through at once (a script may read the
/// loopback redirect URI before the command ends); tests collect into a buffer.
public protocol CommandOutput: AnyObject, Sendable {
    /// Writes `text` to standard output, as is (add the newline yourself).
    func writeOut(_ text: String)
    /// Writes `text` to standard error, as is (add the newline yourself).
    func writeErr(_ text: String)
}

/// Writes straight to file descriptors 1 and 2, unbuffered.
public final class StandardStreams: CommandOutput {
    /// Makes the writer; it holds nothing but the two descriptors' numbers.
    public init() {}
    /// Writes to file descriptor 1 at once, retrying short writes and `EINTR`.
    public func writeOut(_ text: String) { Self.write(text, to: 1) }
    /// Writes to file descriptor 2 at once, retrying short writes and `EINTR`.
    public func writeErr(_ text: String) { Self.write(text, to: 2) }

    /// A failed write (stdout closed early, a full disk) loses the text: there is nowhere
    /// left to say so.
    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in try? Descriptor.writeAll(UnsafeRawBufferPointer(buffer), to: fd) }
    }
}

/// Collects what a command writes, for in-process tests.
public final class CapturedOutput: CommandOutput {
    private let buffers = Locked<(out: String, err: String)>(("", ""))
    /// Makes an empty capture.
    public init() {}
    /// Everything written to standard output so far.
    public var stdout: String { buffers.withLock { $0.out } }
    /// Everything written to standard error so far.
    public var stderr: String { buffers.withLock { $0.err } }
    /// Appends to the captured standard output.
    public func writeOut(_ text: String) { buffers.withLock { $0.out += text } }
    /// Appends to the captured standard error.
    public func writeErr(_ text: String) { buffers.withLock { $0.err += text } }
}

#endif
