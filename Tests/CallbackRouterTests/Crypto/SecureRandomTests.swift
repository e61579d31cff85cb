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

@Suite struct SecureRandomTests {
    /// Around the 8-byte words the generator gives, and the old 256-byte request limit.
    @Test(arguments: [0, 1, 7, 8, 9, 16, 32, 255, 256, 257, 1000, 4096])
    func returnsExactlyTheBytesAskedFor(count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    /// A negative count is handled (nothing to draw), never a trap.
    @Test func aNegativeCountDrawsNothing() {
        #expect(SecureRandom.bytes(-1).isEmpty)
        #expect(SecureRandom.bytes(Int.min).isEmpty)
    }

    /// The bytes after the last whole word are filled too: a copy that dropped them would
    /// leave zeros (every one of 200 draws zero at that place has probability 2^-1600).
    @Test(arguments: 1 ... 15)
    func fillsTheBytesAfterTheLastWholeWord(count: Int) {
        var last = Set<UInt8>()
        for _ in 0 ..< 200 { last.insert(SecureRandom.bytes(count)[count - 1]) }
        #expect(last.count > 1, "the last of \(count) bytes was always \(last)")
    }

    /// Every 256-byte chunk of a large draw is filled: a loop that filled only the first
    /// request would leave zeros behind (an all-zero random chunk has probability 2^-2048).
    @Test func fillsEveryChunkOfALargeRequest() {
        let bytes = SecureRandom.bytes(4096 + 100)
        var chunkStart = 0
        while chunkStart < bytes.count {
            let chunk = bytes[chunkStart ..< min(chunkStart + 256, bytes.count)]
            #expect(chunk.contains { $0 != 0 }, "chunk at \(chunkStart) is all zeros")
            chunkStart += 256
        }
    }

    @Test func neverRepeatsA32ByteDraw() {
        var seen = Set<[UInt8]>()
        for _ in 0 ..< 1000 { seen.insert(SecureRandom.bytes(32)) }
        #expect(seen.count == 1000)
    }

    /// A coarse sanity check that the bytes are uniform (it cannot prove randomness, only
    /// catch a broken source: constant, counting, or low-entropy bytes). Over 64 KiB every
    /// byte value occurs; chi-square with 255 degrees of freedom stays under 400
    /// (p ≈ 1e-8 for a true source); the share of one bits is within 6 sigma of 1/2.
    @Test func bytesLookUniform() {
        let bytes = SecureRandom.bytes(65536)
        var counts = [Int](repeating: 0, count: 256)
        var ones = 0
        for byte in bytes {
            counts[Int(byte)] += 1
            ones += byte.nonzeroBitCount
        }
        #expect(counts.allSatisfy { $0 > 0 })
        let expected = Double(bytes.count) / 256
        let chiSquare = counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(chiSquare < 400, "chi-square \(chiSquare)")
        let bits = Double(bytes.count * 8)
        let sigma = (bits * 0.25).squareRoot()
        #expect(abs(Double(ones) - bits / 2) < 6 * sigma, "\(ones) one bits of \(Int(bits))")
    }

    @Test func fillsABufferInPlace() {
        var buffer = [UInt8](repeating: 0, count: 64)
        buffer.withUnsafeMutableBytes { SecureRandom.fill($0) }
        #expect(buffer.contains { $0 != 0 })
        var empty: [UInt8] = []
        empty.withUnsafeMutableBytes { SecureRandom.fill($0) } // no crash on an empty buffer
        #expect(empty.isEmpty)
    }
}
