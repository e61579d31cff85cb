extension CallbackURL {
    /// Parses a URL string. Throws a ``ParseError`` with a reason code and byte offset.
    public init(parsing string: String, limits: ParsingLimits = .default) throws(ParseError) {
        var source = string
        source.makeContiguousUTF8()
        self.source = source
        self.parts = Parts()
        let owner = source // what hosts keep to read their text from
        // The parser writes the parts in place: the ~200-byte result is never copied.
        let failure: ParseError? = source.withUTF8 { bytes in
            withUnsafeMutablePointer(to: &self.parts) { parts in
                var parser = Parser(source: owner, limits: limits, bytes: bytes, parts: parts)
                return parser.run()
            }
        }
        if let failure { throw failure }
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
            throw ParseError(error.reason, at: offset,
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

    struct Parts {
        var schemeEnd = 0
        var authority: AuthorityRanges?
        var path = 0 ..< 0
        var query: Range<Int>?
        var fragment: Range<Int>?
        var parameters = ParameterStorage()
        var queryParameterCount = 0
    }
}

/// The single pass over the bytes. Every loop advances; nothing is rescanned more than a
/// constant number of times, so parsing is linear in the input.
private struct Parser {
    let source: String
    let limits: ParsingLimits
    let bytes: UnsafeBufferPointer<UInt8>
    /// The `CallbackURL`'s own parts, written in place.
    let parts: UnsafeMutablePointer<CallbackURL.Parts>

    init(source: String, limits: ParsingLimits, bytes: UnsafeBufferPointer<UInt8>,
         parts: UnsafeMutablePointer<CallbackURL.Parts>) {
        self.source = source
        self.limits = limits
        self.bytes = bytes
        self.parts = parts
    }

    /// Parses `bytes` (the UTF-8 of `source`) into `parts`; returns the refusal, if any.
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
        var i = try parseScheme()
        parts.pointee.schemeEnd = i
        i += 1 // ':'

        if i + 1 < n && bytes[i] == UInt8(ascii: "/") && bytes[i + 1] == UInt8(ascii: "/") {
            i = try parseAuthority(from: i + 2)
        }
        i = try scanComponent(from: i, allowed: .path, stopAtQuestionMark: true, name: "path")
        if i < n && bytes[i] == UInt8(ascii: "?") {
            let start = i + 1
            i = try scanParameters(from: start, allowed: .query, name: "query")
            parts.pointee.query = start ..< i
        }
        parts.pointee.queryParameterCount = parts.pointee.parameters.count
        if i < n && bytes[i] == UInt8(ascii: "#") {
            let start = i + 1
            i = try scanParameters(from: start, allowed: .fragment, name: "fragment")
            parts.pointee.fragment = start ..< i
        }
    }

    /// Returns the offset of the scheme's ':'.
    private func parseScheme() throws(ParseError) -> Int {
        // Fast path: a run of scheme characters, starting with a letter, then ':'.
        let table = CharacterClass.lookup
        let bit = CharacterClass.scheme.rawValue
        let n = bytes.count
        var end = 0
        while end < n && table[Int(bytes[end])] & bit != 0 { end += 1 }
        if end > 0 && end < n && bytes[end] == UInt8(ascii: ":") && (bytes[0] | 0x20) >= UInt8(ascii: "a")
            && (bytes[0] | 0x20) <= UInt8(ascii: "z") {
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
                throw ParseError(.invalidScheme, at: j,
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
        while end < n {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if isForbiddenEverywhere(byte) {
                throw ParseError(.invalidCharacter, at: end, "the authority contains \(describeByte(byte))")
            }
            if byte == UInt8(ascii: "@") {
                if at != nil {
                    throw ParseError(.invalidAuthority, at: end, "the authority contains more than one '@'")
                }
                at = end
            }
            end += 1
        }

        var userinfo: Range<Int>? = nil
        var hostStart = start
        if let at {
            try checkPercentEncoding(start ..< at)
            for j in start ..< at where !CharacterClass.userinfo.contains(bytes[j]) && bytes[j] != UInt8(ascii: "%") {
                throw ParseError(.invalidAuthority, at: j, "the userinfo contains \(describeByte(bytes[j]))")
            }
            userinfo = start ..< at
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
            while hostEnd < end && bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        }
        let host = try Host.parse(UnsafeBufferPointer(rebasing: bytes[hostStart ..< hostEnd]), base: hostStart)
            .attached(to: source, base: hostStart)

        var port: Int? = nil
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
            if end > hostEnd + 1 { port = value }
        }
        parts.pointee.authority = CallbackURL.AuthorityRanges(userinfo: userinfo, host: host, port: port)
        return end
    }

    /// Checks one component's bytes from `start` to its end; returns the end offset.
    /// Inlined so that `allowed` is a constant at each call and its mask folds in.
    /// The path stops at `?` or `#`, the query at `#`, the fragment at the end.
    @inline(__always)
    private mutating func scanComponent(from start: Int, allowed: CharacterClass, stopAtQuestionMark: Bool,
                                        name: StaticString) throws(ParseError) -> Int {
        let n = bytes.count
        let table = CharacterClass.lookup
        let bit = allowed.rawValue
        var i = start
        while i < n {
            while i < n && table[Int(bytes[i])] & bit != 0 { i &+= 1 }
            if i == n { break }
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < n, CharacterClass.hexDigit.contains(bytes[i + 1]),
                      CharacterClass.hexDigit.contains(bytes[i + 2]) else {
                    throw ParseError(.invalidPercentEncoding, at: i, "'%' in the \(name) is not followed by two hexadecimal digits")
                }
                i += 3
                continue
            }
            if allowed != .fragment && byte == UInt8(ascii: "#") { break }
            if stopAtQuestionMark && byte == UInt8(ascii: "?") { break }
            throw ParseError(.invalidCharacter, at: i, "the \(name) contains \(describeByte(byte))")
        }
        if allowed == .path { parts.pointee.path = start ..< i }
        return i
    }

    private func checkPercentEncoding(_ range: Range<Int>) throws(ParseError) {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < range.upperBound, CharacterClass.hexDigit.contains(bytes[i + 1]),
                      CharacterClass.hexDigit.contains(bytes[i + 2]) else {
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
        let table = CharacterClass.lookup
        let bit = allowed.rawValue
        let plainBits = bit | CharacterClass.formDelimiter.rawValue
        var pairStart = start
        var equals = -1
        var sawPercent = false
        // Bit 0: the name needs decoding; bit 1: the value does.
        var escapes: UInt8 = 0
        var i = start
        while i < n {
            // The tight loop over plain bytes, then one byte of structure.
            while i < n && table[Int(bytes[i])] & plainBits == bit { i &+= 1 }
            if i == n { break }
            let byte = bytes[i]
            let entry = table[Int(byte)]
            if byte == UInt8(ascii: "&") {
                if i > pairStart { try addParameter(pairStart ..< i, equals: equals, checkUTF8: sawPercent, escapes: escapes) }
                pairStart = i + 1
                equals = -1
                sawPercent = false
                escapes = 0
                i += 1
            } else if byte == UInt8(ascii: "=") {
                if equals < 0 { equals = i }
                i += 1
            } else if byte == UInt8(ascii: "%") {
                guard i + 2 < n, CharacterClass.hexDigit.contains(bytes[i + 1]),
                      CharacterClass.hexDigit.contains(bytes[i + 2]) else {
                    throw ParseError(.invalidPercentEncoding, at: i, "'%' in the \(name) is not followed by two hexadecimal digits")
                }
                sawPercent = true
                escapes |= equals < 0 ? 1 : 2
                i += 3
            } else if byte == UInt8(ascii: "+") {
                escapes |= equals < 0 ? 1 : 2
                i += 1
            } else if entry & bit != 0 {
                i += 1
            } else if byte == UInt8(ascii: "#") && allowed == .query {
                break
            } else {
                throw ParseError(.invalidCharacter, at: i, "the \(name) contains \(describeByte(byte))")
            }
        }
        if i > pairStart { try addParameter(pairStart ..< i, equals: equals, checkUTF8: sawPercent, escapes: escapes) }
        return i
    }

    /// Records one pair after checking the limits and, when it holds escapes, that its
    /// decoded bytes are UTF-8 (raw bytes are already known to be ASCII).
    private mutating func addParameter(_ pair: Range<Int>, equals: Int, checkUTF8: Bool, escapes: UInt8) throws(ParseError) {
        guard parts.pointee.parameters.count < limits.maxParameters else {
            throw ParseError(.tooManyParameters, at: pair.lowerBound, "more than \(limits.maxParameters) parameters")
        }
        let nameEnd = equals >= 0 ? equals : pair.upperBound
        let valueStart = equals >= 0 ? equals + 1 : pair.upperBound
        let maxValueLength = min(max(0, limits.maxValueLength), ParsingLimits.largestLength)
        if nameEnd - pair.lowerBound > maxValueLength {
            throw ParseError(.tooLong, at: pair.lowerBound, "a parameter name is longer than \(maxValueLength) bytes")
        }
        if pair.upperBound - valueStart > maxValueLength {
            throw ParseError(.tooLong, at: valueStart, "a parameter value is longer than \(maxValueLength) bytes")
        }
        if checkUTF8 {
            try checkDecodedUTF8(pair.lowerBound ..< nameEnd)
            try checkDecodedUTF8(valueStart ..< pair.upperBound)
        }
        parts.pointee.parameters.append(RawParameter(start: UInt32(pair.lowerBound), nameEnd: UInt32(nameEnd),
                                             end: UInt32(pair.upperBound), escapes: escapes))
    }

    private func checkDecodedUTF8(_ part: Range<Int>) throws(ParseError) {
        if let bad = PercentDecoding.firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[part]), plusIsSpace: true) {
            throw ParseError(.invalidUTF8, at: part.lowerBound + bad, "a decoded parameter is not valid UTF-8")
        }
    }
}
