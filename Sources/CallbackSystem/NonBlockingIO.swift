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

/// Non-blocking reads and writes for an event loop (`poll`): each call moves what the
/// descriptor takes now and says whether to wait, go on, or give up.
package enum NonBlockingIO {
    package enum IOResult {
        case transferred(Int)
        case wouldBlock
        case closed
    }

    /// Reads what is available into `buffer`, at most `limit` bytes.
    package static func read(_ fd: Int32, into buffer: inout [UInt8], limit: Int) -> IOResult {
        guard limit > 0 else { return .transferred(0) }
        let oldCount = buffer.count
        var received = 0
        var failure: Int32 = 0
        buffer.append(contentsOf: repeatElement(0, count: limit))
        buffer.withUnsafeMutableBufferPointer { bytes in
            repeat {
                received = recv(fd, bytes.baseAddress! + oldCount, limit, 0)
                failure = received < 0 ? errno : 0
            } while received < 0 && failure == EINTR
        }
        buffer.removeLast(limit - max(received, 0))
        if received > 0 { return .transferred(received) }
        if received == 0 { return .closed }
        return failure == EAGAIN || failure == EWOULDBLOCK ? .wouldBlock : .closed
    }

    /// Writes as much of `bytes[offset...]` as the socket takes now. `MSG_NOSIGNAL`: a
    /// peer that went away must not kill the receiver with SIGPIPE.
    package static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> IOResult {
        guard offset < bytes.count else { return .transferred(0) }
        var sent = 0
        var failure: Int32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            repeat {
                sent = systemSend(fd, buffer.baseAddress! + offset, buffer.count - offset)
                failure = sent < 0 ? errno : 0
            } while sent < 0 && failure == EINTR
        }
        if sent >= 0 { return .transferred(sent) }
        return failure == EAGAIN || failure == EWOULDBLOCK ? .wouldBlock : .closed
    }

    /// A pipe whose read end the loop polls and whose write end ``signal(_:)`` writes to:
    /// both ends non-blocking and close-on-exec.
    package static func makeWakeupPipe() throws(SystemError) -> (read: Descriptor, write: Descriptor) {
        let pair = try Descriptor.makePipe()
        guard setFlags(pair.read.rawValue), setFlags(pair.write.rawValue) else { throw SystemError("pipe") }
        return pair
    }

    /// Writes one byte to a wake-up pipe. A full pipe already holds a wake-up: nothing lost.
    package static func signal(_ pipe: Descriptor) {
        var byte: UInt8 = 1
        while systemWrite(pipe.rawValue, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Reads what a terminal or pipe has now (after ``Readiness/poll(_:timeoutMilliseconds:)`` said so), at most `limit` bytes.
    package static func readAvailable(_ fd: Int32, into buffer: inout [UInt8], limit: Int) -> IOResult {
        var chunk = [UInt8](repeating: 0, count: limit)
        var count = 0
        repeat {
            count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, limit) }
        } while count < 0 && errno == EINTR
        if count > 0 {
            buffer += chunk[..<count]
            return .transferred(count)
        }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
    }
}
