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

/// SipHash-2-4 with a 128-bit tag (Aumasson and Bernstein, "SipHash: a fast short-input
/// PRF", 2012; the 128-bit variant of the reference implementation,
/// github.com/veorq/SipHash), keyed with 128 bits.
///
/// It exists for one job: the router's ``StateKey``, the key pending attempts are found by.
/// A keyed PRF whose key is fresh CSPRNG output per router means a sender who does not
/// know the key cannot choose states that collide in the router's tables, and the tag says
/// nothing about the state. It is no substitute for the constant-time comparison of the
/// full state that follows every lookup. Checked against the reference vectors in
/// `SipHashTests`.
///
/// ```swift
/// let hasher = SipHash128(key: (0x0706050403020100, 0x0F0E0D0C0B0A0908))
/// hasher.tag(of: [])      // (0xE6A825BA047F81A3, 0x930255C71472F66D): vectors_sip128[0]
/// ```
struct SipHash128: Sendable {
    let k0: UInt64
    let k1: UInt64

    /// A hasher with the key `(k0, k1)`: the key's first eight bytes read little-endian,
    /// then the last eight.
    init(key: (UInt64, UInt64)) {
        (k0, k1) = key
    }

    /// A hasher with a fresh random key from the operating system's CSPRNG.
    static func random() -> SipHash128 {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { SecureRandom.fill($0) }
        return SipHash128(key: words)
    }

    /// The 128-bit tag of `bytes`, as two words: the tag's first eight bytes read
    /// little-endian, then the last eight. Reads the bytes eight at a time; allocates nothing.
    func tag(of bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1 ^ 0xee
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1

        @inline(__always) func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13) ^ v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16) ^ v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21) ^ v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17) ^ v2
            v2 = v2.rotatedLeft(32)
        }

        let count = bytes.count
        let whole = count & ~7
        var offset = 0
        while offset < whole {
            let m = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            v3 ^= m
            round()
            round()
            v0 ^= m
            offset &+= 8
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        var shift: UInt64 = 0
        while offset < count {
            last |= UInt64(bytes[offset]) << shift
            shift &+= 8
            offset &+= 1
        }
        v3 ^= last
        round()
        round()
        v0 ^= last

        v2 ^= 0xee
        round()
        round()
        round()
        round()
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xdd
        round()
        round()
        round()
        round()
        return (first, v0 ^ v1 ^ v2 ^ v3)
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 &- count))
    }
}
