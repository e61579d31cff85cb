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

import CallbackRouter
import Testing

/// The buffer `constantTimeEquals` reads eight bytes a round: a difference in any byte, in
/// a full word or in the tail, and any length difference, must still count.
@Suite struct ConstantTimeBufferTests {
    static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in constantTimeEquals(x, y) } }
    }

    @Test func everyByteOfEveryLengthCounts() {
        for length in 0 ... 40 {
            let a = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Self.equals(a, a), "length \(length)")
            for position in 0 ..< length {
                for flip in [UInt8(0x01), 0x80, 0xFF] {
                    var b = a
                    b[position] ^= flip
                    #expect(!Self.equals(a, b), "length \(length), byte \(position)")
                    #expect(!Self.equals(b, a), "length \(length), byte \(position)")
                }
            }
            #expect(!Self.equals(a, a + [0]), "length \(length) against one more")
            #expect(!Self.equals(a + [0], a), "length \(length) + 1 against \(length)")
            if length > 0 { #expect(!Self.equals(a, Array(a.dropLast())), "length \(length) against one less") }
        }
    }
}
