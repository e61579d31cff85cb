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

/// The `state` a callback carries, read from its raw text: the tie of a callback that was
/// refused (for its syntax, a parameter twice, a bad `iss`) to the attempt it answers.
///
/// Only the holder of an attempt's state can send a callback carrying it, so a refused
/// callback with that state is the provider's (or the app's own) final word on that
/// attempt: the loopback receiver and ``CallbackRouter/handle(_:)-(String)`` end the
/// attempt with the refusal instead of waiting out its timeout. One reader for both.
package enum RawState {
    /// The one `state` in the query of `text` (before any `#`), or in its fragment
    /// (`fragment`: after the first `#`), percent-decoded (`+` is a space, as the parser
    /// reads a query). Nil when there is none, two or more, or one that does not decode:
    /// no tie. Read from the raw bytes, so the rest may be anything the parser refuses.
    package static func value(in text: String, fragment: Bool = false) -> [UInt8]? {
        let bytes = Array(text.utf8)
        let hash = bytes.firstIndex(of: UInt8(ascii: "#"))
        let start: Int, end: Int
        if fragment {
            guard let hash else { return nil }
            (start, end) = (hash + 1, bytes.endIndex)
        } else {
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")), hash.map({ question < $0 }) ?? true else { return nil }
            (start, end) = (question + 1, hash ?? bytes.endIndex)
        }
        var value: [UInt8]?
        var count = 0
        for pair in bytes[start ..< end].split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard let name = percentDecoded(pair[..<equals]), name.elementsEqual("state".utf8) else { continue }
            count += 1
            value = equals == pair.endIndex ? [] : percentDecoded(pair[(equals + 1)...])
        }
        guard count == 1 else { return nil }
        return value
    }

    /// Whether `text` carries exactly one `state` (see ``value(in:fragment:)``) equal to
    /// `expected`, compared in constant time.
    package static func carries(_ text: String, state expected: String) -> Bool {
        guard let value = value(in: text) else { return false }
        return constantTimeEquals(value, expected.utf8)
    }

    /// `%XX` and `+` decoded; nil for a `%` not followed by two hex digits.
    private static func percentDecoded(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
