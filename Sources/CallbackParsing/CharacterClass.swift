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
