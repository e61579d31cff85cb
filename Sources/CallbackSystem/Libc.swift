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

// The package's one libc preamble (swift-system keeps its own in Internals/Exports.swift and
// Internals/Syscalls.swift). The C library is not re-exported: modules above this one call
// the `package` wrappers of this module, never a C function (ArchitectureTests and
// LibcBoundaryTests check it), and what differs between Glibc and Darwin lives here, once.

/// C functions whose names Swift types in this package also use as methods (`close`, `read`,
/// `listen`…): inside such a type the bare name means the method, so the C call goes by these.
package func systemClose(_ fd: Int32) -> Int32 { close(fd) }
package func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
package func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
package func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
package func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
package func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
package func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    send(fd, buffer, count, noSignalFlag)
}
package func systemPoll(_ entries: inout [pollfd], _ timeoutMilliseconds: Int32) -> Int32 {
    poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
}
package func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// Calls `body` with `address` (a `sockaddr_in`, `sockaddr_in6`, `sockaddr_un`) as the
/// `sockaddr` pointer and length that `bind` and `connect` take.
package func withSocketAddress<Address, Result>(
    _ address: Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result {
    withUnsafePointer(to: address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
    }
}

#if canImport(Glibc)
/// `SOCK_STREAM` as an `Int32` (an enum in glibc's headers): a plain blocking stream socket.
package let plainStreamSocketType = Int32(SOCK_STREAM.rawValue)
/// Close-on-exec and non-blocking come with the socket.
package let streamSocketType = plainStreamSocketType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
/// A peer that went away must not raise SIGPIPE.
package let noSignalFlag = Int32(MSG_NOSIGNAL)
/// Nothing to do on Linux: `streamSocketType` already asked for it.
package func configureNewSocket(_ fd: Int32) -> Bool { true }
#elseif canImport(Darwin)
/// Darwin has no SOCK_CLOEXEC, SOCK_NONBLOCK or MSG_NOSIGNAL: configureNewSocket sets
/// FD_CLOEXEC, O_NONBLOCK and SO_NOSIGPIPE on each socket instead.
package let plainStreamSocketType = SOCK_STREAM
package let streamSocketType = SOCK_STREAM
package let noSignalFlag: Int32 = 0
package func configureNewSocket(_ fd: Int32) -> Bool {
    var one: Int32 = 1
    return setFlags(fd) && setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
}
#endif

/// Close-on-exec and non-blocking on a descriptor that was opened without them (an accepted
/// socket: accept4 is hidden behind _GNU_SOURCE; a pipe: so is pipe2).
package func setFlags(_ fd: Int32, nonBlocking: Bool = true) -> Bool {
    guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { return false }
    guard nonBlocking else { return true }
    let flags = fcntl(fd, F_GETFL)
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
}
