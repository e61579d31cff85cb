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

@testable import CallbackLoopback
import CallbackRouter
import CallbackSystem
import CallbackTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The reader of the kernel's socket tables, on fixed text as a little-endian Linux writes
/// it (`/proc/net/tcp`: each address word a native-endian hex number, ports plain hex).
@Suite struct LoopbackPeerOwnerParserTests {
    static let loopback4: [UInt8] = [127, 0, 0, 1]
    static let loopback6: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]

    static let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 61234 1 0000000000000000 100 0 0 10 0
           1: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 61236 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 61235 1 0000000000000000 20 4 30 10 -1
           3: 0100007F:D432 0100007F:1F90 04 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000000000000 20 4 30 10 -1
           4: 0100007F:D433 0100007G:1F90 01 00000000:00000000 00:00000000 00000000    42        0 61237 1 0000000000000000 20 4 30 10 -1
           5: 100007F:D434 0100007F:1F90 01 00000000:00000000 00:00000000 00000000    43        0 61238 1 0000000000000000 20 4 30 10 -1
           6: 0100007f:d435 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 61239 1 0000000000000000 20 4 30 10 -1

        """

    static let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 7001 1
           1: 00000000000000000000000001000000:A000 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 7002 1
           2: 0000000000000000FFFF00000100007F:B000 0000000000000000FFFF00000100007F:1F90 01 00000000:00000000 00:00000000 00000000   999        0 7003 1

        """

    static func owner(_ peerPort: UInt16, _ table: String, address: [UInt8] = loopback4) -> UInt32? {
        LoopbackPeerOwner.owner(
            of: SocketEndpoint(address: address, port: peerPort), connectedTo: SocketEndpoint(address: address, port: 8080),
            in: Array(table.utf8))
    }

    #if _endian(little)
    @Test func findsThePeersOwnSocketNotOursInTheOtherDirection() {
        // Row 1 is our end (uid 0, listed first); row 2 is the peer's.
        #expect(Self.owner(0xD431, Self.tcp) == 1000)
    }

    @Test func trustsOnlyAnEstablishedSocket() {
        // FIN_WAIT (04): a peer that closed already may be shown as root's.
        #expect(Self.owner(0xD432, Self.tcp) == nil)
    }

    @Test func skipsMalformedRowsAndReadsEitherCaseOfHex() {
        #expect(Self.owner(0xD433, Self.tcp) == nil, "a non-hex digit")
        #expect(Self.owner(0xD434, Self.tcp) == nil, "seven digits")
        #expect(Self.owner(0xD435, Self.tcp) == 65534, "lowercase hex")
        #expect(Self.owner(0x1F90, Self.tcp) == nil, "the listening socket is no peer")
    }

    @Test func readsIPv6AndIPv4MappedRows() {
        #expect(Self.owner(0xA000, Self.tcp6, address: Self.loopback6) == 65534)
        // An IPv4 peer that connected from an IPv6 socket is listed in tcp6, mapped.
        #expect(Self.owner(0xB000, Self.tcp6) == 999)
        var tables = LoopbackPeerOwner.Tables(tcp: .rows(Array(Self.tcp.utf8)), tcp6: .rows(Array(Self.tcp6.utf8)))
        let local = SocketEndpoint(address: Self.loopback4, port: 8080)
        #expect(tables.owner(of: SocketEndpoint(address: Self.loopback4, port: 0xB000), connectedTo: local) == .user(999))
        #expect(tables.owner(of: SocketEndpoint(address: Self.loopback4, port: 0xD431), connectedTo: local) == .user(1000))
        #expect(tables.owner(of: SocketEndpoint(address: Self.loopback4, port: 0xC000), connectedTo: local) == .unknown)
    }
    #endif

    @Test(arguments: ["", "0100007F", "0100007F:", "0100007F:1F9", "0100007F:1F900", ":1F90", "0100007F1F90", "0100007F:1F9G"])
    func refusesAMalformedEndpoint(_ text: String) {
        #expect(LoopbackPeerOwner.endpoint(Array(text.utf8)[...]) == nil)
    }

    @Test(arguments: ["", "-1", "4294967296", "12345678901", "1a"])
    func refusesAUidThatIsNoUid(_ text: String) {
        #expect(LoopbackPeerOwner.decimal(Array(text.utf8)[...]) == nil)
    }
}

#if os(Linux)
/// The owner of a real connection, asked of the kernel's socket-diagnostics netlink interface
/// (one exact lookup, as `ss` does), over real sockets; the second user is a real uid
/// (`setpriv --reuid=65534`, which needs root, as CI runs).
@Suite struct LoopbackPeerOwnerNetlinkTests {
    static let me = UInt32(geteuid())

    /// A listener, a client connected to it from `clientLiteral` (nil: 127.0.0.1), and the
    /// accepted end.
    struct Pair {
        let listener: Descriptor
        let port: Int
        let accepted: Descriptor

        static func connect(ipv6Listener: Bool = false, clientLiteral: String? = nil, client: (Int) throws -> Void) throws -> Pair {
            let (listener, port) = try LoopbackTCP.listen(ipv6: ipv6Listener, port: 0)
            try client(port)
            return Pair(listener: listener, port: port, accepted: try acceptWaiting(listener.rawValue))
        }

        static func acceptWaiting(_ listener: Int32) throws -> Descriptor {
            var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            guard Readiness.poll(&entries, timeoutMilliseconds: 20_000) > 0, case .connection(let accepted) = LoopbackTCP.accept(listener)
            else {
                throw HarnessError("nobody connected")
            }
            return accepted
        }
    }

    func lookUpPeer(of fd: Int32) -> LoopbackPeerOwner.Finding {
        var lookup = LoopbackPeerOwner.Lookup()
        let finding = lookup.owner(ofConnection: fd)
        #expect(lookup.tables == nil, "netlink answered: no table was read")
        return finding
    }

    @Test func ownConnectionBelongsToUsOverIPv4() throws {
        var client: RawClient?
        let pair = try Pair.connect { client = try RawClient(port: $0) }
        defer { client?.close() }
        #expect(lookUpPeer(of: pair.accepted.rawValue) == .user(Self.me))
    }

    @Test func ownConnectionBelongsToUsOverIPv6AndFromAnIPv6SocketMappedToIPv4() throws {
        // An IPv6 socket connecting to ::ffff:127.0.0.1: the kernel answers for it as IPv6.
        var mapped: RawClient?
        let v4 = try Pair.connect { mapped = try RawClient(port: $0, ipv6Literal: "::ffff:127.0.0.1") }
        defer { mapped?.close() }
        #expect(lookUpPeer(of: v4.accepted.rawValue) == .user(Self.me))

        var six: RawClient?
        // No IPv6 here: nothing more to ask.
        guard let v6 = try? Pair.connect(ipv6Listener: true, client: { six = try RawClient(port: $0, ipv6: true) }) else { return }
        defer { six?.close() }
        #expect(lookUpPeer(of: v6.accepted.rawValue) == .user(Self.me))
    }

    @Test func noSuchConnectionIsNobodys() throws {
        var client: RawClient?
        let pair = try Pair.connect { client = try RawClient(port: $0) }
        defer { client?.close() }
        let (peer, local) = try #require(LoopbackPeerOwner.endpoints(of: pair.accepted.rawValue))
        let nobody = SocketEndpoint(address: peer.address, port: 1) // never connected to us
        #expect(
            SocketDiagnostics.lookUpTCPSocket(
                source: nobody.address, sourcePort: nobody.port, destination: local.address, destinationPort: local.port) == .notFound)
        // Once netlink has found a socket, its "no such socket" is believed: refused, no table read.
        var lookup = LoopbackPeerOwner.Lookup()
        #expect(lookup.owner(of: peer, connectedTo: local) == .user(Self.me))
        #expect(lookup.owner(of: nobody, connectedTo: local) == .unknown)
        #expect(lookup.netlink && lookup.tables == nil)
        // Before that (and our own end not found either, as with a kernel that cannot see TCP
        // sockets) the tables decide, this once: nobody there either.
        var fresh = LoopbackPeerOwner.Lookup()
        #expect(fresh.owner(of: nobody, connectedTo: local) == .unknown)
        #expect(fresh.netlink, "netlink stays the first question")
        let six = SocketEndpoint(address: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], port: 1)
        #expect(lookup.owner(of: six, connectedTo: SocketEndpoint(address: six.address, port: local.port)) == .unknown)
    }

    @Test func aPeerThatClosedItsEndIsNobodys() throws {
        var client: RawClient?
        let pair = try Pair.connect { client = try RawClient(port: $0) }
        let (peer, local) = try #require(LoopbackPeerOwner.endpoints(of: pair.accepted.rawValue))
        client?.close() // the peer's socket goes to FIN_WAIT2 while we hold ours
        var ours = pollfd(fd: pair.accepted.rawValue, events: Int16(POLLIN), revents: 0)
        var entries = [ours]
        _ = Readiness.poll(&entries, timeoutMilliseconds: 5000) // the FIN arrived
        ours = entries[0]
        #expect(ours.revents & Int16(POLLIN) != 0)
        let answer = SocketDiagnostics.lookUpTCPSocket(
            source: peer.address, sourcePort: peer.port, destination: local.address, destinationPort: local.port, states: ~0)
        guard case .found(let state, _) = answer else {
            Issue.record("the kernel still holds the closed end: \(answer)")
            return
        }
        #expect(state != SocketDiagnostics.established)
        var lookup = LoopbackPeerOwner.Lookup()
        #expect(lookup.owner(of: peer, connectedTo: local) == .unknown)
    }

    /// A connection held by a process of uid 65534 (`setpriv`), which exits when its stdin
    /// closes.
    @Test(.enabled(if: geteuid() == 0 && Subprocess.find("setpriv", environment: ["PATH": "/usr/bin:/bin"]) != nil))
    func aConnectionFromASecondUidBelongsToThatUid() throws {
        for (ipv6, target) in [(false, "127.0.0.1"), (true, "::1")] {
            guard let (listener, port) = try? LoopbackTCP.listen(ipv6: ipv6, port: 0) else { continue } // no IPv6 here
            let stdin = try Descriptor.makePipe()
            let script = "exec 3<>/dev/tcp/\(target)/\(port) && read -r _"
            let pid = Subprocess.spawn(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/bin/bash", "-c", script],
                environment: ["PATH": "/usr/bin:/bin"], standardOutput: nil, standardInput: stdin.read.rawValue)
            stdin.read.close()
            let accepted = try Pair.acceptWaiting(listener.rawValue)
            #expect(lookUpPeer(of: accepted.rawValue) == .user(65534), "over \(target)")
            stdin.write.close()
            if let pid { _ = Subprocess.exitStatus(of: pid, withinMilliseconds: 10_000) }
            listener.close()
        }
    }
}

/// Where netlink is refused, the tables are read, at most ``LoopbackPeerOwner/tableByteLimit``
/// bytes each; a longer table (another user can make one) lets the connection through to the
/// start link and the state, with a warning, instead of refusing everyone, the owner included.
@Suite struct LoopbackPeerOwnerFallbackTests {
    static let local = SocketEndpoint(address: [127, 0, 0, 1], port: 0x1F90)
    static let header =
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

    /// `count` established rows of uid 65534 (ports 0x8000…), then the row `last` (peer port
    /// 0xD431, uid 1000) if given. Each row is 150 bytes, as the kernel writes them.
    static func table(rows count: Int, last: Bool) -> String {
        var text = header
        func row(_ index: Int, port: Int, uid: Int) -> String {
            let hex = String(port, radix: 16, uppercase: true)
            let line =
                "  \(index): 0100007F:\(hex) 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 \(uid)        0 61235 1 0000000000000000 20 4 30 10 -1"
            return line + String(repeating: " ", count: max(0, 149 - line.utf8.count)) + "\n"
        }
        for index in 0 ..< count { text += row(index, port: 0x8000 + index % 0x7000, uid: 65534) }
        if last { text += row(count, port: 0xD431, uid: 1000) }
        return text
    }

    static func tables(tcp: String, limit: Int, in directory: TemporaryDirectory) -> LoopbackPeerOwner.Tables {
        let tcpPath = directory.path + "/tcp", tcp6Path = directory.path + "/tcp6"
        _ = try? FileSystem.writeAtomically(tcpPath, Array(tcp.utf8), mode: 0o600)
        _ = try? FileSystem.writeAtomically(tcp6Path, [], mode: 0o600)
        return LoopbackPeerOwner.Tables(paths: (tcpPath, tcp6Path), byteLimit: limit)
    }

    #if _endian(little)
    @Test func aTableWithinTheLimitIsReadAndTheOwnerFound() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var tables = Self.tables(tcp: Self.table(rows: 100, last: true), limit: 1 << 20, in: directory)
        #expect(tables.owner(of: SocketEndpoint(address: [127, 0, 0, 1], port: 0xD431), connectedTo: Self.local) == .user(1000))
        #expect(tables.owner(of: SocketEndpoint(address: [127, 0, 0, 1], port: 0xD432), connectedTo: Self.local) == .unknown)
    }

    @Test func aTableLongerThanTheLimitIsNotReadPastItAndFindsNobody() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // 20,000 rows (3 MB), another user's sockets, and the owner's row last.
        let long = Self.table(rows: 20_000, last: true)
        #expect(long.utf8.count > LoopbackPeerOwner.tableByteLimit)
        var tables = Self.tables(tcp: long, limit: LoopbackPeerOwner.tableByteLimit, in: directory)
        let owner = SocketEndpoint(address: [127, 0, 0, 1], port: 0xD431)
        #expect(tables.owner(of: owner, connectedTo: Self.local) == .tablesTooLarge)
        #expect(tables.tcp == .tooLarge, "nothing past the limit is kept")
        // The same rows within a larger limit: found (the limit is all that changed).
        var generous = Self.tables(tcp: long, limit: 8 << 20, in: directory)
        #expect(generous.owner(of: owner, connectedTo: Self.local) == .user(1000))
    }

    @Test func pastTheLimitTheOwnersConnectionIsLetThroughWithOneWarning() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var configuration = LoopbackConfiguration()
        configuration.acceptedUser = geteuid() &+ 1 // every connection is "another user's"
        let server = try LoopbackServer(configuration: configuration)
        var lookup = LoopbackPeerOwner.Lookup()
        lookup.netlink = false // as in a sandbox that refuses it
        lookup.fallbackTables = Self.tables(tcp: Self.table(rows: 8_000, last: false), limit: 1 << 20, in: directory)
        var lines: [String] = []
        for _ in 0 ..< 2 {
            let client = try RawClient(port: server.port)
            defer { client.close() }
            let accepted = try LoopbackPeerOwnerNetlinkTests.Pair.acceptWaiting(server.listeners[0].rawValue)
            #expect(server.otherUserRefusal(accepted.rawValue, lookup: &lookup, log: { lines.append($0) }) == nil, "let through")
        }
        #expect(lines == [LoopbackPeerOwner.tablesTooLargeWarning], "one warning for the batch")
        #expect(lines.first?.contains("only the one-time start link and the state") == true)

        // Within the limit the same fallback still refuses a connection it cannot place.
        lookup = LoopbackPeerOwner.Lookup()
        lookup.netlink = false
        lookup.fallbackTables = Self.tables(tcp: Self.table(rows: 10, last: false), limit: 1 << 20, in: directory)
        let client = try RawClient(port: server.port)
        defer { client.close() }
        let accepted = try LoopbackPeerOwnerNetlinkTests.Pair.acceptWaiting(server.listeners[0].rawValue)
        #expect(server.otherUserRefusal(accepted.rawValue, lookup: &lookup, log: { lines.append($0) })?.response.status == .forbidden)
    }
    #endif
}
#endif
