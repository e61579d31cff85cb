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

import Testing
@testable import CallbackRouter

@Suite struct SipHashTests {
    /// SipHash-2-4 with a 128-bit tag: `vectors_sip128` of the reference implementation
    /// (github.com/veorq/SipHash, `vectors.h`), key 00 01 … 0f, message 00 01 … (n-1).
    /// Lengths around the 8-byte block: empty, a tail only, one block, a block and a tail,
    /// two blocks, and the table's last row.
    static let referenceVectors: [(length: Int, tag: String)] = [
        (0, "a3817f04ba25a8e66df67214c7550293"),
        (1, "da87c1d86b99af44347659119b22fc45"),
        (7, "a1f1ebbed8dbc153c0b84aa61ff08239"),
        (8, "3b62a9ba6258f5610f83e264f31497b4"),
        (9, "264499060ad9baabc47f8b02bb6d71ed"),
        (15, "5493e99933b0a8117e08ec0f97cfc3d9"),
        (16, "6ee2a4ca67b054bbfd3315bf85230577"),
        (63, "5150d1772f50834a503e069a973fbd7c"),
    ]

    static let referenceKey = SipHash128(key: (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908))

    static func tagHex(_ hasher: SipHash128, _ message: [UInt8]) -> String {
        let (first, second) = message.withUnsafeBytes { hasher.tag(of: $0) }
        var bytes: [UInt8] = []
        for word in [first, second] {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return hex(bytes)
    }

    @Test(arguments: referenceVectors)
    func matchesReferenceVectors(length: Int, tag: String) {
        #expect(Self.tagHex(Self.referenceKey, (0 ..< length).map { UInt8($0) }) == tag)
    }

    @Test func countsEveryReferenceVector() {
        #expect(Self.referenceVectors.count == 8)
    }

    /// The key matters: the same state under two routers' keys gives unrelated tags, so a
    /// sender cannot precompute colliding states without the router's key.
    @Test func dependsOnTheKey() {
        let message = Array("af0ifjsldkjAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_".utf8)
        let other = SipHash128(key: (0x0706_0504_0302_0101, 0x0f0e_0d0c_0b0a_0908))
        #expect(Self.tagHex(Self.referenceKey, message) != Self.tagHex(other, message))
        #expect(Self.tagHex(SipHash128.random(), message) != Self.tagHex(SipHash128.random(), message))
    }

    /// A state key read from a `String` and from the same bytes in a buffer agree (the
    /// router keys attempts by their `String` state and looks callbacks up by either).
    @Test(arguments: ["", "s", "af0ifjsldkjAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_", "état-ü-🚀-0123456789abcdef"])
    func stateKeyIsTheSameFromAStringAndFromItsBytes(state: String) {
        let hasher = Self.referenceKey
        let bytes = Array(state.utf8)
        let fromBytes = bytes.withUnsafeBufferPointer { StateKey(utf8: $0, hasher: hasher) }
        #expect(StateKey(state, hasher: hasher) == fromBytes)
        #expect(StateKey(state + "x", hasher: hasher) != fromBytes)
    }
}
