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

/// A strict JSON reader over UTF-8 bytes (RFC 8259), for the documents an authorization
/// server sends: token responses, discovery metadata, ID token claims.
///
/// Strict means every document RFC 8259 does not define is refused, with a ``ReasonCode``
/// and the byte offset where reading stopped:
/// - `empty_input`: nothing but whitespace;
/// - `invalid_character`: a byte the grammar does not allow there (a BOM, a comment, a
///   trailing comma, a single quote, a leading zero, `NaN`, a raw control character in a
///   string, a bad escape, text after the value), or the document ending early (the
///   offset is then the document's length);
/// - `invalid_utf8`: a byte sequence that is not UTF-8 (overlong forms, encoded
///   surrogates, past U+10FFFF), or a `\u` escape of a lone surrogate;
/// - `duplicate_parameter`: an object names a member twice (RFC 8259 §4 leaves the meaning
///   to the reader; two readers that pick different members are an attack surface,
///   RFC 7519 §4 and OIDC require refusing them), compared after unescaping;
/// - `too_long`: the document, a string or a number past ``JSONLimits``, or nesting deeper
///   than its depth;
/// - `too_many_parameters`: an object or array with more members than the limit.
///
/// Errors never show string content (a token may be in it); a member name shows only
/// when it looks like a parameter name (``ParameterName``).
package enum JSONReader {
    /// Reads one JSON document.
    package static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws(CallbackError) -> JSONValue {
        let result: Result<JSONValue, CallbackError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(CallbackError) -> JSONValue in
                var parser = Parser(bytes: buffer, limits: limits)
                return try parser.document()
            }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer throws(CallbackError) -> JSONValue in
            var parser = Parser(bytes: buffer, limits: limits)
            return try parser.document()
        }
    }

    /// Reads one JSON document from a string's UTF-8.
    package static func parse(_ text: String, limits: JSONLimits = .default) throws(CallbackError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: JSONLimits
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func document() throws(CallbackError) -> JSONValue {
            guard bytes.count <= limits.maxBytes else {
                throw CallbackError(
                    .tooLong, at: limits.maxBytes, "the JSON document is \(bytes.count) bytes long; at most \(limits.maxBytes) are accepted"
                )
            }
            skipWhitespace()
            guard index < bytes.count else {
                throw CallbackError(.emptyInput, at: index, "the JSON document is empty")
            }
            let value = try value(depth: 0)
            skipWhitespace()
            guard index == bytes.count else {
                throw CallbackError(.invalidCharacter, at: index, "the JSON document continues after its value")
            }
            return value
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func endedEarly() -> CallbackError {
            CallbackError(.invalidCharacter, at: bytes.count, "the JSON document ends early")
        }

        func unexpected(_ what: String) -> CallbackError {
            if index >= bytes.count { return endedEarly() }
            return CallbackError(.invalidCharacter, at: index, "expected \(what) in the JSON document (byte 0x\(hex(bytes[index])))")
        }

        mutating func value(depth: Int) throws(CallbackError) -> JSONValue {
            guard index < bytes.count else { throw endedEarly() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                return .number(try number())
            default:
                throw unexpected("a value")
            }
        }

        mutating func literal(_ word: StaticString) throws(CallbackError) {
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for expected in text {
                guard index < bytes.count else { throw endedEarly() }
                guard bytes[index] == expected else { throw unexpected("'\(word)'") }
                index += 1
            }
        }

        mutating func enter(depth: Int) throws(CallbackError) {
            guard depth <= limits.maxDepth else {
                throw CallbackError(.tooLong, at: index, "the JSON document nests deeper than \(limits.maxDepth) levels")
            }
            index += 1 // the bracket
            skipWhitespace()
        }

        mutating func object(depth: Int) throws(CallbackError) -> JSONValue {
            try enter(depth: depth)
            var members: [(String, JSONValue)] = []
            var names = Set<String>()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                let nameOffset = index
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected("a member name") }
                guard members.count < limits.maxMembers else {
                    throw CallbackError(
                        .tooManyParameters, at: nameOffset, "a JSON object has more than \(limits.maxMembers) members")
                }
                let name = try string()
                guard names.insert(name).inserted else {
                    throw CallbackError(
                        .duplicateParameter, at: nameOffset,
                        "the JSON object names the member '\(ParameterName.shown(name))' twice")
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected("':'") }
                index += 1
                skipWhitespace()
                members.append((name, try value(depth: depth)))
                skipWhitespace()
                guard index < bytes.count else { throw endedEarly() }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw unexpected("',' or '}'") }
                index += 1
                skipWhitespace()
            }
        }

        mutating func array(depth: Int) throws(CallbackError) -> JSONValue {
            try enter(depth: depth)
            var elements: [JSONValue] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard elements.count < limits.maxMembers else {
                    throw CallbackError(
                        .tooManyParameters, at: index, "a JSON array has more than \(limits.maxMembers) elements")
                }
                elements.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw endedEarly() }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw unexpected("',' or ']'") }
                index += 1
                skipWhitespace()
            }
        }

        /// RFC 8259 §6: `-? (0 / [1-9] DIGIT*) (. DIGIT+)? ([eE] [+-]? DIGIT+)?`.
        mutating func number() throws(CallbackError) -> JSONNumber {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw endedEarly() }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if isDigit(bytes[index]) {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            } else {
                throw unexpected("a digit")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw unexpected("a digit after '.'") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw unexpected("a digit in the exponent") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            // A digit right after a leading zero ("01") is not a number.
            if index < bytes.count, isDigit(bytes[index]) { throw unexpected("no digit after a leading zero") }
            guard index - start <= limits.maxStringBytes else {
                throw CallbackError(
                    .tooLong, at: start, "a JSON number is \(index - start) bytes long; at most \(limits.maxStringBytes) are accepted")
            }
            return JSONNumber(uncheckedText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self))
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        /// A string starting at the opening quote; its decoded, UTF-8-validated text.
        mutating func string() throws(CallbackError) -> String {
            let start = index
            index += 1
            // Runs without an escape are copied whole.
            var out: [UInt8] = []
            var copiedUpTo = index
            while true {
                guard index < bytes.count else { throw endedEarly() }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo ..< index]))
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo ..< index]))
                    try escape(into: &out)
                    copiedUpTo = index
                case 0x00 ..< 0x20:
                    throw CallbackError(
                        .invalidCharacter, at: index, "a JSON string contains the control byte 0x\(hex(byte)) unescaped")
                case 0x20 ..< 0x80:
                    index += 1
                default:
                    try utf8Sequence()
                }
                // Decoded so far: what was copied plus the raw run not yet copied.
                if out.count + (index - copiedUpTo) > limits.maxStringBytes {
                    throw CallbackError(.tooLong, at: start, "a JSON string is longer than \(limits.maxStringBytes) bytes")
                }
            }
        }

        /// Steps over one multi-byte UTF-8 sequence starting at `index`, or throws
        /// `invalid_utf8` at its first byte (Unicode Table 3-7, well-formed sequences only).
        mutating func utf8Sequence() throws(CallbackError) {
            let lead = bytes[index]
            let count: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2 ... 0xDF: count = 1
            case 0xE0: count = 2; low = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: count = 2
            case 0xED: count = 2; high = 0x9F
            case 0xF0: count = 3; low = 0x90
            case 0xF1 ... 0xF3: count = 3
            case 0xF4: count = 3; high = 0x8F
            default: throw CallbackError(.invalidUTF8, at: index, "a JSON string contains a byte that is not UTF-8 (0x\(hex(lead)))")
            }
            for k in 1 ... count {
                let position = index + k
                guard position < bytes.count else { throw endedEarly() }
                let byte = bytes[position]
                let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= lo && byte <= hi else {
                    throw CallbackError(.invalidUTF8, at: index, "a JSON string contains a byte sequence that is not UTF-8")
                }
            }
            index += count + 1
        }

        /// One escape starting at the backslash; appends its UTF-8.
        mutating func escape(into out: inout [UInt8]) throws(CallbackError) {
            let start = index
            index += 1
            guard index < bytes.count else { throw endedEarly() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let unit = try hex4()
                var scalar = UInt32(unit)
                if (0xD800 ... 0xDBFF).contains(unit) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw CallbackError(.invalidUTF8, at: start, "a JSON string escapes a lone surrogate (\\u\(hex16(unit)))")
                    }
                    index += 2
                    let second = try hex4()
                    guard (0xDC00 ... 0xDFFF).contains(second) else {
                        throw CallbackError(.invalidUTF8, at: start, "a JSON string escapes a lone surrogate (\\u\(hex16(unit)))")
                    }
                    scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                } else if (0xDC00 ... 0xDFFF).contains(unit) {
                    throw CallbackError(.invalidUTF8, at: start, "a JSON string escapes a lone surrogate (\\u\(hex16(unit)))")
                }
                appendUTF8(scalar, to: &out)
            default:
                throw CallbackError(.invalidCharacter, at: start, "a JSON string has an unknown escape")
            }
        }

        mutating func hex4() throws(CallbackError) -> UInt16 {
            var value: UInt16 = 0
            for _ in 0 ..< 4 {
                guard index < bytes.count else { throw endedEarly() }
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw CallbackError(.invalidCharacter, at: index, "a \\u escape needs four hexadecimal digits")
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0 ..< 0x80:
            out.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

private func hex(_ byte: UInt8) -> String {
    String(decoding: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]], as: UTF8.self)
}

private func hex16(_ unit: UInt16) -> String { hex(UInt8(unit >> 8)) + hex(UInt8(unit & 0xFF)) }
