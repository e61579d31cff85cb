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

/// SHA-256 (FIPS 180-4 §6.2), written here because the package takes no dependencies and
/// the core may not import Foundation or CryptoKit. It exists for one job: the PKCE S256
/// challenge (RFC 7636 §4.2). It is not constant-time with respect to the *length* of its
/// input (no hash is), and it is checked against the FIPS 180-4 vectors in SHA256Tests.
///
/// ```swift
/// SHA256.hash("abc".utf8)            // ba7816bf…f20015ad, 32 bytes
///
/// var hasher = SHA256()
/// hasher.update("ab".utf8)
/// hasher.update("c".utf8)
/// hasher.finalize()                  // the same 32 bytes
/// ```
///
/// Input is consumed in 64-byte blocks straight from contiguous storage when the sequence
/// has it (`[UInt8]`, `String.UTF8View`, buffers), through a fixed 64-byte buffer otherwise:
/// nothing is allocated per byte or per block.
public struct SHA256: Sendable {
    /// The digest length in bytes (32).
    public static let digestByteCount = 32
    /// The block length in bytes (64).
    public static let blockByteCount = 64

    /// The eight working words H0…H7 (FIPS 180-4 §5.3.3 initial values).
    private var state = State()
    /// The bytes of an incomplete block; always 64 long, only `buffered` of them in use.
    private var buffer = [UInt8](repeating: 0, count: 64)
    private var buffered = 0
    /// The message length so far, in bytes (the padding writes it in bits, modulo 2^64).
    private var length: UInt64 = 0

    /// Starts an empty hash; feed it with `update` and read it with `finalize`.
    public init() {}

    /// Hashes all of `bytes` in one call.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Appends `bytes` to the message.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        guard done == nil else { return }
        for byte in bytes {
            buffer[buffered] = byte
            buffered += 1
            length &+= 1
            if buffered == 64 {
                buffer.withUnsafeBytes { SHA256.compress(&state, $0) }
                buffered = 0
            }
        }
    }

    /// The digest of everything appended so far (32 bytes).
    ///
    /// Does not change the hasher: appending more and finalizing again gives the digest of
    /// the longer message.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        // 0x80, zeros up to 56 mod 64, then the 64-bit big-endian bit length (§5.1.1).
        let zeros = (buffered < 56 ? 55 - buffered : 119 - buffered)
        var padding = [UInt8](repeating: 0, count: 1 + zeros + 8)
        padding[0] = 0x80
        for i in 0 ..< 8 {
            padding[1 + zeros + i] = UInt8(truncatingIfNeeded: bitLength &>> (56 - 8 * UInt64(i)))
        }
        copy.update(padding)
        let words = [
            copy.state.a, copy.state.b, copy.state.c, copy.state.d,
            copy.state.e, copy.state.f, copy.state.g, copy.state.h,
        ]
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA256.digestByteCount)
        for word in words {
            digest.append(UInt8(truncatingIfNeeded: word &>> 24))
            digest.append(UInt8(truncatingIfNeeded: word &>> 16))
            digest.append(UInt8(truncatingIfNeeded: word &>> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    private mutating func update(_ input: UnsafeRawBufferPointer) {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        length &+= UInt64(input.count)
        var offset = 0
        if buffered > 0 {
            let take = min(64 - buffered, input.count)
            buffer.withUnsafeMutableBytes { target in
                target.baseAddress?.advanced(by: buffered)
                    .copyMemory(from: base, byteCount: take)
            }
            buffered += take
            offset = take
            guard buffered == 64 else { return }
            buffer.withUnsafeBytes { SHA256.compress(&state, $0) }
            buffered = 0
        }
        while input.count - offset >= 64 {
            SHA256.compress(&state, UnsafeRawBufferPointer(rebasing: input[offset ..< offset + 64]))
            offset += 64
        }
        let rest = input.count - offset
        if rest > 0 {
            buffer.withUnsafeMutableBytes { target in
                target.baseAddress?.copyMemory(from: base + offset, byteCount: rest)
            }
            buffered = rest
        }
    }

    struct State: Sendable {
        var a: UInt32 = 0x6a09_e667, b: UInt32 = 0xbb67_ae85, c: UInt32 = 0x3c6e_f372, d: UInt32 = 0xa54f_f53a
        var e: UInt32 = 0x510e_527f, f: UInt32 = 0x9b05_688c, g: UInt32 = 0x1f83_d9ab, h: UInt32 = 0x5be0_cd19
    }

    /// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of
    /// the first 64 primes.
    static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

    /// One application of the compression function (§6.2.2) to a 64-byte block.
    static func compress(_ state: inout State, _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0 ..< 16 {
                w.initializeElement(at: t, to: UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self)))
            }
            for t in 16 ..< 64 {
                let x = w[t &- 15], y = w[t &- 2]
                let s0 = rotateRight(x, 7) ^ rotateRight(x, 18) ^ (x &>> 3)
                let s1 = rotateRight(y, 17) ^ rotateRight(y, 19) ^ (y &>> 10)
                w.initializeElement(at: t, to: s1 &+ w[t &- 7] &+ s0 &+ w[t &- 16])
            }
            var a = state.a, b = state.b, c = state.c, d = state.d
            var e = state.e, f = state.f, g = state.g, h = state.h
            roundConstants.withUnsafeBufferPointer { k in
                for t in 0 ..< 64 {
                    let sigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ sigma1 &+ choose &+ k[t] &+ w[t]
                    let sigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = sigma0 &+ majority
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            state.a &+= a; state.b &+= b; state.c &+= c; state.d &+= d
            state.e &+= e; state.f &+= f; state.g &+= g; state.h &+= h
        }
    }
}
