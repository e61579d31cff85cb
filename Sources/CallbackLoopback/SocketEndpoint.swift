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
