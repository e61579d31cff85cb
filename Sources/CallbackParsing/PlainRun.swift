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

/// The query's and the fragment's plain bytes (``CharacterClass/queryPlain``,
/// ``CharacterClass/fragmentPlain``) passed over sixteen at a time, for the long runs of real
/// callbacks (ID tokens, long states). The vector test flags a superset of the stop bytes,
/// cheaply; the table gives the verdict at the first flagged byte, and a plain byte flagged
/// (a false positive) just lets the run go on past it. The same source for every
/// architecture: the compares on `SIMD16<UInt8>`/`SIMD16<Int8>` compile to `paddb`,
/// `pcmpgtb`, `pand`, `pcmpeqb` on x86_64 (SSE2) and to `add`/`cmgt`/`and`/`cmeq` on arm64,
/// and the mask is read as two 64-bit words (lanes are all ones or zero), not lane by lane or
/// through `any()` (a call into the standard library's generic reduction).
/// `ByteLoopEquivalenceTests` holds the filter to the table (every stop byte flagged, in
/// every lane) and the loop to the table's first stop.
enum PlainRun {
    /// The sixteen bytes at `p` with the lane of every stop byte all ones (and of some plain
    /// ones: `! $ ' ( ) * ?`, and `#` in the fragment), every other lane zero. One signed
    /// compare of `v + 1` flags 0x7F–0xFF and 0x00–0x2B (DEL and non-ASCII wrap to negative;
    /// controls, space, `! " # $ % & ' ( ) * +`), one masked compare `< = > ?`, and the
    /// fragment adds `` ` ``. Four or five vector operations against the exact set's nine:
    /// SSE2's two-operand form costs a copy per compare, so fewer compares is what pays.
    /// `fragment` must be a constant where this is inlined.
    @inline(__always)
    static func candidates(_ p: UnsafeRawPointer, fragment: Bool) -> SIMD16<UInt8> {
        let v = p.loadUnaligned(as: SIMD16<UInt8>.self)
        let low = unsafeBitCast(v &+ 1, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: 0x2D)
        let angles = (v & 0xFC) .== SIMD16<UInt8>(repeating: 0x3C) // < = > ?
        let flagged = unsafeBitCast(low, to: SIMD16<UInt8>.self) | unsafeBitCast(angles, to: SIMD16<UInt8>.self)
        guard fragment else { return flagged }
        return flagged | unsafeBitCast(v .== SIMD16<UInt8>(repeating: 0x60), to: SIMD16<UInt8>.self)
    }

    /// Whether any lane of `mask` is set: its two 64-bit words OR-ed (`pcmpeqd`+`movmskps`,
    /// or `fmov`+`mov`+`orr` on arm64).
    @inline(__always)
    static func any(_ mask: SIMD16<UInt8>) -> Bool {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// The first set lane of `mask` (0–15), or 16. Lane k is byte k of the little-endian
    /// words on both architectures.
    @inline(__always)
    static func firstSet(_ mask: SIMD16<UInt8>) -> Int {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        if words[0] != 0 { return words[0].trailingZeroBitCount &>> 3 }
        if words[1] != 0 { return 8 &+ words[1].trailingZeroBitCount &>> 3 }
        return 16
    }

    /// The first offset from `start` whose byte is not plain (its `table` entry has no bit
    /// of `plain`), testing 32 bytes first (two vectors, one test: a short value ends there,
    /// and four vectors would cost the typical callback ~30 instructions), then 64 bytes a
    /// round (four vectors, one test of all), then 16;
    /// returns the first offset where fewer than 16 remain when every byte up to there is
    /// plain. `plain` and `fragment` must name the same set.
    @_transparent
    static func skip(
        _ p: UnsafePointer<UInt8>, from start: Int, count n: Int, fragment: Bool, table: UnsafePointer<UInt16>,
        plain: UInt16
    ) -> Int {
        var i = start
        while true {
            var flagged = 16
            if i &+ 32 <= n {
                let a = candidates(UnsafeRawPointer(p + i), fragment: fragment)
                let b = candidates(UnsafeRawPointer(p + (i &+ 16)), fragment: fragment)
                if any(a | b) {
                    i &+= any(a) ? firstSet(a) : 16 &+ firstSet(b)
                    if table[Int(p[i])] & plain == 0 { return i }
                    i &+= 1
                    continue
                }
                i &+= 32
            }
            while i &+ 64 <= n {
                let a = candidates(UnsafeRawPointer(p + i), fragment: fragment)
                let b = candidates(UnsafeRawPointer(p + (i &+ 16)), fragment: fragment)
                let c = candidates(UnsafeRawPointer(p + (i &+ 32)), fragment: fragment)
                let d = candidates(UnsafeRawPointer(p + (i &+ 48)), fragment: fragment)
                if any((a | b) | (c | d)) {
                    flagged =
                        any(a) ? firstSet(a) : any(b) ? 16 &+ firstSet(b) : any(c) ? 32 &+ firstSet(c) : 48 &+ firstSet(d)
                    break
                }
                i &+= 64
            }
            if flagged == 16 {
                while i &+ 16 <= n {
                    flagged = firstSet(candidates(UnsafeRawPointer(p + i), fragment: fragment))
                    if flagged < 16 { break }
                    i &+= 16
                }
                if flagged == 16 { return i }
            }
            i &+= flagged
            if table[Int(p[i])] & plain == 0 { return i }
            i &+= 1
        }
    }
}
