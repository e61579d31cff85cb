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

/// Percent-decoding over already-validated raw bytes (every `%` is known to be followed by
/// two hex digits), with `+` as a space in form-urlencoded parameters.
enum PercentDecoding {
    /// Whether decoding `raw` would change it (it holds `%`, or `+` when `plusIsSpace`).
    @inline(__always)
    static func needsDecoding(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> Bool {
        for byte in raw where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
            return true
        }
        return false
    }

    /// Calls `body` with each decoded byte, in order.
    @inline(__always)
    static func forEachDecodedByte(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool, _ body: (UInt8) -> Void) {
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            if byte == UInt8(ascii: "%") {
                body(hexValue(raw[i + 1]) << 4 | hexValue(raw[i + 2]))
                i += 3
            } else {
                body(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                i += 1
            }
        }
    }

    /// Decodes form-urlencoded `raw` (`+` is a space) into `out`, which has room for
    /// `raw.count` bytes; returns how many it wrote (bytes past that, within `raw.count`,
    /// may have been written too).
    ///
    /// Byte by byte where escapes are dense (a state of reserved or non-ASCII characters is
    /// mostly `%XX`, one plain byte between two escapes); a run of plain bytes goes eight at
    /// a time (a word test for `%` and `+`, the word copied whole, up to the first stop).
    /// The word test starts only when the byte after a plain one is plain too: in front of
    /// an escape it would cost a dozen instructions to find a run of none. The output never
    /// runs ahead of the input, so a word written while eight input bytes remain stays
    /// inside `raw.count`. One block decodes an escape, entered from the loop's top and
    /// straight after a plain byte (`a%2Bb%2F`: the byte after the plain one is read once);
    /// two copies of it were merged by LLVM into one with its offsets in registers.
    @inline(__always)
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let p = raw.baseAddress else { return 0 }
        let n = raw.count
        let table = CharacterClass.lookup
        var i = 0
        var count = 0
        while i < n {
            let byte = p[i]
            if byte != UInt8(ascii: "%") {
                out[count] = byte == UInt8(ascii: "+") ? 0x20 : byte
                i &+= 1
                count &+= 1
                guard i < n else { break }
                let next = p[i]
                // `a%2B`: the escape after one plain byte goes in the same round.
                if next != UInt8(ascii: "%") {
                    if next != UInt8(ascii: "+") { count = copyRun(p, from: &i, count: n, into: out, at: count) }
                    continue
                }
            }
            out[count] = hexPair(p[i &+ 1], p[i &+ 2], in: table)
            i &+= 3
            count &+= 1
        }
        return count
    }

    /// Copies the plain bytes from `i` up to the first `%` or `+`, or up to where fewer
    /// than eight bytes remain, eight at a time to `out + start`; moves `i` past them and
    /// returns the new count.
    @inline(__always)
    private static func copyRun(
        _ p: UnsafePointer<UInt8>, from i: inout Int, count n: Int, into out: UnsafeMutablePointer<UInt8>, at start: Int
    ) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var count = start
        while n &- i >= 8 {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            let percent = word ^ (ones &* 0x25)
            let plus = word ^ (ones &* 0x2B)
            // The lowest flagged byte is exactly the first `%` or `+` (little-endian).
            let stops = ((percent &- ones) & ~percent | (plus &- ones) & ~plus) & highs
            UnsafeMutableRawPointer(out + count).storeBytes(of: word, as: UInt64.self)
            let run = stops == 0 ? 8 : stops.trailingZeroBitCount &>> 3
            i &+= run
            count &+= run
            if run < 8 { break }
        }
        return count
    }

    /// The decoded bytes as a `String`. The caller has already checked they are UTF-8.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String {
        if !needsDecoding(raw, plusIsSpace: plusIsSpace) {
            return String(decoding: raw, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: raw.count) { buffer in
            var count = 0
            forEachDecodedByte(raw, plusIsSpace: plusIsSpace) { byte in
                buffer[count] = byte
                count += 1
            }
            return count
        }
    }

    /// Whether the decoded bytes of `raw` are valid UTF-8; nil when they are, else the
    /// offset in `raw` of the escape where the bad sequence starts.
    static func firstInvalidUTF8(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> Int? {
        var validator = UTF8Validator()
        var i = 0
        var sequenceStart = 0
        while i < raw.count {
            let byte: UInt8
            let width: Int
            if raw[i] == UInt8(ascii: "%") {
                byte = hexValue(raw[i + 1]) << 4 | hexValue(raw[i + 2])
                width = 3
            } else {
                byte = plusIsSpace && raw[i] == UInt8(ascii: "+") ? 0x20 : raw[i]
                width = 1
            }
            if validator.isAtBoundary { sequenceStart = i }
            if !validator.consume(byte) { return sequenceStart }
            i += width
        }
        return validator.isAtBoundary ? nil : sequenceStart
    }
}
