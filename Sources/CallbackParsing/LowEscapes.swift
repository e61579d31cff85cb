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

/// Sixteen bytes of an escape run checked at once: low escapes (`%00`–`%7F`), `+`, and
/// bytes the plain-run filter does not flag, the stretch of a state of reserved
/// characters between its non-ASCII escapes (`a%2Bb%2Fc%3Dd+e`). Three overlapping loads
/// give each `%` lane its two digits' lanes without shifting. What it accepts is exactly
/// what the scalar escape run accepts; anything else (a high or malformed escape, a byte
/// the filter flags: structure, a refused byte, or one of its false positives) ends the
/// stretch, and the scalar loop decides on that byte.
enum LowEscapes {
    /// How many bytes from `p` (where a `%` stands) are accepted: up to the first byte that
    /// is not, or 16 plus the digits of an escape in lane 14 or 15 (18 bytes are read).
    /// `extraStop`: `` ` `` in the fragment, `+` (a no-op) in the query.
    @inline(__always)
    static func accepted(_ p: UnsafeRawPointer, extraStop: SIMD16<UInt8>) -> Int {
        let v = p.loadUnaligned(as: SIMD16<UInt8>.self)
        let first = p.loadUnaligned(fromByteOffset: 1, as: SIMD16<UInt8>.self)
        let second = p.loadUnaligned(fromByteOffset: 2, as: SIMD16<UInt8>.self)
        let low = unsafeBitCast(v &+ 1, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: 0x2D)
        let flagged =
            unsafeBitCast(low, to: SIMD16<UInt8>.self)
            | unsafeBitCast((v & 0xFC) .== SIMD16<UInt8>(repeating: 0x3C), to: SIMD16<UInt8>.self)
            | unsafeBitCast(v .== extraStop, to: SIMD16<UInt8>.self)
        // A `%` whose first digit is 0-7 and whose second is a hex digit.
        let lowLead = (first &- 0x30) .< SIMD16<UInt8>(repeating: 8)
        let digit = ((second &- 0x30) .< SIMD16<UInt8>(repeating: 10)) .| (((second | 0x20) &- 0x61) .< SIMD16<UInt8>(repeating: 6))
        let escapes = (v .== SIMD16<UInt8>(repeating: 0x25)) .& lowLead .& digit
        let passed = unsafeBitCast(escapes .| (v .== SIMD16<UInt8>(repeating: 0x2B)), to: SIMD16<UInt8>.self)
        let end = PlainRun.firstSet(flagged & ~passed)
        guard end == 16 else { return end }
        // The digits of an escape in lane 14 or 15 lie past the sixteen.
        let last = unsafeBitCast(escapes, to: SIMD2<UInt64>.self)[1]
        return last >> 56 != 0 ? 18 : last >> 48 != 0 ? 17 : 16
    }
}
