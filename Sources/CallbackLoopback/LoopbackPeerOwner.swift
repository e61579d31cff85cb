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

import CallbackSystem

/// One end of a TCP connection: an address (IPv4 as IPv4-mapped IPv6, `::ffff:a.b.c.d`, so
/// that a row of `/proc/net/tcp` and one of `tcp6` compare alike) and a port.
struct SocketEndpoint: Hashable, Sendable {
    /// 16 bytes in network order.
    var address: [UInt8]
    var port: UInt16

    /// The address and port as the kernel's table writes them (`0100007F:1F90` on a
    /// little-endian machine): `words` native-endian 32-bit words, 1 (IPv4, only for an
    /// IPv4-mapped address) or 4. Uppercase hex.
    func kernelSpelling(words: Int) -> [UInt8]? {
        let bytes: ArraySlice<UInt8>
        if words == 1 {
            guard address[..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) else { return nil }
            bytes = address[12...]
        } else {
            bytes = address[...]
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var word: UInt32 = 0
            withUnsafeMutableBytes(of: &word) { $0.copyBytes(from: bytes[start ..< start + 4]) }
            for shift in stride(from: 28, through: 0, by: -4) { text.append(digits[Int(word >> UInt32(shift) & 0xF)]) }
            start += 4
        }
        text.append(UInt8(ascii: ":"))
        for shift in stride(from: 12, through: 0, by: -4) { text.append(digits[Int(port >> UInt16(shift) & 0xF)]) }
        return text
    }

    init(address: [UInt8], port: UInt16) {
        precondition(address.count == 16 || address.count == 4, "an IPv4 or IPv6 address")
        self.address = address.count == 4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + address : address
        self.port = port
    }
}

/// Who owns the other end of a loopback connection, from the kernel's socket tables
/// (`/proc/net/tcp`, `/proc/net/tcp6`): the row whose local address is the peer's and whose
/// remote address is ours is the peer's own socket, and its `uid` column is its owner's.
///
/// A row is `sl local rem st tx:rx tr:when retrnsmt uid timeout inode …`, with addresses
/// written as the kernel holds them: each 32-bit word of the address as a native-endian
/// number in hex (IPv4: `0100007F` is 127.0.0.1 on a little-endian machine), the port as a
/// plain hex number (`1F90` is 8080).
enum LoopbackPeerOwner {
    /// `st` of an established connection. A peer that closed its end already (FIN_WAIT)
    /// may be shown as owned by root: such rows are not trusted, the lookup fails closed.
    static let established: UInt8 = 0x01

    /// The uid owning the established socket `peer` → `local` in `table` (the text of
    /// `/proc/net/tcp` or `tcp6`); nil when no row says so. Malformed rows are skipped.
    static func owner(of peer: SocketEndpoint, connectedTo local: SocketEndpoint, in table: [UInt8]) -> UInt32? {
        // A table lists every socket of the machine: find the rows that start with the
        // peer's address as the kernel spells it before parsing any row in full.
        let spellings = [peer.kernelSpelling(words: 1), peer.kernelSpelling(words: 4)].compactMap { $0 }
        var lineStart = 0
        while lineStart < table.count {
            let lineEnd = table[lineStart...].firstIndex(of: 0x0A) ?? table.endIndex
            defer { lineStart = lineEnd + 1 }
            guard spellings.contains(where: { secondField(of: table[lineStart ..< lineEnd], startsWith: $0) }) else { continue }
            let fields = table[lineStart ..< lineEnd].split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
            guard fields.count > 7, let from = endpoint(fields[1]), from == peer, let to = endpoint(fields[2]), to == local,
                let state = hexNumber(fields[3], digits: 2), UInt8(state) == established,
                let uid = decimal(fields[7])
            else { continue }
            return uid
        }
        return nil
    }

    /// Whether the row's second field (`local_address`) starts with `prefix`, hex digits
    /// compared in either case.
    private static func secondField(of line: ArraySlice<UInt8>, startsWith prefix: [UInt8]) -> Bool {
        var index = line.startIndex
        for field in 0 ..< 2 {
            while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            if field == 1 { break }
            while index < line.endIndex, line[index] != 0x20 && line[index] != 0x09 { index += 1 }
        }
        guard line.endIndex - index > prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where line[index + offset] | 0x20 != byte | 0x20 {
            return false
        }
        return true
    }

    /// `0100007F:1F90` (IPv4) or 32 hex digits and a port (IPv6).
    static func endpoint(_ text: ArraySlice<UInt8>) -> SocketEndpoint? {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let address = text[..<colon], port = text[(colon + 1)...]
        guard address.count == 8 || address.count == 32, let portNumber = hexNumber(port, digits: 4) else { return nil }
        var bytes: [UInt8] = []
        var start = address.startIndex
        while start < address.endIndex {
            guard let word = hexNumber(address[start ..< start + 8], digits: 8) else { return nil }
            // The word is the address's four bytes read as a native-endian number: its
            // bytes in memory are the address's bytes in network order.
            withUnsafeBytes(of: UInt32(word)) { bytes += $0 }
            start += 8
        }
        return SocketEndpoint(address: bytes, port: UInt16(portNumber))
    }

    /// Exactly `digits` hex digits (either case).
    static func hexNumber(_ text: ArraySlice<UInt8>, digits: Int) -> UInt64? {
        guard text.count == digits else { return nil }
        var value: UInt64 = 0
        for byte in text {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// 1 to 10 decimal digits that fit a uid.
    static func decimal(_ text: ArraySlice<UInt8>) -> UInt32? {
        guard (1 ... 10).contains(text.count) else { return nil }
        var value: UInt64 = 0
        for byte in text {
            guard (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return UInt32(exactly: value)
    }

    /// Whether the check can run here: Linux has the tables; elsewhere (macOS) no portable
    /// lookup exists and only the start link's secrecy protects the login.
    static var isAvailable: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }

    /// The kernel's tables as read once (per batch of accepted connections), each when
    /// first needed; an unreadable one is empty (then nobody is found: fail closed).
    struct Tables {
        var tcp: [UInt8]?
        var tcp6: [UInt8]?

        /// The owner of the peer's socket. An IPv4 peer may have connected from an IPv6
        /// socket (`::ffff:127.0.0.1`): its row is then in `tcp6`, written mapped; an IPv6
        /// peer is only there.
        mutating func owner(of peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> UInt32? {
            if peer.kernelSpelling(words: 1) != nil {
                if tcp == nil { tcp = readFile("/proc/net/tcp") }
                if let uid = LoopbackPeerOwner.owner(of: peer, connectedTo: local, in: tcp ?? []) { return uid }
            }
            if tcp6 == nil { tcp6 = readFile("/proc/net/tcp6") }
            return LoopbackPeerOwner.owner(of: peer, connectedTo: local, in: tcp6 ?? [])
        }
    }

    /// The whole file, or nothing; at most 64 MiB (a table that large is refused, not cut).
    static func readFile(_ path: String) -> [UInt8] {
        ((try? FileSystem.readFile(path, limit: 64 << 20)) ?? nil) ?? []
    }

    /// The two ends of an accepted connection: (the peer's, ours).
    static func endpoints(of fd: Int32) -> (peer: SocketEndpoint, local: SocketEndpoint)? {
        guard let peer = address(of: fd, peer: true), let local = address(of: fd, peer: false) else { return nil }
        return (peer, local)
    }

    private static func address(of fd: Int32, peer: Bool) -> SocketEndpoint? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer -> SocketEndpoint? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    let bytes = withUnsafeBytes(of: sin.pointee.sin_addr) { Array($0) }
                    return SocketEndpoint(address: bytes, port: UInt16(bigEndian: sin.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    let bytes = withUnsafeBytes(of: sin6.pointee.sin6_addr) { Array($0) }
                    return SocketEndpoint(address: bytes, port: UInt16(bigEndian: sin6.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
    }
}
