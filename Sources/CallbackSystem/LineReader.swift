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

/// Lines from a descriptor (stdin: a state, a verifier, a client secret), within a
/// deadline, read a byte at a time so that nothing after the line is consumed: the next
/// line is the next reader's.
package enum LineReader {
    /// One line as read: its bytes without the LF and without one CR before it, and whether
    /// the input ended instead of an LF ending the line (`bytes` may then be empty).
    package struct Line: Equatable {
        package var bytes: [UInt8]
        package var endedByEndOfInput: Bool

        package init(bytes: [UInt8], endedByEndOfInput: Bool) {
            self.bytes = bytes
            self.endedByEndOfInput = endedByEndOfInput
        }
    }

    /// Reads one line from `fd`, at most `maxBytes` bytes (not counting the CR LF), waiting
    /// until `deadline`. Throws `ETIMEDOUT` when the deadline passes first, `EFBIG` once the
    /// line is longer than `maxBytes`, and the system's error when `fd` cannot be read
    /// (`EBADF`…). A terminal works on Darwin too (``Readiness``).
    package static func readLine(from fd: Int32, maxBytes: Int, until deadline: Deadline) throws(SystemError) -> Line {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var entry = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let ready = Readiness.poll(&entry, timeoutMilliseconds: deadline.remainingMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw SystemError("poll")
            }
            if ready == 0 { throw SystemError("poll", code: ETIMEDOUT) }
            let count = withUnsafeMutablePointer(to: &byte) { systemRead(fd, $0, 1) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw SystemError("read")
            }
            if count == 0 || byte == 0x0A {
                if bytes.last == 0x0D { bytes.removeLast() }
                guard bytes.count <= maxBytes else { throw SystemError("read", code: EFBIG) }
                return Line(bytes: bytes, endedByEndOfInput: count == 0)
            }
            bytes.append(byte)
            // One byte more than the limit may still be the CR of a CR LF.
            if bytes.count > maxBytes + 1 || (bytes.count == maxBytes + 1 && byte != 0x0D) {
                throw SystemError("read", code: EFBIG)
            }
        }
    }
}
