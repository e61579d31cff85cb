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

/// One TCP socket looked up by its exact address pair in the kernel's socket-diagnostics
/// netlink interface (Linux `NETLINK_SOCK_DIAG`, what `ss` asks), so that finding the owner
/// of a connection costs one hash lookup in the kernel, however many sockets the machine
/// (or another user) holds.
///
/// The request is `SOCK_DIAG_BY_FAMILY` with an `inet_diag_req_v2` naming the socket
/// (`linux/inet_diag.h`); the answer is one `inet_diag_msg` whose `idiag_uid` is the
/// socket's owner, or an `NLMSG_ERROR` (`ENOENT`: no such socket). The C headers for these
/// (`linux/netlink.h`, `linux/sock_diag.h`, `linux/inet_diag.h`) are not part of the Glibc
/// module Swift imports, so their layouts are written out here; they are kernel ABI.
package enum SocketDiagnostics {
    /// What the kernel said about a socket.
    package enum Answer: Equatable, Sendable {
        /// The socket exists: its TCP state (`1` is `ESTABLISHED`) and its owner's uid.
        case found(state: UInt8, uid: UInt32)
        /// The kernel answered that no such socket exists (`ENOENT`).
        case notFound
        /// This system does not answer (no netlink or no socket diagnostics, a sandbox that
        /// refuses them): the errno. Another way to find the owner is needed.
        case unavailable(Int32)
        /// The question was asked but no usable answer came in time (a timeout, an error,
        /// a reply that does not parse): the errno, `EPROTO` for a reply that makes no sense.
        case unanswered(Int32)
    }

    /// `TCP_ESTABLISHED` in the kernel's `tcp_states.h`.
    package static let established: UInt8 = 1

    /// The TCP socket whose local end is `source`:`sourcePort` and whose remote end is
    /// `destination`:`destinationPort`. Addresses are 16 bytes (IPv6, IPv4 as IPv4-mapped
    /// `::ffff:a.b.c.d`) in network order; a pair of mapped addresses is asked as IPv4, which
    /// finds an IPv4 socket and an IPv6 socket connected over IPv4 alike.
    /// `states` is the `idiag_states` bit mask (`1 << state`). Waits at most `timeout`
    /// milliseconds for the answer.
    package static func lookUpTCPSocket(
        source: [UInt8], sourcePort: UInt16, destination: [UInt8], destinationPort: UInt16,
        states: UInt32 = 1 << 1, timeoutMilliseconds: Int = 500
    ) -> Answer {
        #if os(Linux)
        guard source.count == 16, destination.count == 16 else { return .unanswered(EINVAL) }
        let request = Request(
            source: source, sourcePort: sourcePort, destination: destination, destinationPort: destinationPort,
            states: states, sequence: UInt32.random(in: 1 ... UInt32.max))
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag)
        guard fd >= 0 else {
            // Out of descriptors or memory is "not now": that connection is refused, the next asks again.
            let code = errno
            return refusals.contains(code) ? .unavailable(code) : .unanswered(code)
        }
        let descriptor = Descriptor(fd)
        defer { descriptor.close() }
        var wait = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            return .unanswered(errno)
        }
        let message = request.bytes
        // An unbound netlink socket sends to the kernel (port id 0).
        let sent = message.withUnsafeBytes { buffer in retryingOnInterrupt { send(fd, buffer.baseAddress, buffer.count, 0) } }
        guard sent == message.count else {
            let code = sent < 0 ? errno : EPROTO
            return refusals.contains(code) ? .unavailable(code) : .unanswered(code)
        }
        // Each receive waits at most the timeout (SO_RCVTIMEO); a signal or a datagram that
        // is not the answer goes round again until the deadline, so the whole wait is bounded.
        let deadline = Deadline.after(milliseconds: Int64(timeoutMilliseconds))
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            var sender = [UInt8](repeating: 0, count: socketAddressLength)
            var senderLength = socklen_t(socketAddressLength)
            let count = buffer.withUnsafeMutableBytes { bytes in
                sender.withUnsafeMutableBytes { address in
                    recvfrom(
                        fd, bytes.baseAddress, bytes.count, Int32(MSG_TRUNC), address.baseAddress?.assumingMemoryBound(to: sockaddr.self),
                        &senderLength)
                }
            }
            if count < 0 && errno != EINTR { return .unanswered(errno) }
            // Only the kernel (port id 0) speaks for the kernel; a reply cut short is no reply.
            if count > 0, count <= buffer.count, Int(senderLength) >= 8, sender[4 ..< 8].allSatisfy({ $0 == 0 }),
                let answer = request.answer(in: buffer[..<count])
            {
                return answer
            }
            if deadline.hasPassed { return .unanswered(EAGAIN) }
        }
        #else
        return .unavailable(EPROTONOSUPPORT)
        #endif
    }

    #if os(Linux)
    /// `NETLINK_SOCK_DIAG` (`linux/netlink.h`).
    static let netlinkSockDiag: Int32 = 4
    /// `sizeof(struct sockaddr_nl)`: family, padding, port id, groups.
    static let socketAddressLength = 12
    /// The errors that say "not here" rather than "not now": the fallback is then needed.
    static let refusals: Set<Int32> = [EPERM, EACCES, EPROTONOSUPPORT, EAFNOSUPPORT, EOPNOTSUPP, ENOSYS, ECONNREFUSED]

    /// A `SOCK_DIAG_BY_FAMILY` request for one TCP socket, and the reading of its answer.
    struct Request {
        static let sockDiagByFamily: UInt16 = 20
        static let errorMessage: UInt16 = 2
        static let doneMessage: UInt16 = 3
        static let headerLength = 16
        /// `struct inet_diag_msg`: family, state, timer, retransmits, the socket id (48
        /// bytes), expires, rqueue, wqueue, uid, inode.
        static let diagMessageLength = 72

        let family: UInt8
        let id: [UInt8]
        let states: UInt32
        let sequence: UInt32

        init(source: [UInt8], sourcePort: UInt16, destination: [UInt8], destinationPort: UInt16, states: UInt32, sequence: UInt32) {
            let mapped = source[..<12].elementsEqual(Self.mappedPrefix) && destination[..<12].elementsEqual(Self.mappedPrefix)
            family = UInt8(mapped ? AF_INET : AF_INET6)
            id = Self.socketID(
                source: mapped ? Array(source[12...]) : source, sourcePort: sourcePort,
                destination: mapped ? Array(destination[12...]) : destination, destinationPort: destinationPort)
            self.states = states
            self.sequence = sequence
        }

        static let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]

        /// `struct inet_diag_sockid`: ports and addresses in network order (an IPv4 address
        /// in the first word), the interface (0: any), the cookie (`INET_DIAG_NOCOOKIE`).
        static func socketID(source: [UInt8], sourcePort: UInt16, destination: [UInt8], destinationPort: UInt16) -> [UInt8] {
            var id: [UInt8] = []
            id += [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF)]
            id += source + [UInt8](repeating: 0, count: 16 - source.count)
            id += destination + [UInt8](repeating: 0, count: 16 - destination.count)
            id += [0, 0, 0, 0]
            id += [UInt8](repeating: 0xFF, count: 8)
            return id
        }

        /// `nlmsghdr` (length, type, flags: `NLM_F_REQUEST`, sequence, port id 0), then
        /// `inet_diag_req_v2` (family, protocol, extensions 0, padding, states, id).
        var bytes: [UInt8] {
            var body: [UInt8] = [family, UInt8(IPPROTO_TCP), 0, 0]
            body += Self.native(states)
            body += id
            var message = Self.native(UInt32(Self.headerLength + body.count))
            message += Self.native(Self.sockDiagByFamily) + Self.native(UInt16(1))
            message += Self.native(sequence) + Self.native(UInt32(0))
            return message + body
        }

        /// The answer among the netlink messages of one datagram; nil when none of them is
        /// the answer to this request (another sequence number, another type).
        func answer(in datagram: ArraySlice<UInt8>) -> Answer? {
            var start = datagram.startIndex
            while datagram.endIndex - start >= Self.headerLength {
                let length = Int(Self.read(UInt32.self, datagram, start))
                guard length >= Self.headerLength, length <= datagram.endIndex - start else { return .unanswered(EPROTO) }
                let type = Self.read(UInt16.self, datagram, start + 4)
                let message = datagram[start ..< start + length]
                start += (length + 3) & ~3
                guard Self.read(UInt32.self, message, message.startIndex + 8) == sequence else { continue }
                switch type {
                case Self.errorMessage:
                    guard message.count >= Self.headerLength + 4 else { return .unanswered(EPROTO) }
                    let code = -Int32(bitPattern: Self.read(UInt32.self, message, message.startIndex + Self.headerLength))
                    if code == 0 { continue } // an acknowledgement, not asked for
                    if code == ENOENT { return .notFound }
                    return refusals.contains(code) ? .unavailable(code) : .unanswered(code)
                case Self.doneMessage:
                    return .notFound
                case Self.sockDiagByFamily:
                    return record(message[(message.startIndex + Self.headerLength)...])
                default:
                    continue
                }
            }
            return nil
        }

        /// An `inet_diag_msg` for exactly the socket asked about: anything else is no answer
        /// to trust. A socket that connected over IPv4 from an IPv6 socket comes back as
        /// IPv6 with mapped addresses.
        func record(_ body: ArraySlice<UInt8>) -> Answer {
            guard body.count >= Self.diagMessageLength else { return .unanswered(EPROTO) }
            let base = body.startIndex
            let answeredFamily = body[base]
            let answeredID = Array(body[(base + 4) ..< (base + 40)])
            let asked = Array(id[..<36])
            let same: Bool
            if answeredFamily == family {
                same = answeredID == asked
            } else if family == UInt8(AF_INET), answeredFamily == UInt8(AF_INET6) {
                let ports = Array(asked[0 ..< 4])
                let source = Self.mappedPrefix + asked[4 ..< 8], destination = Self.mappedPrefix + asked[20 ..< 24]
                same = answeredID == ports + source + destination
            } else {
                same = false
            }
            guard same else { return .unanswered(EPROTO) }
            return .found(state: body[base + 1], uid: Self.read(UInt32.self, body, base + 64))
        }

        static func native<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
            withUnsafeBytes(of: value) { Array($0) }
        }

        static func read<Integer: FixedWidthInteger>(_: Integer.Type, _ bytes: ArraySlice<UInt8>, _ offset: Int) -> Integer {
            var value = Integer.zero
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset ..< offset + MemoryLayout<Integer>.size]) }
            return value
        }
    }
    #endif
}
