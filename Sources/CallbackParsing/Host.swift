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

/// The host of an authority: a registered name, an IPv4 address, or an IPv6 literal.
///
/// Two hosts are equal when they name the same thing: registered names compare
/// case-insensitively (they are stored lowercased), IP addresses by value, so
/// `[::1]` equals `[0:0:0:0:0:0:0:1]`.
public struct Host: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Which of RFC 3986's three host forms the host is.
    public enum Kind: Sendable, Hashable {
        /// A registered name (`example.com`, `callback`), lowercased; may be empty.
        case registeredName
        /// A dotted-decimal IPv4 address (`127.0.0.1`), the only IPv4 form accepted.
        case ipv4
        /// An IPv6 literal (`[::1]`).
        case ipv6
    }

    /// What kind of host this is.
    public let kind: Kind
    /// The string the host was parsed from, and where in it the host stands: the text is
    /// made on access, so that parsing a URL allocates nothing for its host.
    let source: String
    let range: Range<Int>
    let hasUppercase: Bool
    /// The address, big-endian: IPv4 in the low 32 bits of `low`, IPv6 across both.
    let high: UInt64
    let low: UInt64

    init(kind: Kind, source: String, range: Range<Int>, hasUppercase: Bool, high: UInt64 = 0, low: UInt64 = 0) {
        self.kind = kind
        self.source = source
        self.range = range
        self.hasUppercase = hasUppercase
        self.high = high
        self.low = low
    }

    /// Parses a host the way the URL parser does (`example.com`, `127.0.0.1`, `[::1]`).
    public init(parsing text: String) throws(ParseError) {
        var text = text
        text.makeContiguousUTF8()
        let count = text.utf8.count
        let parsed: Result<Parsed, ParseError> = text.withUTF8 { bytes in
            Result { () throws(ParseError) in try Host.parse(bytes, base: 0) }
        }
        self.init(try parsed.get(), source: text, range: 0 ..< count)
    }

    /// A host as the parser found it, for a `CallbackURL` to keep without a reference:
    /// `Host` values are made from it (and the URL's string) on access.
    struct Parsed {
        var kind: Kind
        var hasUppercase: Bool
        var high: UInt64 = 0
        var low: UInt64 = 0
    }

    init(_ parsed: Parsed, source: String, range: Range<Int>) {
        self.init(
            kind: parsed.kind, source: source, range: range, hasUppercase: parsed.hasUppercase,
            high: parsed.high, low: parsed.low)
    }

    /// The host as written, lowercased for a registered name; IPv6 with its brackets.
    public var text: String {
        let utf8 = source.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        let raw = String(source[start ..< end])
        return hasUppercase && kind == .registeredName ? raw.lowercased() : raw
    }

    /// The address bytes (4 or 16) for an IP address, empty for a registered name.
    public var addressBytes: [UInt8] {
        switch kind {
        case .registeredName: return []
        case .ipv4: return (0 ..< 4).map { UInt8(truncatingIfNeeded: low >> (24 - 8 * $0)) }
        case .ipv6:
            return (0 ..< 8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
                + (0 ..< 8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        }
    }

    /// Whether this is a loopback IP literal: 127.0.0.0/8 or `::1` (RFC 8252 §7.3). A
    /// registered name such as `localhost` is not: it depends on name resolution (§8.3).
    public var isLoopbackAddress: Bool {
        switch kind {
        case .ipv4: return low >> 24 == 127
        case .ipv6: return high == 0 && low == 1
        case .registeredName: return false
        }
    }

    /// The host as it is compared: a registered name lowercased, an IP literal as written
    /// (IPv6 with its brackets).
    public var description: String { text }

    /// `dump()` shows the host, never the URL it points into (which holds the secrets).
    public var customMirror: Mirror {
        kind == .registeredName
            ? Mirror(self, children: ["kind": kind, "text": text], displayStyle: .struct)
            : Mirror(self, children: ["kind": kind, "text": text, "addressBytes": addressBytes], displayStyle: .struct)
    }

    /// Whether two hosts name the same host: registered names compared without regard to
    /// ASCII case, IP addresses by their bytes (`[::1]` equals `[0:0:0:0:0:0:0:1]`).
    public static func == (a: Host, b: Host) -> Bool {
        guard a.kind == b.kind else { return false }
        guard a.kind == .registeredName else { return a.high == b.high && a.low == b.low }
        guard a.range.count == b.range.count else { return false }
        var x = a.source, y = b.source
        return x.withUTF8 { xs in
            y.withUTF8 { ys in
                for i in 0 ..< a.range.count where xs[a.range.lowerBound + i] | 0x20 != ys[b.range.lowerBound + i] | 0x20 {
                    // Registered names hold no byte whose case-folding (| 0x20) collides
                    // with another allowed byte except letters, so this is an exact
                    // case-insensitive comparison.
                    return false
                }
                return true
            }
        }
    }

    /// Hashes what `==` compares: the lowercased name, or the address bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if kind == .registeredName { hasher.combine(text) } else { hasher.combine(high); hasher.combine(low) }
    }
}

extension Host {
    /// Parses the raw host bytes (no port). `base` is their offset in the whole input,
    /// for error offsets.
    static func parse(_ raw: UnsafeBufferPointer<UInt8>, base: Int) throws(ParseError) -> Parsed {
        if raw.first == UInt8(ascii: "[") {
            guard raw.count >= 2, raw.last == UInt8(ascii: "]") else {
                throw ParseError(.invalidHost, at: base, "an IP literal must end with ']'")
            }
            let inner = UnsafeBufferPointer(rebasing: raw[1 ..< raw.count - 1])
            if let first = inner.first, first == UInt8(ascii: "v") || first == UInt8(ascii: "V") {
                throw ParseError(.invalidHost, at: base + 1, "IPvFuture literals are not accepted")
            }
            if let percent = inner.firstIndex(of: UInt8(ascii: "%")) {
                throw ParseError(.invalidHost, at: base + 1 + percent, "IPv6 zone identifiers are not accepted")
            }
            guard let address = parseIPv6(inner) else {
                throw ParseError(.invalidHost, at: base + 1, "not a valid IPv6 address")
            }
            return Parsed(kind: .ipv6, hasUppercase: false, high: address.high, low: address.low)
        }

        var hasUpper = false
        let table = CharacterClass.lookup // once: each access to the global is a swift_once call
        let regName = CharacterClass.regName.rawValue
        // The usual host is a lowercase registered name: one table test a byte.
        var lowercaseEnd = 0
        while lowercaseEnd < raw.count && table[Int(raw[lowercaseEnd])] & CharacterClass.lowercaseRegName.rawValue != 0 {
            lowercaseEnd &+= 1
        }
        for i in lowercaseEnd ..< raw.count {
            let byte = raw[i]
            if table[Int(byte)] & regName == 0 {
                if isForbiddenEverywhere(byte) {
                    throw ParseError(.invalidCharacter, at: base + i, "the host contains \(describeByte(byte))")
                }
                if byte == UInt8(ascii: "%") {
                    throw ParseError(.invalidHost, at: base + i, "percent-encoding is not accepted in a host")
                }
                throw ParseError(.invalidHost, at: base + i, "the host contains \(describeByte(byte))")
            }
            hasUpper = hasUpper || byte &- UInt8(ascii: "A") < 26
        }
        if endsInANumber(raw) {
            guard let address = parseDottedDecimal(raw) else {
                throw ParseError(
                    .invalidHost, at: base,
                    "a host that ends in a number must be a dotted-decimal IPv4 address (browsers read forms like 0x7f.1 or 127.1 as IPv4)")
            }
            return Parsed(kind: .ipv4, hasUppercase: false, low: UInt64(address))
        }
        return Parsed(kind: .registeredName, hasUppercase: hasUpper)
    }

    /// WHATWG's "ends in a number": the last label (ignoring one trailing dot) is all
    /// digits, or `0x`/`0X` followed by hex digits. Such a host is an IPv4 address to a
    /// browser, so it must be one to us too.
    static func endsInANumber(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = raw.count
        if end > 0 && raw[end - 1] == UInt8(ascii: ".") { end -= 1 }
        // A number's label ends in a digit, a hex digit or the `x` of a bare `0x`: most
        // names (`com`, `callback`) are settled by their last byte.
        guard end > 0, CharacterClass.hexDigit.contains(raw[end - 1]) || raw[end - 1] | 0x20 == UInt8(ascii: "x") else {
            return false
        }
        var start = end
        while start > 0 && raw[start - 1] != UInt8(ascii: ".") { start -= 1 }
        guard start < end else { return false }
        let label = UnsafeBufferPointer(rebasing: raw[start ..< end])
        if label.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        if label.count >= 2 && label[0] == UInt8(ascii: "0") && (label[1] | 0x20) == UInt8(ascii: "x") {
            return label.dropFirst(2).allSatisfy { CharacterClass.hexDigit.contains($0) }
        }
        return false
    }

    /// Four decimal octets 0–255 without leading zeros (which some parsers read as octal).
    static func parseDottedDecimal(_ raw: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var address: UInt32 = 0
        var octets = 0
        var value: UInt32 = 0
        var digits = 0
        var leadingZero = false
        for byte in raw {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, octets < 3 else { return nil }
                address = address << 8 | value
                octets += 1
                value = 0; digits = 0; leadingZero = false
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            if digits == 0 && byte == UInt8(ascii: "0") { leadingZero = true } else if leadingZero { return nil }
            value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
            digits += 1
            guard value <= 255 else { return nil }
        }
        guard digits > 0, octets == 3 else { return nil }
        return address << 8 | value
    }

    /// RFC 3986 §3.2.2 `IPv6address`, including the `::` shorthand and an IPv4 tail; the
    /// address as two big-endian halves. Parses into a stack buffer: no allocation.
    static func parseIPv6(_ raw: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 8) { pieces in
            parseIPv6(raw, into: pieces)
        }
    }

    private static func parseIPv6(
        _ raw: UnsafeBufferPointer<UInt8>,
        into pieces: UnsafeMutableBufferPointer<UInt16>
    ) -> (high: UInt64, low: UInt64)? {
        var count = 0
        var compressAt: Int? = nil
        var i = 0
        let n = raw.count
        if n >= 2 && raw[0] == UInt8(ascii: ":") && raw[1] == UInt8(ascii: ":") {
            compressAt = 0
            i = 2
            if i == n { return (0, 0) }
        } else if n > 0 && raw[0] == UInt8(ascii: ":") {
            return nil
        }
        while i < n {
            guard count < 8 else { return nil }
            // An IPv4 tail: digits followed by '.' before the next ':'.
            var j = i
            while j < n && raw[j] != UInt8(ascii: ":") && raw[j] != UInt8(ascii: ".") { j += 1 }
            if j < n && raw[j] == UInt8(ascii: ".") {
                guard count <= 6, let v4 = parseDottedDecimal(UnsafeBufferPointer(rebasing: raw[i ..< n])) else { return nil }
                pieces[count] = UInt16(truncatingIfNeeded: v4 >> 16)
                pieces[count + 1] = UInt16(truncatingIfNeeded: v4)
                count += 2
                i = n
                break
            }
            let length = j - i
            guard length >= 1 && length <= 4 else { return nil }
            var value: UInt16 = 0
            for k in i ..< j {
                guard CharacterClass.hexDigit.contains(raw[k]) else { return nil }
                value = value << 4 | UInt16(hexValue(raw[k]))
            }
            pieces[count] = value
            count += 1
            i = j
            if i == n { break }
            // raw[i] == ":"
            if i + 1 < n && raw[i + 1] == UInt8(ascii: ":") {
                guard compressAt == nil else { return nil }
                compressAt = count
                i += 2
                if i == n { break }
            } else {
                i += 1
                guard i < n else { return nil } // a trailing single ':'
            }
        }
        if let compressAt {
            guard count <= 7 else { return nil }
            // Move the pieces after `::` to the end; zeros fill the gap.
            let tail = count - compressAt
            let gap = 8 - count
            var k = tail - 1
            while k >= 0 {
                pieces[compressAt + gap + k] = pieces[compressAt + k]
                k -= 1
            }
            for z in compressAt ..< compressAt + gap { pieces[z] = 0 }
            count = 8
        }
        guard count == 8 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for k in 0 ..< 4 { high = high << 16 | UInt64(pieces[k]) }
        for k in 4 ..< 8 { low = low << 16 | UInt64(pieces[k]) }
        return (high, low)
    }
}
