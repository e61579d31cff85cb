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

extension CallbackURL {
    /// Parses a URL string under the default limits. Throws a ``ParseError`` with a reason
    /// code and byte offset.
    public init(parsing string: String) throws(ParseError) {
        // The default limits as constants the parser's checks fold in (`.default` is a
        // lazily initialized global read through a `swift_once` check on every call).
        try self.init(parsing: string, limits: ParsingLimits())
    }

    /// Parses a URL string. Throws a ``ParseError`` with a reason code and byte offset.
    @inline(__always)
    public init(parsing string: String, limits: ParsingLimits) throws(ParseError) {
        var source = string
        source.makeContiguousUTF8()
        // The parser writes into these two through pointers: no result enum to build,
        // test and copy out of (each cost a copy of the whole table).
        var parts = Parts()
        var parameters = ParameterStorage()
        let failure: ParseError? = source.withUTF8 { bytes in
            withUnsafeMutablePointer(to: &parts) { parts in
                withUnsafeMutablePointer(to: &parameters) { parameters in
                    var parser = Parser(limits: limits, bytes: bytes, parts: parts, parameters: parameters)
                    return parser.run()
                }
            }
        }
        if let failure { throw failure }
        self.source = source
        self.parts = parts
        self.parameters = parameters
        #if DEBUG
        checkInvariants()
        #endif
    }

    /// Parses a URL from any collection of UTF-8 bytes (`[UInt8]`, `ArraySlice`, a buffer…).
    public init<Bytes: Collection>(parsing utf8: Bytes, limits: ParsingLimits = .default) throws(ParseError)
    where Bytes.Element == UInt8 {
        guard utf8.contains(where: { $0 >= 0x80 }) else {
            // Printable ASCII or not, every byte is its own character: the String is exact.
            try self.init(parsing: String(decoding: utf8, as: UTF8.self), limits: limits)
            return
        }
        // `String(decoding:)` would repair invalid UTF-8, so the parser must not see that
        // String. No component accepts a raw non-ASCII byte, and the parser treats one
        // exactly as it treats DEL: parse with DEL in its place (same reason, same offset),
        // then name the real byte.
        let original = Array(utf8)
        let substituted = String(decoding: original.map { $0 >= 0x80 ? 0x7F : $0 }, as: UTF8.self)
        do {
            _ = try CallbackURL(parsing: substituted, limits: limits)
        } catch {
            guard let offset = error.offset, offset < original.count, original[offset] >= 0x80 else { throw error }
            throw ParseError(
                error.reason, at: offset,
                error.detail.replacing(describeByte(0x7F), with: describeByte(original[offset])))
        }
        let first = original.firstIndex { $0 >= 0x80 } ?? 0
        throw ParseError(.invalidCharacter, at: first, "the URL contains \(describeByte(original[first]))")
    }

    #if DEBUG
    /// Debug builds re-check what the parser promises after every parse.
    func checkInvariants() {
        precondition(schemeEnd > 0 && pathRange.lowerBound > schemeEnd, "scheme before path")
        if let queryRange { precondition(queryRange.lowerBound >= pathRange.upperBound + 1, "query after path") }
        if let fragmentRange {
            precondition(fragmentRange.lowerBound >= (queryRange?.upperBound ?? pathRange.upperBound) + 1, "fragment last")
            precondition(fragmentRange.upperBound == source.utf8.count, "fragment runs to the end")
        }
        precondition(source.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "only printable ASCII survives parsing")
        precondition(queryParameterCount <= parameters.count)
    }
    #endif

    /// Where the components stand: offsets into the UTF-8 of `source` and flags, plain
    /// bytes that copy without reference counting.
    struct Parts {
        struct Flags: OptionSet {
            let rawValue: UInt8
            static let authority = Flags(rawValue: 1 << 0)
            static let userinfo = Flags(rawValue: 1 << 1)
            static let port = Flags(rawValue: 1 << 2)
            static let query = Flags(rawValue: 1 << 3)
            static let fragment = Flags(rawValue: 1 << 4)
        }
        var flags: Flags = []
        var schemeEnd: UInt32 = 0
        /// The userinfo is `schemeEnd + 3 ..< userinfoEnd` (after `://`, before `@`).
        var userinfoEnd: UInt32 = 0
        var hostStart: UInt32 = 0
        var hostEnd: UInt32 = 0
        var port: UInt32 = 0
        var pathStart: UInt32 = 0
        var pathEnd: UInt32 = 0
        /// The query is `pathEnd + 1 ..< queryEnd` (after `?`).
        var queryEnd: UInt32 = 0
        /// The fragment is `fragmentStart ..< length` (after `#`, to the end).
        var fragmentStart: UInt32 = 0
        var length: UInt32 = 0
        var queryParameterCount: UInt32 = 0
        var host = Host.Parsed(kind: .registeredName, hasUppercase: false)
    }
}

/// The single pass over the bytes. Every loop advances; nothing is rescanned more than a
/// constant number of times, so parsing is linear in the input.
private struct Parser {
    let limits: ParsingLimits
    let bytes: UnsafeBufferPointer<UInt8>
    /// `CharacterClass.lookup`, read once: every access to the global checks that it is
    /// initialized (a `swift_once` call).
    let table: UnsafePointer<UInt16>
    /// `limits.maxValueLength`, clamped once (the property is settable past what init clamps).
    let maxValueLength: Int
    /// The `CallbackURL`'s parts and parameter table, written in place.
    let parts: UnsafeMutablePointer<CallbackURL.Parts>
    let parameters: UnsafeMutablePointer<ParameterStorage>

    init(
        limits: ParsingLimits, bytes: UnsafeBufferPointer<UInt8>, parts: UnsafeMutablePointer<CallbackURL.Parts>,
        parameters: UnsafeMutablePointer<ParameterStorage>
    ) {
        self.limits = limits
        self.bytes = bytes
        self.table = CharacterClass.lookup
        self.maxValueLength = min(max(0, limits.maxValueLength), ParsingLimits.largestLength)
        self.parts = parts
        self.parameters = parameters
    }

    /// Parses `bytes` into `parts` and `parameters`; returns the refusal, if any.
    mutating func run() -> ParseError? {
        do {
            try parse()
            return nil
        } catch {
            return error
        }
    }

    mutating func parse() throws(ParseError) {
        let n = bytes.count
        guard n > 0 else { throw ParseError(.emptyInput, at: nil, "the URL is empty") }
        // The properties are settable past what init clamps: offsets are stored in 32 bits.
        let maxLength = min(max(0, limits.maxLength), ParsingLimits.largestLength)
        guard n <= maxLength else {
            throw ParseError(.tooLong, at: maxLength, "the URL is longer than \(maxLength) bytes")
        }
        parts.pointee.length = UInt32(truncatingIfNeeded: n)
        var i = try parseScheme()
        parts.pointee.schemeEnd = UInt32(truncatingIfNeeded: i)
        i += 1 // ':'

        if i + 1 < n && bytes[i] == UInt8(ascii: "/") && bytes[i + 1] == UInt8(ascii: "/") {
            i = try parseAuthority(from: i + 2)
        }
        i = try scanComponent(from: i, allowed: .path, stopAtQuestionMark: true, name: "path")
        if i < n && bytes[i] == UInt8(ascii: "?") {
            i = try scanParameters(from: i + 1, allowed: .query, name: "query")
            parts.pointee.flags.insert(.query)
            parts.pointee.queryEnd = UInt32(truncatingIfNeeded: i)
        }
        parts.pointee.queryParameterCount = UInt32(truncatingIfNeeded: parameters.pointee.count)
        if i < n && bytes[i] == UInt8(ascii: "#") {
            parts.pointee.flags.insert(.fragment)
            parts.pointee.fragmentStart = UInt32(truncatingIfNeeded: i + 1)
            i = try scanParameters(from: i + 1, allowed: .fragment, name: "fragment")
        }
    }

    /// The first offset from `start` whose byte is not in `allowed` (or the end). Eight
    /// bytes a round while eight remain: one load, one table load and one test a byte,
    /// and the bounds check once per round; then byte by byte.
    @inline(__always)
    private func skip(_ allowed: CharacterClass, from start: Int) -> Int {
        let mask = allowed.rawValue
        let p = bytes.baseAddress.unsafelyUnwrapped
        let n = bytes.count
        var i = start
        while i &+ 8 <= n {
            if table[Int(p[i])] & mask == 0 { return i }
            if table[Int(p[i &+ 1])] & mask == 0 { return i &+ 1 }
            if table[Int(p[i &+ 2])] & mask == 0 { return i &+ 2 }
            if table[Int(p[i &+ 3])] & mask == 0 { return i &+ 3 }
            if table[Int(p[i &+ 4])] & mask == 0 { return i &+ 4 }
            if table[Int(p[i &+ 5])] & mask == 0 { return i &+ 5 }
            if table[Int(p[i &+ 6])] & mask == 0 { return i &+ 6 }
            if table[Int(p[i &+ 7])] & mask == 0 { return i &+ 7 }
            i &+= 8
        }
        while i < n && table[Int(p[i])] & mask != 0 { i &+= 1 }
        return i
    }

    /// `skip` for the query's or the fragment's plain bytes: one table round of eight (most
    /// names and short values end there, where a vector test would cost more than it
    /// saves), then 64 and 16 bytes a test (``PlainRun``), then the table for the tail.
    @inline(__always)
    private func skipPlain(_ plain: CharacterClass, from start: Int) -> Int {
        let mask = plain.rawValue
        let p = bytes.baseAddress.unsafelyUnwrapped
        let n = bytes.count
        var i = start
        guard i &+ 24 <= n else { return skip(plain, from: i) }
        // `skip`'s round of eight, written out again: the two sharing one function that
        // returns the stop's lane cost ~10 instructions on every row (a compare of its
        // result after each call).
        if table[Int(p[i])] & mask == 0 { return i }
        if table[Int(p[i &+ 1])] & mask == 0 { return i &+ 1 }
        if table[Int(p[i &+ 2])] & mask == 0 { return i &+ 2 }
        if table[Int(p[i &+ 3])] & mask == 0 { return i &+ 3 }
        if table[Int(p[i &+ 4])] & mask == 0 { return i &+ 4 }
        if table[Int(p[i &+ 5])] & mask == 0 { return i &+ 5 }
        if table[Int(p[i &+ 6])] & mask == 0 { return i &+ 6 }
        if table[Int(p[i &+ 7])] & mask == 0 { return i &+ 7 }
        i &+= 8
        // Two copies of the vector loop, each with its set folded in.
        i =
            plain == .fragmentPlain
            ? PlainRun.skip(p, from: i, count: n, fragment: true, table: table, plain: mask)
            : PlainRun.skip(p, from: i, count: n, fragment: false, table: table, plain: mask)
        return i &+ 16 <= n ? i : skip(plain, from: i)
    }

    @inline(__always)
    private func isHexDigit(_ byte: UInt8) -> Bool { table[Int(byte)] & CharacterClass.hexDigit.rawValue != 0 }

    /// Returns the offset of the scheme's ':'.
    @inline(__always)
    private func parseScheme() throws(ParseError) -> Int {
        // Fast path: a run of scheme characters, starting with a letter, then ':'.
        let n = bytes.count
        let end = skip(.scheme, from: 0)
        if end > 0 && end < n && bytes[end] == UInt8(ascii: ":") && (bytes[0] | 0x20) >= UInt8(ascii: "a")
            && (bytes[0] | 0x20) <= UInt8(ascii: "z")
        {
            return end
        }
        return try parseSchemeReportingError()
    }

    /// The slow path: finds the first problem and names it precisely.
    private func parseSchemeReportingError() throws(ParseError) -> Int {
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: ":") { break }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                throw ParseError(.relativeReference, at: 0, "the URL has no scheme; a callback URL must be absolute")
            }
            i += 1
        }
        guard i < bytes.count else {
            throw ParseError(.relativeReference, at: 0, "the URL has no scheme; a callback URL must be absolute")
        }
        guard i > 0 else { throw ParseError(.invalidScheme, at: 0, "the scheme is empty") }
        for j in 0 ..< i {
            let byte = bytes[j]
            if isForbiddenEverywhere(byte) {
                throw ParseError(.invalidCharacter, at: j, "the scheme contains \(describeByte(byte))")
            }
            let isAlpha = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            if j == 0 ? !isAlpha : !CharacterClass.scheme.contains(byte) {
                throw ParseError(
                    .invalidScheme, at: j,
                    j == 0 ? "a scheme must start with a letter" : "the scheme contains \(describeByte(byte))")
            }
        }
        return i
    }

    /// Parses `[userinfo@]host[:port]` from `start`; returns where the path begins.
    private mutating func parseAuthority(from start: Int) throws(ParseError) -> Int {
        let n = bytes.count
        var end = start
        var at: Int? = nil
        while true {
            // Every printable byte but `/ ? # @` passes here; the host, port and userinfo
            // are checked below.
            end = skip(.authority, from: end)
            guard end < n else { break }
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte != UInt8(ascii: "@") {
                throw ParseError(.invalidCharacter, at: end, "the authority contains \(describeByte(byte))")
            }
            if at != nil {
                throw ParseError(.invalidAuthority, at: end, "the authority contains more than one '@'")
            }
            at = end
            end += 1
        }

        var hostStart = start
        if let at {
            try checkPercentEncoding(start ..< at)
            for j in start ..< at where !CharacterClass.userinfo.contains(bytes[j]) && bytes[j] != UInt8(ascii: "%") {
                throw ParseError(.invalidAuthority, at: j, "the userinfo contains \(describeByte(bytes[j]))")
            }
            parts.pointee.flags.insert(.userinfo)
            parts.pointee.userinfoEnd = UInt32(truncatingIfNeeded: at)
            hostStart = at + 1
        }

        // The host ends at the port's ':' (after the ']' of an IP literal).
        var hostEnd = hostStart
        if hostStart < end && bytes[hostStart] == UInt8(ascii: "[") {
            while hostEnd < end && bytes[hostEnd] != UInt8(ascii: "]") { hostEnd += 1 }
            guard hostEnd < end else {
                throw ParseError(.invalidHost, at: hostStart, "an IP literal must end with ']'")
            }
            hostEnd += 1
            if hostEnd < end && bytes[hostEnd] != UInt8(ascii: ":") {
                throw ParseError(.invalidHost, at: hostEnd, "only a port may follow an IP literal")
            }
        } else {
            // A registered name or IPv4 address runs to the port's ':'; Host.parse names
            // any byte it refuses on the way.
            hostEnd = skip(.regName, from: hostStart)
            while hostEnd < end && bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        }
        parts.pointee.host = try Host.parse(UnsafeBufferPointer(rebasing: bytes[hostStart ..< hostEnd]), base: hostStart)
        parts.pointee.hostStart = UInt32(truncatingIfNeeded: hostStart)
        parts.pointee.hostEnd = UInt32(truncatingIfNeeded: hostEnd)

        if hostEnd < end {
            // bytes[hostEnd] == ":"; an empty port means no port (RFC 3986 §3.2.3).
            var value = 0
            for j in hostEnd + 1 ..< end {
                let byte = bytes[j]
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                    throw ParseError(.invalidPort, at: j, "the port contains \(describeByte(byte))")
                }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= 65535 else {
                    throw ParseError(.invalidPort, at: hostEnd + 1, "the port is larger than 65535")
                }
            }
            if end > hostEnd + 1 {
                parts.pointee.flags.insert(.port)
                parts.pointee.port = UInt32(truncatingIfNeeded: value)
            }
        }
        parts.pointee.flags.insert(.authority)
        return end
    }

    /// Checks one component's bytes from `start` to its end; returns the end offset.
    /// Inlined so that `allowed` is a constant at each call and its mask folds in.
    /// The path stops at `?` or `#`, the query at `#`, the fragment at the end.
    @inline(__always)
    private mutating func scanComponent(
        from start: Int, allowed: CharacterClass, stopAtQuestionMark: Bool,
        name: StaticString
    ) throws(ParseError) -> Int {
        let n = bytes.count
        var i = start
        while i < n {
            i = skip(allowed, from: i)
            if i == n { break }
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < n, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else {
                    throw Self.badEscape(at: i, in: name)
                }
                i += 3
                continue
            }
            if allowed != .fragment && byte == UInt8(ascii: "#") { break }
            if stopAtQuestionMark && byte == UInt8(ascii: "?") { break }
            throw Self.badCharacter(byte, at: i, in: name)
        }
        if allowed == .path {
            parts.pointee.pathStart = UInt32(truncatingIfNeeded: start)
            parts.pointee.pathEnd = UInt32(truncatingIfNeeded: i)
        }
        return i
    }

    private func checkPercentEncoding(_ range: Range<Int>) throws(ParseError) {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < range.upperBound, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else {
                    throw ParseError(.invalidPercentEncoding, at: i, "'%' is not followed by two hexadecimal digits")
                }
                i += 3
            } else {
                i += 1
            }
        }
    }

    /// Checks a query or a fragment and splits it into form-urlencoded pairs in the same
    /// pass: `&` separates, empty pairs are skipped, the first `=` splits name from value.
    /// The query stops at `#`; the fragment runs to the end.
    private mutating func scanParameters(from start: Int, allowed: CharacterClass, name: StaticString) throws(ParseError) -> Int {
        let n = bytes.count
        let plain: CharacterClass = allowed == .query ? .queryPlain : .fragmentPlain
        var pairStart = start
        var equals = -1
        // Where the pair's first invalid UTF-8 sequence starts (-1: none so far). Only an
        // escape of a byte past 0x7F (`%80`–`%FF`) can start one: the raw bytes are ASCII,
        // and so is every lower escape. Each such sequence is checked where the scan meets
        // it, its continuation escapes read ahead, instead of a second pass over the pair.
        // The refusal waits for the pair's end (`addParameter`): a syntax error later in the
        // pair, or a limit, is still the one reported, as when the pair was checked whole.
        var badUTF8 = -1
        // Bit 0: the name needs decoding; bit 1: the value does.
        var escapes: UInt8 = 0
        var i = start
        while i < n {
            // The tight loop over plain bytes, then one byte of structure.
            i = skipPlain(plain, from: i)
            if i == n { break }
            let byte = bytes[i]
            // `=` and `&` first, tested apart from the rarer bytes: a chain of equality
            // tests on one byte becomes a jump table, whose indirect branch the processor
            // mispredicts far more often (cachegrind: 3.5 a URL on the realistic set).
            if table[Int(byte)] & CharacterClass.formDelimiter.rawValue != 0 {
                if byte == UInt8(ascii: "=") {
                    if equals < 0 { equals = i }
                } else if byte == UInt8(ascii: "&") {
                    if i > pairStart { try addParameter(pairStart ..< i, equals: equals, badUTF8: badUTF8, escapes: escapes) }
                    pairStart = i + 1
                    equals = -1
                    badUTF8 = -1
                    escapes = 0
                } else { // "+", a space once decoded
                    escapes |= equals < 0 ? 1 : 2
                }
                i += 1
            } else if byte == UInt8(ascii: "%") {
                escapes |= equals < 0 ? 1 : 2
                i = try scanEscapeRun(from: i, plain: plain.rawValue, badUTF8: &badUTF8, name: name)
            } else if byte == UInt8(ascii: "#") && allowed == .query {
                break
            } else {
                // Every byte the component allows but the loop stops at is handled above.
                throw Self.badCharacter(byte, at: i, in: name)
            }
        }
        if i > pairStart { try addParameter(pairStart ..< i, equals: equals, badUTF8: badUTF8, escapes: escapes) }
        return i
    }

    /// Checks the escape at `start` (a `%`) and the escape run it begins: further escapes,
    /// and the plain bytes and `+` between them (a state of reserved or non-ASCII
    /// characters: `a%2Bb%2Fc%3Dd+e%E2%82%AC`), a byte at a time; returns where the run ends:
    /// a byte of structure or one the component refuses (the caller's loop decides on it), the
    /// end, or the sixteenth plain byte in a row (the vector loop is cheaper from there). Each
    /// byte is decided as the caller's loop decides it, in the same order: a malformed escape
    /// is refused here, the first invalid UTF-8 sequence is recorded in `badUTF8` (refused at
    /// the pair's end). Every `%` and `+` here flags the same half of the pair (no `=` in a
    /// run), which the caller flagged. Out of line: inside the scan, the loop cost the scan's
    /// other loops their registers (docs/performance.md).
    @inline(never)
    private func scanEscapeRun(from start: Int, plain: UInt16, badUTF8: inout Int, name: StaticString) throws(ParseError) -> Int {
        let p = bytes.baseAddress.unsafelyUnwrapped
        let n = bytes.count
        let hexDigit = CharacterClass.hexDigit.rawValue
        // The fragment's one stop the vector filter does not flag; the query has none (`+`
        // is flagged already).
        let extraStop = SIMD16<UInt8>(repeating: plain == CharacterClass.fragmentPlain.rawValue ? 0x60 : 0x2B)
        var i = start
        while true {
            // p[i] is `%`. Wrapping arithmetic: offsets stay below ParsingLimits.largestLength
            // (Int32.max), far from overflow.
            var accepted = 0
            if i &+ 18 <= n && p[i &+ 1] < UInt8(ascii: "8") {
                accepted = LowEscapes.accepted(UnsafeRawPointer(p + i), extraStop: extraStop)
            }
            if accepted > 0 {
                i &+= accepted
                guard i < n else { return i }
                if p[i] == UInt8(ascii: "%") { continue }
            } else {
                guard i &+ 2 < n, table[Int(p[i &+ 1])] & hexDigit != 0, table[Int(p[i &+ 2])] & hexDigit != 0 else {
                    throw Self.badEscape(at: i, in: name)
                }
                if p[i &+ 1] >= UInt8(ascii: "8") && badUTF8 < 0 { // 8-9, A-F, a-f: a byte past 0x7F
                    let length = escapedUTF8SequenceLength(at: i)
                    if length == 0 { badUTF8 = i }
                    i &+= length == 0 ? 3 : length
                } else {
                    i &+= 3
                }
            }
            // The dense case first: the next escape, or one plain byte and then an escape.
            if i &+ 1 < n {
                let next = p[i]
                if next == UInt8(ascii: "%") { continue }
                if table[Int(next)] & plain != 0 && p[i &+ 1] == UInt8(ascii: "%") {
                    i &+= 1
                    continue
                }
            }
            let runEnd = min(n, i &+ 16)
            while i < runEnd {
                let byte = p[i]
                if table[Int(byte)] & plain == 0 {
                    if byte == UInt8(ascii: "%") { break }
                    if byte != UInt8(ascii: "+") { return i }
                }
                i &+= 1
            }
            guard i < runEnd else { return i }
        }
    }

    /// The raw length (3 a byte) of the well-formed escaped UTF-8 sequence whose lead escape
    /// (`%80`–`%FF`, already checked) is at `start`, or 0 when the sequence is not valid
    /// UTF-8: a bad lead, a continuation that is not an escape (a raw byte, `+`, the pair's
    /// end) or out of range, or a malformed escape (the scan refuses that one when it gets
    /// there). Unicode 15's Table 3-7, as ``UTF8Validator`` applies it, written out for a
    /// known lead: the lead gives the count and the first continuation's range, every later
    /// continuation is 0x80–0xBF (`ByteLoopEquivalenceTests` holds the two to each other).
    @inline(__always)
    private func escapedUTF8SequenceLength(at start: Int) -> Int {
        let p = bytes.baseAddress.unsafelyUnwrapped
        let n = bytes.count
        let hexDigit = CharacterClass.hexDigit.rawValue
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        let continuations: Int
        switch hexPair(p[start &+ 1], p[start &+ 2], in: table) {
        case 0xC2 ... 0xDF: continuations = 1
        case 0xE0: continuations = 2; lower = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: continuations = 2
        case 0xED: continuations = 2; upper = 0x9F
        case 0xF0: continuations = 3; lower = 0x90
        case 0xF1 ... 0xF3: continuations = 3
        case 0xF4: continuations = 3; upper = 0x8F
        default: return 0
        }
        let end = start &+ 3 &* (continuations &+ 1)
        guard end <= n else { return 0 }
        var j = start &+ 3
        repeat {
            guard p[j] == UInt8(ascii: "%"), table[Int(p[j &+ 1])] & hexDigit != 0, table[Int(p[j &+ 2])] & hexDigit != 0
            else { return 0 }
            let byte = hexPair(p[j &+ 1], p[j &+ 2], in: table)
            guard byte >= lower && byte <= upper else { return 0 }
            lower = 0x80
            upper = 0xBF
            j &+= 3
        } while j < end
        return end &- start
    }

    /// Records one pair after checking the limits and then that its decoded bytes are
    /// UTF-8 (`badUTF8`: where the scan found the first invalid sequence, or -1). The
    /// refusals are built out of line: the common path stays a few compares and a store.
    @inline(__always)
    private mutating func addParameter(_ pair: Range<Int>, equals: Int, badUTF8: Int, escapes: UInt8) throws(ParseError) {
        let nameEnd = equals >= 0 ? equals : pair.upperBound
        let valueStart = equals >= 0 ? equals &+ 1 : pair.upperBound
        if parameters.pointee.count >= limits.maxParameters || nameEnd &- pair.lowerBound > maxValueLength
            || pair.upperBound &- valueStart > maxValueLength
        {
            throw limitRefusal(pair, nameEnd: nameEnd, valueStart: valueStart)
        }
        if badUTF8 >= 0 { throw Self.badUTF8(at: badUTF8) }
        parameters.pointee.append(
            RawParameter(
                start: UInt32(truncatingIfNeeded: pair.lowerBound),
                nameEnd: UInt32(truncatingIfNeeded: nameEnd),
                end: UInt32(truncatingIfNeeded: pair.upperBound), escapes: escapes))
    }

    // Refusals built out of line, so that the loops that may throw them keep their
    // registers for the bytes.
    @inline(never)
    private static func badEscape(at offset: Int, in name: StaticString) -> ParseError {
        ParseError(.invalidPercentEncoding, at: offset, "'%' in the \(name) is not followed by two hexadecimal digits")
    }

    @inline(never)
    private static func badCharacter(_ byte: UInt8, at offset: Int, in name: StaticString) -> ParseError {
        ParseError(.invalidCharacter, at: offset, "the \(name) contains \(describeByte(byte))")
    }

    /// Which limit the pair broke, as the refusal to throw.
    @inline(never)
    private func limitRefusal(_ pair: Range<Int>, nameEnd: Int, valueStart: Int) -> ParseError {
        if parameters.pointee.count >= limits.maxParameters {
            return ParseError(.tooManyParameters, at: pair.lowerBound, "more than \(limits.maxParameters) parameters")
        }
        if nameEnd - pair.lowerBound > maxValueLength {
            return ParseError(.tooLong, at: pair.lowerBound, "a parameter name is longer than \(maxValueLength) bytes")
        }
        return ParseError(.tooLong, at: valueStart, "a parameter value is longer than \(maxValueLength) bytes")
    }

    @inline(never)
    private static func badUTF8(at offset: Int) -> ParseError {
        ParseError(.invalidUTF8, at: offset, "a decoded parameter is not valid UTF-8")
    }
}
