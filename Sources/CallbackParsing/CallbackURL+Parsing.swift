extension CallbackURL {
    /// Parses a URL string. Throws a ``ParseError`` with a reason code and byte offset.
    public init(parsing string: String, limits: ParsingLimits = .default) throws(ParseError) {
        var source = string
        source.makeContiguousUTF8()
        let parts = try source.withUTF8 { bytes in Parser.run(bytes, limits) }.get()
        self.init(source: source, parts: parts)
    }

    /// Parses a URL from any collection of UTF-8 bytes (`[UInt8]`, `ArraySlice`, a buffer…).
    public init<Bytes: Collection>(parsing utf8: Bytes, limits: ParsingLimits = .default) throws(ParseError)
    where Bytes.Element == UInt8 {
        if let result = utf8.withContiguousStorageIfAvailable({ bytes in Parser.run(bytes, limits) }) {
            let parts = try result.get()
            self.init(source: String(decoding: utf8, as: UTF8.self), parts: parts)
        } else {
            try self.init(parsing: Array(utf8), limits: limits)
        }
    }

    private init(source: String, parts: Parts) {
        self.source = source
        self.schemeEnd = parts.schemeEnd
        self.authority = parts.authority
        self.pathRange = parts.path
        self.queryRange = parts.query
        self.fragmentRange = parts.fragment
        self.rawParameters = parts.parameters
        self.queryParameterCount = parts.queryParameterCount
        #if DEBUG
        checkInvariants()
        #endif
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
        precondition(queryParameterCount <= rawParameters.count)
    }
    #endif

    struct Parts {
        var schemeEnd = 0
        var authority: AuthorityRanges?
        var path = 0 ..< 0
        var query: Range<Int>?
        var fragment: Range<Int>?
        var parameters: [RawParameter] = []
        var queryParameterCount = 0
    }
}

/// The single pass over the bytes. Every loop advances; nothing is rescanned more than a
/// constant number of times, so parsing is linear in the input.
private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: ParsingLimits
    var parts = CallbackURL.Parts()

    init(bytes: UnsafeBufferPointer<UInt8>, limits: ParsingLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    static func run(_ bytes: UnsafeBufferPointer<UInt8>, _ limits: ParsingLimits) -> Result<CallbackURL.Parts, ParseError> {
        var parser = Parser(bytes: bytes, limits: limits)
        return Result { () throws(ParseError) in try parser.parse() }
    }

    mutating func parse() throws(ParseError) -> CallbackURL.Parts {
        let n = bytes.count
        guard n > 0 else { throw ParseError(.emptyInput, at: nil, "the URL is empty") }
        // The properties are settable past what init clamps: offsets are stored in 32 bits.
        let maxLength = min(max(0, limits.maxLength), ParsingLimits.largestLength)
        guard n <= maxLength else {
            throw ParseError(.tooLong, at: maxLength, "the URL is longer than \(maxLength) bytes")
        }
        var i = try parseScheme()
        parts.schemeEnd = i
        i += 1 // ':'

        if i + 1 < n && bytes[i] == UInt8(ascii: "/") && bytes[i + 1] == UInt8(ascii: "/") {
            i = try parseAuthority(from: i + 2)
        }
        i = try scanComponent(from: i, allowed: .path, stopAtQuestionMark: true, name: "path")
        if i < n && bytes[i] == UInt8(ascii: "?") {
            let start = i + 1
            i = try scanComponent(from: start, allowed: .query, stopAtQuestionMark: false, name: "query")
            parts.query = start ..< i
            try splitParameters(start ..< i)
        }
        parts.queryParameterCount = parts.parameters.count
        if i < n && bytes[i] == UInt8(ascii: "#") {
            let start = i + 1
            i = try scanComponent(from: start, allowed: .fragment, stopAtQuestionMark: false, name: "fragment")
            parts.fragment = start ..< i
            try splitParameters(start ..< i)
        }
        return parts
    }

    /// Returns the offset of the scheme's ':'.
    private func parseScheme() throws(ParseError) -> Int {
        let table = CharacterClass.table
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
            if j == 0 ? !isAlpha : table[Int(byte)] & CharacterClass.scheme.rawValue == 0 {
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
            for j in start ..< at where CharacterClass.table[Int(bytes[j])] & CharacterClass.userinfo.rawValue == 0
                && bytes[j] != UInt8(ascii: "%") {
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
        parts.authority = CallbackURL.AuthorityRanges(userinfo: userinfo, host: host, port: port)
        return end
    }

    /// Checks one component's bytes from `start` to its end; returns the end offset.
    /// The path stops at `?` or `#`, the query at `#`, the fragment at the end.
    private mutating func scanComponent(from start: Int, allowed: CharacterClass, stopAtQuestionMark: Bool,
                                        name: StaticString) throws(ParseError) -> Int {
        let table = CharacterClass.table
        let n = bytes.count
        var i = start
        while i < n {
            let byte = bytes[i]
            if table[Int(byte)] & allowed.rawValue != 0 { i += 1; continue }
            if byte == UInt8(ascii: "%") {
                guard i + 2 < n,
                      table[Int(bytes[i + 1])] & CharacterClass.hexDigit.rawValue != 0,
                      table[Int(bytes[i + 2])] & CharacterClass.hexDigit.rawValue != 0 else {
                    throw ParseError(.invalidPercentEncoding, at: i, "'%' in the \(name) is not followed by two hexadecimal digits")
                }
                i += 3
                continue
            }
            if allowed != .fragment && byte == UInt8(ascii: "#") { break }
            if stopAtQuestionMark && byte == UInt8(ascii: "?") { break }
            throw ParseError(.invalidCharacter, at: i, "the \(name) contains \(describeByte(byte))")
        }
        if allowed == .path { parts.path = start ..< i }
        return i
    }

    private func checkPercentEncoding(_ range: Range<Int>) throws(ParseError) {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < range.upperBound,
                      CharacterClass.table[Int(bytes[i + 1])] & CharacterClass.hexDigit.rawValue != 0,
                      CharacterClass.table[Int(bytes[i + 2])] & CharacterClass.hexDigit.rawValue != 0 else {
                    throw ParseError(.invalidPercentEncoding, at: i, "'%' is not followed by two hexadecimal digits")
                }
                i += 3
            } else {
                i += 1
            }
        }
    }

    /// Splits a validated query or fragment into form-urlencoded pairs: `&` separates,
    /// empty pairs are skipped, the first `=` splits name from value.
    private mutating func splitParameters(_ range: Range<Int>) throws(ParseError) {
        var pairStart = range.lowerBound
        var equals: Int? = nil
        var i = range.lowerBound
        while i <= range.upperBound {
            if i == range.upperBound || bytes[i] == UInt8(ascii: "&") {
                if i > pairStart { try addParameter(pairStart ..< i, equals: equals) }
                pairStart = i + 1
                equals = nil
            } else if equals == nil && bytes[i] == UInt8(ascii: "=") {
                equals = i
            }
            i += 1
        }
    }

    private mutating func addParameter(_ pair: Range<Int>, equals: Int?) throws(ParseError) {
        guard parts.parameters.count < limits.maxParameters else {
            throw ParseError(.tooManyParameters, at: pair.lowerBound, "more than \(limits.maxParameters) parameters")
        }
        let name = pair.lowerBound ..< (equals ?? pair.upperBound)
        let value = (equals.map { $0 + 1 } ?? pair.upperBound) ..< pair.upperBound
        for part in [name, value] {
            guard part.count <= limits.maxValueLength else {
                throw ParseError(.tooLong, at: part.lowerBound, "a parameter is longer than \(limits.maxValueLength) bytes")
            }
            let raw = UnsafeBufferPointer(rebasing: bytes[part])
            if let bad = PercentDecoding.firstInvalidUTF8(raw, plusIsSpace: true) {
                throw ParseError(.invalidUTF8, at: part.lowerBound + bad, "a decoded parameter is not valid UTF-8")
            }
        }
        parts.parameters.append(RawParameter(
            nameStart: Int32(name.lowerBound), nameEnd: Int32(name.upperBound),
            valueStart: Int32(value.lowerBound), valueEnd: Int32(value.upperBound),
            hasEquals: equals != nil))
    }
}
