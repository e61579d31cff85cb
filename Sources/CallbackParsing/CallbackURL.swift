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

/// An absolute URI (RFC 3986) as a redirect callback delivers it, parsed once, over bytes.
///
/// Components are kept exactly as written (for exact matching) and are available decoded.
/// The query and the fragment are also read as `application/x-www-form-urlencoded`
/// parameters (RFC 6749 §4.1.2). Parsing refuses what no browser delivers (controls,
/// spaces, non-ASCII, malformed escapes, a missing scheme) with a ``ParseError``; see
/// docs/parsing.md for the grammar and the character table of every component.
///
/// ```swift
/// let url = try CallbackURL(parsing: "com.example.app:/oauth2redirect?code=abc&state=xyz")
/// url.scheme                               // "com.example.app"
/// try url.queryParameters.value(named: "code")  // "abc"
/// ```
///
/// `description` never shows parameter values or userinfo: print it freely.
public struct CallbackURL: Sendable {
    /// The input as given; only ASCII once parsing succeeded.
    @usableFromInline let source: String
    /// Where each component stands in `source`: 32-bit offsets and flags only, so that
    /// parsing allocates nothing and a copy of the URL is a copy of plain bytes plus the
    /// string's reference.
    var parts: Parts
    /// Where each parameter stands: the first eight inline, the rest in an array.
    var parameters: ParameterStorage

    var schemeEnd: Int { Int(parts.schemeEnd) }
    var pathRange: Range<Int> { Int(parts.pathStart) ..< Int(parts.pathEnd) }
    var queryRange: Range<Int>? {
        parts.flags.contains(.query) ? Int(parts.pathEnd) + 1 ..< Int(parts.queryEnd) : nil
    }
    var fragmentRange: Range<Int>? {
        parts.flags.contains(.fragment) ? Int(parts.fragmentStart) ..< Int(parts.length) : nil
    }
    /// How many of `parameters` come from the query (the rest are the fragment's).
    package var queryParameterCount: Int { Int(parts.queryParameterCount) }

    /// The fragment's length in bytes (without `#`), nil when there is no `#`: a check that
    /// makes no string.
    package var fragmentUTF8Count: Int? { fragmentRange?.count }

    /// The authority's pieces, made on access (descriptions, printing).
    var authority: AuthorityRanges? {
        guard parts.flags.contains(.authority) else { return nil }
        return AuthorityRanges(userinfo: userinfoRange, host: hostValue, port: portValue)
    }

    private var userinfoRange: Range<Int>? {
        parts.flags.contains(.userinfo) ? schemeEnd + 3 ..< Int(parts.userinfoEnd) : nil
    }

    private var hostValue: Host {
        Host(parts.host, source: source, range: Int(parts.hostStart) ..< Int(parts.hostEnd))
    }

    private var portValue: Int? { parts.flags.contains(.port) ? Int(parts.port) : nil }

    struct AuthorityRanges: Sendable {
        let userinfo: Range<Int>?
        let host: Host
        let port: Int?
    }

    /// The URL exactly as given to the parser (printable ASCII only, since it parsed).
    /// Send this, not ``serialized``, where a peer compares strings (`redirect_uri`).
    public var string: String { source }

    /// The scheme, lowercased (`myapp`, `com.example.app`, `https`).
    public var scheme: String {
        let raw = substring(0 ..< schemeEnd)
        return raw.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? raw.lowercased() : raw
    }

    /// Whether two URLs have the same scheme (case-insensitively), without making strings.
    public func hasSameScheme(as other: CallbackURL) -> Bool {
        guard schemeEnd == other.schemeEnd else { return false }
        return withBytes(0 ..< schemeEnd, of: other, 0 ..< other.schemeEnd) { a, b in
            // Scheme bytes: letters fold, and the rest (digits, `+ - .`) are fixed by | 0x20.
            for i in 0 ..< a.count where a[i] | 0x20 != b[i] | 0x20 { return false }
            return true
        }
    }

    /// Whether the scheme is `name` (give it lowercased), without making a string.
    public func hasScheme(_ name: String) -> Bool {
        guard name.utf8.count == schemeEnd else { return false }
        return withContiguousUTF8(source) { bytes in
            withContiguousUTF8(name) { expected in
                zip(bytes[0 ..< schemeEnd], expected).allSatisfy { $0 | 0x20 == $1 }
            }
        }
    }

    /// Whether two URLs have byte-for-byte the same path as written, without making strings.
    public func hasSamePath(as other: CallbackURL) -> Bool {
        guard pathRange.count == other.pathRange.count else { return false }
        return withBytes(pathRange, of: other, other.pathRange) { a, b in
            // Eight bytes a round, then the tail.
            var i = 0
            if a.count >= 8, let x = a.baseAddress, let y = b.baseAddress {
                let p = UnsafeRawPointer(x), q = UnsafeRawPointer(y)
                while i + 8 <= a.count {
                    if p.loadUnaligned(fromByteOffset: i, as: UInt64.self) != q.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                        return false
                    }
                    i += 8
                }
            }
            while i < a.count {
                if a[i] != b[i] { return false }
                i += 1
            }
            return true
        }
    }

    private func withBytes(
        _ range: Range<Int>, of other: CallbackURL, _ otherRange: Range<Int>,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        withContiguousUTF8(source) { x in
            withContiguousUTF8(other.source) { y in
                body(UnsafeBufferPointer(rebasing: x[range]), UnsafeBufferPointer(rebasing: y[otherRange]))
            }
        }
    }

    /// Whether the URI has an authority (`scheme://…`).
    public var hasAuthority: Bool { parts.flags.contains(.authority) }

    /// The userinfo as written (before `@`), or nil. Policy refuses it in callbacks.
    public var userinfo: String? { userinfoRange.map(substring) }

    /// The host, or nil when there is no authority (`com.example.app:/path`).
    public var host: Host? { hasAuthority ? hostValue : nil }

    /// The port number, or nil when none is written.
    public var port: Int? { portValue }

    /// The path exactly as written (not decoded); may be empty.
    public var path: String { substring(pathRange) }

    /// The path as written, as a `Substring` of the URL: no copy.
    public var pathSlice: Substring { slice(pathRange) }

    /// The query as written, without `?`; nil when there is no `?`, empty for a bare `?`.
    public var query: String? { queryRange.map(substring) }

    /// The fragment as written, without `#`; nil when there is no `#`.
    public var fragment: String? { fragmentRange.map(substring) }

    /// The query's parameters, decoded, in order, duplicates kept.
    public var queryParameters: Parameters {
        Parameters(source: source, storage: parameters, positions: 0 ..< queryParameterCount)
    }

    /// Calls `body` with each query parameter's name and value, decoded, as UTF-8 bytes:
    /// ``Parameters/forEachDecodedUTF8(_:)`` without making the ``Parameters`` view (no
    /// copy of the parameter table, one reference to the URL's string fewer). The fastest
    /// way to read a callback's response; the buffers are valid only during the call.
    public func forEachQueryParameterUTF8(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let count = queryParameterCount
        guard count > 0 else { return }
        try withContiguousUTF8(source) { bytes in
            try Parameters.forEachDecodedUTF8(bytes, parameters, 0 ..< count, body)
        }
    }

    /// The fragment's parameters, decoded, in order, duplicates kept.
    public var fragmentParameters: Parameters {
        Parameters(source: source, storage: parameters, positions: queryParameterCount ..< parameters.count)
    }

    /// The path, percent-decoded. Throws `invalid_utf8` when the decoded bytes are not UTF-8.
    public func decodedPath() throws(ParseError) -> String {
        try decodedComponent(pathRange, name: "path")
    }

    /// The fragment, percent-decoded (`+` stays `+`), or nil when there is none.
    public func decodedFragment() throws(ParseError) -> String? {
        guard let fragmentRange else { return nil }
        return try decodedComponent(fragmentRange, name: "fragment")
    }

    /// The URL printed back from its components: scheme lowercased, registered-name host
    /// lowercased, port in plain decimal, everything else as written. Parsing it gives
    /// components identical to this one's (the round trip the fuzzer checks).
    public var serialized: String {
        var out = scheme + ":"
        if let authority {
            out += "//"
            if let userinfo = authority.userinfo { out += substring(userinfo) + "@" }
            out += authority.host.text
            if let port = authority.port { out += ":" + String(port) }
        }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    func substring(_ range: Range<Int>) -> String {
        String(slice(range))
    }

    func slice(_ range: Range<Int>) -> Substring {
        let utf8 = source.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return Substring(utf8[start ..< utf8.index(start, offsetBy: range.count)])
    }

    private func decodedComponent(_ range: Range<Int>, name: String) throws(ParseError) -> String {
        var source = source
        return try source.withUTF8 { bytes -> Result<String, ParseError> in
            let raw = UnsafeBufferPointer(rebasing: bytes[range])
            if let bad = PercentDecoding.firstInvalidUTF8(raw, plusIsSpace: false) {
                return .failure(ParseError(.invalidUTF8, at: range.lowerBound + bad, "the decoded \(name) is not valid UTF-8"))
            }
            return .success(PercentDecoding.decode(raw, plusIsSpace: false))
        }.get()
    }
}

extension CallbackURL: Equatable {
    /// Equal when every component is identical (as written; scheme and registered-name
    /// host compared lowercased, ports by value).
    public static func == (a: CallbackURL, b: CallbackURL) -> Bool {
        a.scheme == b.scheme && a.userinfo == b.userinfo && a.host?.text == b.host?.text
            && a.host?.kind == b.host?.kind && a.port == b.port && a.path == b.path
            && a.query == b.query && a.fragment == b.fragment
    }
}

extension CallbackURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Scheme, host, port and path; parameter names only; userinfo and values redacted.
    public var description: String {
        var out = "CallbackURL(" + scheme + ":"
        if let authority {
            out += "//"
            if let userinfo = authority.userinfo { out += "<redacted userinfo, \(userinfo.count) bytes>@" }
            out += authority.host.text
            if let port = authority.port { out += ":" + String(port) }
        }
        out += path
        if queryRange != nil { out += ", query: " + queryParameters.redactedSummary }
        if fragmentRange != nil { out += ", fragment: " + fragmentParameters.redactedSummary }
        return out + ")"
    }

    /// The same redacted text as `description`: debuggers and `print` never show a value.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the stored input.
    public var customMirror: Mirror { Mirror(self, children: ["url": description], displayStyle: .struct) }
}
