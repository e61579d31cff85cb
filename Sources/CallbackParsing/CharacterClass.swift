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

/// Which raw bytes each component accepts. The tables are documented, byte for byte, in
/// docs/parsing.md; keep the two in step.
///
/// Baseline is RFC 3986. Beyond it, what WHATWG-conforming browsers leave raw when they
/// serialize a URL is accepted where it is harmless data (`[ ] { } | ^ \` and backtick in
/// the query, `#` inside the fragment), because a browser-serialized callback must never
/// be refused for its characters. Controls, space, DEL and non-ASCII are refused
/// everywhere: no browser delivers them raw.
struct CharacterClass: OptionSet {
    let rawValue: UInt16

    static let scheme = CharacterClass(rawValue: 1 << 0)
    static let userinfo = CharacterClass(rawValue: 1 << 1)
    static let regName = CharacterClass(rawValue: 1 << 2)
    static let path = CharacterClass(rawValue: 1 << 3)
    static let query = CharacterClass(rawValue: 1 << 4)
    static let fragment = CharacterClass(rawValue: 1 << 5)
    static let hexDigit = CharacterClass(rawValue: 1 << 6)
    /// `&`, `=` and `+`: data to the URL grammar, structure (or a space) to
    /// form-urlencoded parameters.
    static let formDelimiter = CharacterClass(rawValue: 1 << 7)
    /// What the query's parameter loop passes over without a second look: the query's
    /// bytes except `&`, `=` and `+` (`%` and `#` are in no class). One test per byte.
    static let queryPlain = CharacterClass(rawValue: 1 << 8)
    /// The same for the fragment.
    static let fragmentPlain = CharacterClass(rawValue: 1 << 9)
    /// What the authority's first pass steps over: printable ASCII but `/ ? # @`.
    static let authority = CharacterClass(rawValue: 1 << 10)
    /// A registered name's bytes but `A`–`Z`: the host fast path (no case to fold).
    static let lowercaseRegName = CharacterClass(rawValue: 1 << 11)
    /// Not a class: the top four bits of a hex digit's entry hold its value (zero for every
    /// other byte), from which ``lookup``'s nibble tables for ``hexPair(_:_:in:)`` are made.
    static let hexValueShift: UInt16 = 12

    /// Whether `byte` is in this class's set (for several classes: in any of them).
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        CharacterClass.lookup[Int(byte)] & rawValue != 0
    }

    /// The table as a pointer that lives as long as the process: a hot loop reads it once
    /// into a local and indexes it without the retain, release and bounds check an `Array`
    /// access costs. Written once, before first use, and only read afterwards.
    ///
    /// Two byte tables follow the 256 entries, for ``hexPair(_:_:in:)``: a hex digit's value
    /// shifted to the high nibble, then its value (zero for every other byte), so that `%XY`
    /// is two byte loads and an OR.
    nonisolated(unsafe) static let lookup: UnsafePointer<UInt16> = {
        let pointer = UnsafeMutablePointer<UInt16>.allocate(capacity: 512)
        pointer.initialize(from: table, count: 256)
        let nibbles = UnsafeMutableRawPointer(pointer + 256)
        for byte in 0 ..< 256 {
            let value = UInt8(truncatingIfNeeded: table[byte] >> hexValueShift)
            nibbles.storeBytes(of: value << 4, toByteOffset: byte, as: UInt8.self)
            nibbles.storeBytes(of: value, toByteOffset: 256 + byte, as: UInt8.self)
        }
        return UnsafePointer(pointer)
    }()

    /// 256 entries, one per byte value.
    static let table: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 256)
        func add(_ bytes: some Sequence<UInt8>, _ classes: CharacterClass) {
            for byte in bytes { table[Int(byte)] |= classes.rawValue }
        }
        let alpha = Array(UInt8(ascii: "A") ... UInt8(ascii: "Z")) + Array(UInt8(ascii: "a") ... UInt8(ascii: "z"))
        let digit = Array(UInt8(ascii: "0") ... UInt8(ascii: "9"))
        let unreserved = alpha + digit + Array("-._~".utf8)
        let subDelims = Array("!$&'()*+,;=".utf8)
        let everyComponent: CharacterClass = [.userinfo, .regName, .path, .query, .fragment]

        add(alpha + digit + Array("+-.".utf8), .scheme)
        add(unreserved + subDelims, everyComponent)
        add(Array(":".utf8), [.userinfo, .path, .query, .fragment])
        add(Array("@/".utf8), [.path, .query, .fragment])
        add(Array("?".utf8), [.query, .fragment])
        // What browsers leave raw (WHATWG percent-encode sets): harmless in data components.
        add(Array("[]|".utf8), [.path, .query, .fragment])
        add(Array("{}^\\`".utf8), [.query])
        add(Array("{}^\\#".utf8), [.fragment])
        add(digit + Array("abcdefABCDEF".utf8), .hexDigit)
        for byte in digit + Array("abcdefABCDEF".utf8) { table[Int(byte)] |= UInt16(hexValue(byte)) << hexValueShift }
        add(Array("&=+".utf8), .formDelimiter)
        add(Array(0x21 ..< 0x7F).filter { !"/?#@".utf8.contains($0) }, .authority)
        for byte in 0 ..< 256 {
            if table[byte] & regName.rawValue != 0 && !(0x41 ... 0x5A).contains(byte) {
                table[byte] |= lowercaseRegName.rawValue
            }
            let entry = CharacterClass(rawValue: table[byte])
            if entry.contains(.query) && !entry.contains(.formDelimiter) { table[byte] |= queryPlain.rawValue }
            if entry.contains(.fragment) && !entry.contains(.formDelimiter) { table[byte] |= fragmentPlain.rawValue }
        }
        return table
    }()
}

/// The value of a hex digit the parser has already checked (`0-9`, `A-F`, `a-f`), without
/// a branch: digits have bit 6 clear, letters set, and a letter's low nibble is 1–6.
@inline(__always)
func hexValue(_ byte: UInt8) -> UInt8 {
    (byte & 0x0F) &+ 9 &* (byte >> 6)
}

/// The byte `%XY` stands for, from the nibble tables after the lookup table's entries
/// (`x`, `y`: hex digits the parser has already checked; `table`: ``CharacterClass/lookup``).
@inline(__always)
func hexPair(_ x: UInt8, _ y: UInt8, in table: UnsafePointer<UInt16>) -> UInt8 {
    let nibbles = UnsafeRawPointer(table + 256)
    return nibbles.load(fromByteOffset: Int(x), as: UInt8.self) | nibbles.load(fromByteOffset: 256 &+ Int(y), as: UInt8.self)
}

/// A byte that no component accepts raw: C0 controls, space, DEL, and every non-ASCII byte.
@inline(__always)
func isForbiddenEverywhere(_ byte: UInt8) -> Bool {
    byte <= 0x20 || byte >= 0x7F
}

/// How a refused byte is named in an error's detail: by its class, never the byte or its
/// value. A refused byte may be part of a secret (a code with a stray character, a state
/// sent raw), and the error's offset already says where it is. Each class that names
/// characters lists several, so the detail is the same for any byte of the class.
func describeByte(_ byte: UInt8) -> String {
    switch byte {
    case 0x20: return "a raw space"
    case 0x00 ..< 0x20, 0x7F: return "a control character"
    case 0x80...: return "a raw non-ASCII byte"
    case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"): return "a letter"
    case UInt8(ascii: "0") ... UInt8(ascii: "9"): return "a digit"
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        return "an unreserved mark (one of - . _ ~)"
    case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
        UInt8(ascii: "]"), UInt8(ascii: "@"):
        return "a delimiter (one of : / ? # [ ] @)"
    case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
        UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
        UInt8(ascii: "="):
        return "a sub-delimiter (one of ! $ & ' ( ) * + , ; =)"
    default:
        return "a character RFC 3986 does not allow raw (one of \" % < > \\ ^ ` { | })"
    }
}

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
