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
        var tables = LoopbackPeerOwner.Tables(tcp: Array(Self.tcp.utf8), tcp6: Array(Self.tcp6.utf8))
        let local = SocketEndpoint(address: Self.loopback4, port: 8080)
        #expect(tables.owner(of: SocketEndpoint(address: Self.loopback4, port: 0xB000), connectedTo: local) == 999)
        #expect(tables.owner(of: SocketEndpoint(address: Self.loopback4, port: 0xD431), connectedTo: local) == 1000)
        #expect(tables.owner(of: SocketEndpoint(address: Self.loopback4, port: 0xC000), connectedTo: local) == nil)
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
