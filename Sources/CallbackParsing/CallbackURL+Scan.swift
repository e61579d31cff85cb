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

/// What `CallbackRouter` reads in place, without closures per parameter or copies of the
/// parameter table: the one-pass classifier and the redirect-URI match.
/// `package`, not public: the offsets and flags are the parser's, not an API.

extension CallbackURL {
    /// Writes where each query parameter stands into `located` (room for
    /// ``queryParameterCount`` of them), in order; returns how many it wrote. Their bytes are
    /// ``sourceText``'s. A plain function, not one that takes a closure: a closure passed to
    /// another module is not inlined, and what it computes is copied out through a capture.
    package func locateQueryParameters(into located: UnsafeMutablePointer<LocatedParameter>) -> Int {
        let count = queryParameterCount
        var index = 0
        parameters.forEach(in: 0 ..< count) { raw in
            let values = raw.valueRange
            (located + index).initialize(
                to: LocatedParameter(
                    nameStart: raw.start, nameEnd: raw.nameEnd, valueStart: UInt32(truncatingIfNeeded: values.lowerBound),
                    valueEnd: UInt32(truncatingIfNeeded: values.upperBound), nameNeedsDecoding: raw.nameNeedsDecoding,
                    valueNeedsDecoding: raw.valueNeedsDecoding))
            index += 1
        }
        return count
    }

    /// The longest parameter (name, `=` and value, as written) that holds `%XX` or `+`; 0
    /// when none does. Decoding never lengthens, so a scratch buffer this long holds any
    /// decoded name or value.
    package var longestEscapedParameterLength: Int { Int(parameters.longestEscapedPair) }

    /// Decodes `raw` by the form rules (`%XX`, `+` is a space) into `out`, which has room
    /// for `raw.count` bytes; returns how many it wrote.
    package static func decodeFormBytes(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        PercentDecoding.decode(raw, into: out)
    }

    /// The decoded value `start ..< end` of a parameter of the URL whose text is `source`,
    /// as a `String` (the parser checked that its decoded bytes are UTF-8).
    package static func formValue(in source: String, _ start: Int, _ end: Int, needsDecoding: Bool) -> String {
        withContiguousUTF8(source) { bytes in
            let raw = UnsafeBufferPointer(rebasing: bytes[start ..< end])
            guard needsDecoding else { return String(decoding: raw, as: UTF8.self) }
            return PercentDecoding.decode(raw, plusIsSpace: true)
        }
    }

    /// The URL's text: the bytes ``locateQueryParameters(into:)`` points into, and what a
    /// value that reads parameters later keeps (``formValue(in:_:_:needsDecoding:)``).
    @inlinable package var sourceText: String { source }

    /// For a URL without userinfo, port, query or fragment, whose host (if any) is a
    /// registered name (`com.example.app:/oauth2redirect`, `myapp://oauth-callback`): how many
    /// of its leading bytes compare case-insensitively (the scheme, and `://` and the host);
    /// nil for any other URL. What ``isPlain(_:foldedLength:)`` takes.
    package var plainFoldedLength: Int? {
        guard !parts.flags.contains(.userinfo), !parts.flags.contains(.port), !parts.flags.contains(.query),
            !parts.flags.contains(.fragment)
        else { return nil }
        guard hasAuthority else { return schemeEnd }
        return parts.host.kind == .registeredName ? Int(parts.hostEnd) : nil
    }

    /// Whether this URL is, up to its query, `text` (the UTF-8 of a URL with
    /// ``plainFoldedLength`` equal to `foldedLength`): the first `foldedLength` bytes equal but
    /// for ASCII case (scheme and registered-name host: the bytes allowed there collide under
    /// `| 0x20` only for letters), the rest (the path) byte for byte, with no userinfo and no
    /// port. Equal bytes parse to equal components, so such a URL answers `text` by every rule
    /// of `RedirectURI`'s matching; one reading of both instead of one per component. `text`
    /// is bytes the caller keeps (an array's storage), so that only this URL's string is
    /// opened here.
    package func isPlain(_ text: UnsafeBufferPointer<UInt8>, foldedLength: Int) -> Bool {
        let end = Int(parts.pathEnd)
        let folded = hasAuthority ? Int(parts.hostEnd) : schemeEnd
        guard folded == foldedLength, end == text.count, !parts.flags.contains(.userinfo), !parts.flags.contains(.port)
        else { return false }
        guard let b = text.baseAddress else { return end == 0 }
        @inline(__always)
        func equal(_ x: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let a = x.baseAddress else { return end == 0 }
            return Self.bytesEqual(a, b, folded, folding: 0x20) && Self.bytesEqual(a + folded, b + folded, end &- folded, folding: 0)
        }
        // The standard library's contiguous path written here: through the generic
        // `withContiguousUTF8` the comparison was a closure call of its own.
        if let result = source.utf8.withContiguousStorageIfAvailable(equal) { return result }
        var copy = source
        return copy.withUTF8(equal)
    }

    /// Whether `count` bytes at `a` and `b` are equal once each is OR-ed with `folding`
    /// (0x20 folds the case of scheme bytes: letters, and digits and `+ - .`, which have the
    /// bit set already): eight bytes a round, the tail as the last eight (overlapping).
    @inline(__always)
    static func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int, folding: UInt8) -> Bool {
        let p = UnsafeRawPointer(a), q = UnsafeRawPointer(b)
        let mask = UInt64(folding) &* 0x0101_0101_0101_0101
        var i = 0
        if count >= 8 {
            while i &+ 8 <= count {
                let x = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let y = q.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if x | mask != y | mask { return false }
                i &+= 8
            }
            let last = count &- 8
            return p.loadUnaligned(fromByteOffset: last, as: UInt64.self) | mask
                == q.loadUnaligned(fromByteOffset: last, as: UInt64.self) | mask
        }
        while i < count {
            if a[i] | folding != b[i] | folding { return false }
            i &+= 1
        }
        return true
    }
}
