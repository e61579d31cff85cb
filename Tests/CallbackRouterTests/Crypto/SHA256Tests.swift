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

/// Hex of a digest, for comparing against published vectors.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    var out = ""
    for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xF)]) }
    return out
}

@Suite struct SHA256Tests {
    /// FIPS 180-4 examples (NIST CSRC "Cryptographic Standards and Guidelines, Examples
    /// with Intermediate Values", SHA-256): the empty, one-block and two-block messages.
    static let fipsVectors: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ]

    @Test(arguments: fipsVectors)
    func matchesFIPS180Vectors(message: String, digest: String) {
        #expect(hex(SHA256.hash(message.utf8)) == digest)
    }

    /// FIPS 180-4 / NIST: one million repetitions of "a". Only correctness: how fast it
    /// runs is the benchmark's business (a wall-clock bound flakes on a loaded CI machine).
    @Test func hashesAMillionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Messages of the bytes 0, 1, …, n-1 around the padding and block boundaries (the
    /// length field fits in the last block only up to 55 bytes). Digests computed at
    /// authoring time with CPython's hashlib (OpenSSL):
    /// `python3 -c 'import hashlib; print(hashlib.sha256(bytes(range(n))).hexdigest())'`.
    static let boundaryVectors: [(length: Int, digest: String)] = [
        (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
        (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
        (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
        (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
        (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
        (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
        (127, "92ca0fa6651ee2f97b884b7246a562fa71250fedefe5ebf270d31c546bfea976"),
        (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
        (129, "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135"),
    ]

    @Test(arguments: boundaryVectors)
    func matchesHashlibAtBlockBoundaries(length: Int, digest: String) {
        let message = (0 ..< length).map { UInt8($0) }
        #expect(hex(SHA256.hash(message)) == digest)
    }

    @Test func boundaryTableCoversTheLengthsAroundEachBlockEdge() {
        #expect(Self.boundaryVectors.map(\.length) == [55, 56, 63, 64, 65, 119, 120, 127, 128, 129])
    }

    /// The same digest whichever way the message is split into `update` calls: every split
    /// point of a two-block message, through the contiguous path.
    @Test func givesTheSameDigestForEverySplitPoint() {
        let message = (0 ..< 129).map { UInt8($0) }
        let expected = "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135"
        for split in 0 ... message.count {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hex(hasher.finalize()) == expected, "split at \(split)")
        }
    }

    /// A sequence without contiguous storage goes through the byte-at-a-time path.
    @Test func hashesSequencesWithoutContiguousStorage() {
        let lazy = (0 ..< 129).lazy.map { UInt8($0) }
        #expect(lazy.withContiguousStorageIfAvailable { _ in true } == nil)
        #expect(hex(SHA256.hash(lazy)) == "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135")

        var mixed = SHA256()
        mixed.update((0 ..< 10).lazy.map { UInt8($0) })
        mixed.update((10 ..< 100).map { UInt8($0) })
        mixed.update((100 ..< 129).lazy.map { UInt8($0) })
        #expect(hex(mixed.finalize()) == "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135")
    }

    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA256()
        hasher.update("ab".utf8)
        let first = hasher.finalize()
        #expect(hasher.finalize() == first)
        hasher.update("c".utf8)
        #expect(hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(first == SHA256.hash("ab".utf8))
    }

    @Test func digestsAre32Bytes() {
        #expect(SHA256.hash([]).count == SHA256.digestByteCount)
        #expect(SHA256.hash([UInt8](repeating: 1, count: 1000)).count == 32)
    }
}
