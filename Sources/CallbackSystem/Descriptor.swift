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

/// An open file descriptor, closed exactly once (by `close()` or when released).
package final class Descriptor {
    package private(set) var rawValue: Int32

    package init(_ rawValue: Int32) { self.rawValue = rawValue }

    deinit { close() }

    /// Gives up ownership: the caller closes the returned descriptor.
    package func release() -> Int32 {
        defer { rawValue = -1 }
        return rawValue
    }

    package func close() {
        if rawValue >= 0 {
            _ = systemClose(rawValue)
            rawValue = -1
        }
    }

    /// A pipe, both ends close-on-exec and blocking: a child gets an end only through the
    /// `dup2` of ``Subprocess/spawn(_:_:environment:standardOutput:standardInput:standardError:)``.
    /// (pipe2 is hidden behind _GNU_SOURCE.)
    package static func makePipe() throws(SystemError) -> (read: Descriptor, write: Descriptor) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemError("pipe") }
        let pair = (read: Descriptor(ends[0]), write: Descriptor(ends[1]))
        guard setFlags(ends[0], nonBlocking: false), setFlags(ends[1], nonBlocking: false) else { throw SystemError("fcntl") }
        return pair
    }

    /// Writes every byte, or throws.
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        try Descriptor.writeAll(bytes, to: rawValue)
    }

    /// Writes every byte of `buffer` to `fd`, a descriptor this process does not own (1, 2),
    /// retrying short writes and `EINTR`; throws on the first other failure.
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            let written = retryingOnInterrupt { systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset) }
            if written < 0 { throw SystemError("write") }
            offset += written
        }
    }

    /// Opens /dev/null on each of 0, 1 and 2 that is closed (`fcntl` says `EBADF`), lowest
    /// first so that `open` lands on it, and so that no descriptor opened later takes a
    /// standard stream's number; returns those numbers.
    /// Not close-on-exec: a child started later gets /dev/null there too, as it would
    /// have got the closed stream.
    package static func occupyClosedStandardDescriptors() -> [Int32] {
        var occupied: [Int32] = []
        for fd: Int32 in 0 ... 2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // Still reported without /dev/null (a bare chroot): writes to it then fail.
            occupied.append(fd)
            let null = retryingOnInterrupt { open("/dev/null", O_RDWR) }
            if null >= 0 && null != fd {
                _ = dup2(null, fd)
                _ = systemClose(null)
            }
        }
        return occupied
    }

    /// Runs `body` with SIGPIPE blocked in this thread, so that writing to a pipe whose
    /// reader is gone fails with `EPIPE` instead of killing the process; a SIGPIPE raised
    /// meanwhile is taken before the mask is restored.
    package static func withBrokenPipeSignalBlocked<T>(_ body: () -> T) -> T {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var signal: Int32 = 0
                sigwait(&blocked, &signal)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return body()
    }

    /// `writeAll(_:to:)` for an array's bytes.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { buffer -> SystemError? in
            do throws(SystemError) {
                try writeAll(buffer, to: fd)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Reads until end of file, refusing more than `limit` bytes.
    package func readAll(limit: Int) throws(SystemError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { systemRead(rawValue, buffer.baseAddress!, buffer.count) }
            }
            if count < 0 { throw SystemError("read") }
            if count == 0 { return result }
            if result.count + count > limit { throw SystemError("read", code: EFBIG) }
            result += chunk[..<count]
        }
    }

    /// `shutdown(SHUT_WR)` on a socket: the peer reads end of file, and this side can still
    /// read what the peer sends. Best effort: a peer already gone is not an error here.
    package func shutdownWriting() {
        _ = shutdown(rawValue, Int32(SHUT_WR))
    }

    /// Waits for an exclusive `flock`, held until the descriptor is closed.
    package func lockExclusively() throws(SystemError) {
        guard retryingOnInterrupt({ flock(rawValue, LOCK_EX) }) == 0 else { throw SystemError("flock") }
    }

    package func status() throws(SystemError) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw SystemError("fstat") }
        return FileStatus(info)
    }
}
