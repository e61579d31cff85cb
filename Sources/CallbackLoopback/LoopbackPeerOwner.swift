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

/// Who owns the other end of a loopback connection: the peer's own socket is the one whose
/// local end is the peer's address and whose remote end is ours, and its owner is the peer's.
///
/// Asked first of the kernel's socket-diagnostics netlink interface (`SocketDiagnostics`: one
/// exact lookup, whatever the number of sockets on the machine). Where netlink is refused (a
/// sandbox), the kernel's tables (`/proc/net/tcp`, `/proc/net/tcp6`) are read instead, at most
/// ``tableByteLimit`` bytes each: another user decides how long those tables are, and past the
/// limit nobody can be told apart (``Finding/tablesTooLarge``).
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

    /// What a lookup found out about a connection's peer.
    enum Finding: Equatable {
        /// The peer's established socket belongs to this user id.
        case user(UInt32)
        /// No established socket of the peer was found, or no answer could be trusted: the
        /// connection is refused (fail closed).
        case unknown
        /// Netlink is refused here and the tables are longer than ``tableByteLimit`` (another
        /// user can make them so with sockets of their own): nobody can be told apart.
        /// Refusing would refuse the owner too, so the connection is let through to the
        /// protections that hold without a peer lookup (the one-time start link, the state),
        /// as on macOS, and a warning is logged.
        case tablesTooLarge
    }

    /// How much of each table the fallback reads: 1 MiB, about 7,000 IPv4 or 5,900 IPv6
    /// sockets (150 and 178 bytes a row), far more than a desktop holds. Reading that much
    /// took 17 ms (docs/performance.md), once per batch of accepted connections, however
    /// long another user makes the table.
    static let tableByteLimit = 1 << 20

    /// Logged (once per batch of connections) when a connection is let through because the
    /// tables were too long to read.
    static let tablesTooLargeWarning =
        "warning: the kernel's socket-diagnostics interface is refused here (or did not know this connection) and the socket tables (/proc/net/tcp) are longer than the receiver reads, so the user of a new connection could not be checked; it was let through, and only the one-time start link and the state protect this sign-in from other users now. Find who holds that many sockets (ss -tanp), or sign in where the receiver can check its peers."

    /// The lookups of one batch of accepted connections: netlink for each, the tables (read
    /// once per batch, again on a miss) only where netlink is refused.
    struct Lookup {
        /// False once netlink was refused (or cannot see TCP sockets): the tables then.
        var netlink = true
        /// Whether netlink was seen to find a TCP socket in this batch (a kernel without TCP
        /// diagnostics says `ENOENT` to every question, which must not refuse everyone).
        var netlinkSeesTCP = false
        var tables: Tables?
        var fallbackTables = Tables()
        /// Whether ``LoopbackPeerOwner/tablesTooLargeWarning`` was logged for this batch.
        var warned = false

        /// The owner of the socket at the other end of the accepted connection `fd`.
        mutating func owner(ofConnection fd: Int32) -> Finding {
            guard let (peer, local) = LoopbackPeerOwner.endpoints(of: fd) else { return .unknown }
            return owner(of: peer, connectedTo: local)
        }

        mutating func owner(of peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> Finding {
            if netlink {
                switch askNetlink(peer: peer, local: local) {
                case .answered(let finding): return finding
                case .refused: netlink = false
                case .notSure: break
                }
            }
            if tables != nil, let finding = tables?.owner(of: peer, connectedTo: local), finding != .unknown { return finding }
            // A connection newer than the copy: read again.
            var fresh = fallbackTables
            let finding = fresh.owner(of: peer, connectedTo: local)
            tables = fresh
            return finding
        }

        enum NetlinkAnswer {
            case answered(Finding)
            /// Netlink is refused here: the tables from now on.
            case refused
            /// "No such socket", and our own end of the connection is not found either (gone
            /// already, or a kernel that cannot see TCP sockets): the tables, this once.
            case notSure
        }

        mutating func askNetlink(peer: SocketEndpoint, local: SocketEndpoint) -> NetlinkAnswer {
            let answer = SocketDiagnostics.lookUpTCPSocket(
                source: peer.address, sourcePort: peer.port, destination: local.address, destinationPort: local.port)
            switch answer {
            case .found(let state, let uid):
                netlinkSeesTCP = true
                // A peer that closed its end already (FIN_WAIT, TIME_WAIT) is no one's.
                return .answered(state == SocketDiagnostics.established ? .user(uid) : .unknown)
            case .notFound:
                if netlinkSeesTCP { return .answered(.unknown) }
                // Our end of this connection exists while we hold it: if netlink finds it,
                // its "no such socket" for the peer's end is true.
                let ours = SocketDiagnostics.lookUpTCPSocket(
                    source: local.address, sourcePort: local.port, destination: peer.address, destinationPort: peer.port,
                    states: ~0)
                switch ours {
                case .found:
                    netlinkSeesTCP = true
                    return .answered(.unknown)
                case .unanswered: return .answered(.unknown)
                case .notFound, .unavailable: return .notSure
                }
            case .unavailable:
                return .refused
            case .unanswered:
                return .answered(.unknown)
            }
        }
    }

    /// One of the kernel's tables as read: its text, or too long to read (past ``tableByteLimit``).
    enum Table: Equatable {
        case rows([UInt8])
        case tooLarge
    }

    /// The kernel's tables as read once (per batch of accepted connections), each when
    /// first needed; an unreadable one is empty (then nobody is found: fail closed).
    struct Tables {
        var tcp: Table?
        var tcp6: Table?
        var paths = (tcp: "/proc/net/tcp", tcp6: "/proc/net/tcp6")
        var byteLimit = LoopbackPeerOwner.tableByteLimit

        /// The owner of the peer's socket. An IPv4 peer may have connected from an IPv6
        /// socket (`::ffff:127.0.0.1`): its row is then in `tcp6`, written mapped; an IPv6
        /// peer is only there. A table too long to read finds nobody, and says so.
        mutating func owner(of peer: SocketEndpoint, connectedTo local: SocketEndpoint) -> Finding {
            var cut = false
            if peer.kernelSpelling(words: 1) != nil {
                let finding = Self.search(&tcp, path: paths.tcp, limit: byteLimit, peer: peer, local: local)
                if case .user = finding { return finding }
                cut = finding == .tablesTooLarge
            }
            let finding = Self.search(&tcp6, path: paths.tcp6, limit: byteLimit, peer: peer, local: local)
            if case .user = finding { return finding }
            return cut || finding == .tablesTooLarge ? .tablesTooLarge : .unknown
        }

        /// One table, read when first needed.
        static func search(_ table: inout Table?, path: String, limit: Int, peer: SocketEndpoint, local: SocketEndpoint) -> Finding {
            if table == nil { table = LoopbackPeerOwner.readTable(path, limit: limit) }
            guard case .rows(let text) = table else { return .tablesTooLarge }
            return LoopbackPeerOwner.owner(of: peer, connectedTo: local, in: text).map { .user($0) } ?? .unknown
        }
    }

    /// The whole file, or `tooLarge` past `limit` bytes (read no further); an unreadable or
    /// missing file is empty.
    static func readTable(_ path: String, limit: Int) -> Table {
        do {
            return .rows(try FileSystem.readFile(path, limit: limit) ?? [])
        } catch {
            return error.code == SystemError.Code.tooLarge ? .tooLarge : .rows([])
        }
    }

    /// The two ends of an accepted connection: (the peer's, ours).
    static func endpoints(of fd: Int32) -> (peer: SocketEndpoint, local: SocketEndpoint)? {
        guard let peer = address(of: fd, peer: true), let local = address(of: fd, peer: false) else { return nil }
        return (peer, local)
    }

    private static func address(of fd: Int32, peer: Bool) -> SocketEndpoint? {
        LoopbackTCP.address(of: fd, peer: peer).map { SocketEndpoint(address: $0.address, port: $0.port) }
    }
}
