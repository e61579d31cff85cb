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

#if os(Linux)
@testable import CallbackSystem
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reading of the kernel's netlink replies to a socket-diagnostics request, on crafted
/// datagrams: the one record for the socket asked about, the errors, and replies that are
/// short, odd or someone else's, none of which may be taken for an owner.
@Suite struct SocketDiagnosticsReplyTests {
    static let loopback: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]
    static let request = SocketDiagnostics.Request(
        source: loopback, sourcePort: 0xD431, destination: loopback, destinationPort: 8080, states: 1 << 1, sequence: 77)

    static func bytes<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] { SocketDiagnostics.Request.native(value) }

    static func message(type: UInt16, sequence: UInt32 = 77, body: [UInt8], length: Int? = nil) -> [UInt8] {
        var message: [UInt8] = bytes(UInt32(length ?? 16 + body.count))
        message += bytes(type) + bytes(UInt16(0))
        message += bytes(sequence) + bytes(UInt32(0))
        return message + body
    }

    /// An `inet_diag_msg`: family, state, timer, retransmits, the id (48 bytes), four words,
    /// the uid, the inode; `id` defaults to the socket asked about.
    static func record(family: UInt8 = 2, state: UInt8 = 1, id: [UInt8]? = nil, uid: UInt32 = 65534) -> [UInt8] {
        var record: [UInt8] = [family, state, 0, 0]
        record += id ?? request.id
        record += [UInt8](repeating: 0, count: 12)
        record += bytes(uid) + bytes(UInt32(1234))
        return record
    }

    static func error(_ code: Int32) -> [UInt8] {
        message(type: 2, body: bytes(-code) + [UInt8](repeating: 0, count: 16))
    }

    @Test func asksForExactlyThatSocketAsIPv4WhenBothAddressesAreMapped() {
        let bytes = Self.request.bytes
        #expect(bytes.count == 16 + 56)
        #expect(bytes[16] == 2 && bytes[17] == 6, "AF_INET, IPPROTO_TCP")
        #expect(Array(bytes[24 ..< 28]) == [0xD4, 0x31, 0x1F, 0x90], "ports in network order")
        #expect(Array(bytes[28 ..< 32]) == [127, 0, 0, 1] && Array(bytes[44 ..< 48]) == [127, 0, 0, 1])
        #expect(Array(bytes[64 ..< 72]) == [UInt8](repeating: 0xFF, count: 8), "INET_DIAG_NOCOOKIE")
    }

    @Test func readsTheRecordOfTheSocketAskedAbout() {
        #expect(Self.request.answer(in: Self.message(type: 20, body: Self.record())[...]) == .found(state: 1, uid: 65534))
        // Attributes after the record are ignored.
        #expect(
            Self.request.answer(in: Self.message(type: 20, body: Self.record() + [8, 0, 1, 0, 0, 0, 0, 0])[...])
                == .found(state: 1, uid: 65534))
        // An IPv6 socket connected over IPv4 answers as IPv6 with mapped addresses.
        let mapped = Array(Self.request.id[0 ..< 4]) + Self.loopback + Self.loopback + Array(Self.request.id[36...])
        #expect(
            Self.request.answer(in: Self.message(type: 20, body: Self.record(family: 10, id: mapped))[...]) == .found(state: 1, uid: 65534))
        #expect(Self.request.answer(in: Self.message(type: 20, body: Self.record(state: 4))[...]) == .found(state: 4, uid: 65534))
    }

    @Test func aRecordOfAnotherSocketIsNoAnswer() {
        var other = Self.request.id
        other[1] ^= 1 // another source port
        #expect(Self.request.answer(in: Self.message(type: 20, body: Self.record(id: other))[...]) == .unanswered(EPROTO))
        #expect(Self.request.answer(in: Self.message(type: 20, body: Self.record(family: 10))[...]) == .unanswered(EPROTO))
    }

    @Test func errorsSayNoSuchSocketRefusedOrNotNow() {
        #expect(Self.request.answer(in: Self.error(ENOENT)[...]) == .notFound)
        #expect(Self.request.answer(in: Self.error(EPERM)[...]) == .unavailable(EPERM))
        #expect(Self.request.answer(in: Self.error(EOPNOTSUPP)[...]) == .unavailable(EOPNOTSUPP))
        #expect(Self.request.answer(in: Self.error(EINVAL)[...]) == .unanswered(EINVAL))
        #expect(Self.request.answer(in: Self.error(0)[...]) == nil, "an acknowledgement is no answer")
        #expect(Self.request.answer(in: Self.message(type: 3, body: [0, 0, 0, 0])[...]) == .notFound, "done, nothing found")
        // The acknowledgement, then the record, in one datagram.
        #expect(Self.request.answer(in: (Self.error(0) + Self.message(type: 20, body: Self.record()))[...]) == .found(state: 1, uid: 65534))
    }

    @Test func shortOddAndOthersRepliesAreNeverAnOwner() {
        #expect(Self.request.answer(in: Self.message(type: 20, sequence: 78, body: Self.record())[...]) == nil, "another request's")
        #expect(Self.request.answer(in: Self.message(type: 16, body: Self.record())[...]) == nil, "another type")
        #expect(Self.request.answer(in: [][...]) == nil)
        #expect(Self.request.answer(in: Array(Self.message(type: 20, body: Self.record())[..<15])[...]) == nil, "shorter than a header")
        #expect(
            Self.request.answer(in: Self.message(type: 20, body: Array(Self.record()[..<71]))[...]) == .unanswered(EPROTO),
            "a record cut short")
        #expect(
            Self.request.answer(in: Self.message(type: 20, body: Self.record(), length: 200)[...]) == .unanswered(EPROTO),
            "longer than the datagram")
        #expect(
            Self.request.answer(in: Self.message(type: 20, body: Self.record(), length: 8)[...]) == .unanswered(EPROTO),
            "shorter than its header")
        #expect(Self.request.answer(in: Self.message(type: 2, body: [0, 0])[...]) == .unanswered(EPROTO), "an error without its code")
    }
}
#endif
