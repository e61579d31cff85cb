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

/// TCP listeners on a loopback address, for an event loop. Every descriptor is non-blocking
/// and close-on-exec: a browser the caller opens must not inherit it.
package enum LoopbackTCP {
    /// Binds `127.0.0.1` (`::1` when `ipv6`):`port` (0 = a port the kernel picks) and listens. Returns the
    /// descriptor and the port actually bound.
    ///
    /// `SO_REUSEADDR` is set: each answered request is closed by us first, which leaves its
    /// connection in TIME_WAIT for a minute, and a later run on the same fixed `--port`
    /// would fail with EADDRINUSE meanwhile. Linux lets the new bind through only when both
    /// the new socket and the one in TIME_WAIT (which inherits it from this listener) carry
    /// the option, so it is set on every listener, ephemeral ones included. On Linux it
    /// never lets two sockets listen on one port at once (that takes SO_REUSEPORT, which is
    /// never set), so it opens no door to a process that wants to squat our port.
    ///
    /// The backlog is large (1024; the kernel caps it at `somaxconn`): while a local flood
    /// keeps the loop busy, the kernel must not drop the browser's handshake (its client
    /// then believes it is connected and waits seconds for a retransmission). The loop's
    /// own limits, not the kernel's queue, decide which connection is closed.
    package static func listen(ipv6: Bool, port: Int, backlog: Int32 = 1024) throws(SystemError) -> (descriptor: Descriptor, port: Int) {
        let family = ipv6 ? AF_INET6 : AF_INET
        let fd = socket(family, streamSocketType, 0)
        guard fd >= 0 else { throw SystemError("socket") }
        let descriptor = Descriptor(fd) // closes the socket when a step below fails
        guard configureNewSocket(fd) else { throw SystemError("socket options") }

        var one: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SystemError("setsockopt(SO_REUSEADDR)")
        }

        let bound: Int32
        if !ipv6 {
            bound = withSocketAddress(Self.ipv4Address(port: port)) { bind(fd, $0, $1) }
        } else {
            // An IPv6-only socket: `::1` is not a dual-stack wildcard, but say so anyway.
            guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw SystemError("setsockopt(IPV6_V6ONLY)")
            }
            guard let address = Self.ipv6Address("::1", port: port) else { throw SystemError("inet_pton", code: EINVAL) }
            bound = withSocketAddress(address) { bind(fd, $0, $1) }
        }
        guard bound == 0 else { throw SystemError("bind") }
        guard systemListen(fd, backlog) == 0 else { throw SystemError("listen") }

        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SystemError("getsockname") }
        let networkPort: UInt16 = withUnsafePointer(to: &storage) { pointer in
            ipv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        return (descriptor, Int(UInt16(bigEndian: networkPort)))
    }

    /// `127.0.0.1`:`port`.
    package static func ipv4Address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// An IPv6 literal (`::1`, `::ffff:127.0.0.1`) and `port`; nil when it is no literal.
    package static func ipv6Address(_ literal: String, port: Int) -> sockaddr_in6? {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET6, literal, &address.sin6_addr) == 1 else { return nil }
        return address
    }

    /// One end of a connected TCP socket (`getpeername` for the peer's, `getsockname` for
    /// ours): the address in network order (4 bytes for IPv4, 16 for IPv6) and the port; nil
    /// when the system does not say or the socket is neither IPv4 nor IPv6.
    package static func address(of fd: Int32, peer: Bool) -> (address: [UInt8], port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer -> (address: [UInt8], port: UInt16)? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    let bytes = withUnsafeBytes(of: sin.pointee.sin_addr) { Array($0) }
                    return (bytes, UInt16(bigEndian: sin.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    let bytes = withUnsafeBytes(of: sin6.pointee.sin6_addr) { Array($0) }
                    return (bytes, UInt16(bigEndian: sin6.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
    }

    package enum AcceptResult {
        case connection(Descriptor)
        /// Nothing more is waiting (EAGAIN).
        case none
        /// A transient failure (the peer gave up, out of descriptors): try again later.
        case failed(Int32)
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec descriptor.
    package static func accept(_ listener: Int32) -> AcceptResult {
        while true {
            let fd = systemAccept(listener)
            if fd >= 0 {
                let accepted = Descriptor(fd)
                guard setFlags(fd), configureNewSocket(fd) else {
                    let failure = errno
                    accepted.close()
                    return .failed(failure)
                }
                return .connection(accepted)
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .none
            default: return .failed(errno)
            }
        }
    }
}
