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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Test vectors are data files next to the tests, read through `#filePath` with the C
/// library: the test targets have no resources and the tests import no Foundation.
/// Shared by every test target that reads vectors (a support target, not a product).
public enum TestVectors {
    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The bytes of `Vectors/<name>` in the directory of the calling test file.
    public static func bytes(_ name: String, caller: String = #filePath) throws -> [UInt8] {
        // …/Tests/CallbackRouterTests/HostileVectorTests.swift → …/Tests/CallbackRouterTests/Vectors/
        var directory = Substring(caller)
        if let slash = directory.lastIndex(of: "/") { directory = directory[..<slash] }
        let path = directory + "/Vectors/" + name
        guard let file = fopen(String(path), "rb") else {
            throw ReadError(description: "cannot open \(path)")
        }
        defer { fclose(file) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            result += chunk[0 ..< count]
        }
        return result
    }

    public static func json(_ name: String, caller: String = #filePath) throws -> JSON {
        try JSON.parse(bytes(name, caller: caller))
    }

    /// One entry of a vector file's `cases` array, with its position (for errors that say
    /// which case is broken).
    public struct CaseEntry {
        public let index: Int
        public let json: JSON

        public subscript(key: String) -> JSON? { json[key] }

        /// The string member `key`; an error naming the case when it is missing.
        public func string(_ key: String) throws -> String {
            guard let value = json[key]?.string else { throw ReadError(description: "case #\(index) has no \(key)") }
            return value
        }

        /// An error about this case.
        public func error(_ problem: String) -> ReadError { ReadError(description: "case #\(index): \(problem)") }

        /// `json` (the member `name` of this case, or of one of its objects) as a map of
        /// strings: `[:]` when absent unless `required`; an error naming the case when it is
        /// not an object of strings.
        public func strings(_ json: JSON?, _ name: String, required: Bool = false) throws -> [String: String] {
            guard let json else {
                if required { throw error("no \(name)") }
                return [:]
            }
            guard let strings = json.stringMembers else { throw error("\(name) is not an object of strings") }
            return strings
        }
    }

    /// How many cases each server has, by the names in `known`: a case counts under the
    /// known name its server starts with (`"glewlwyd 2.7.5"` under `"glewlwyd"`), or under its
    /// own server when none does (so that a tally against the expected one shows it).
    public static func tally(servers: some Sequence<String>, known: some Collection<String>) -> [String: Int] {
        var tally: [String: Int] = [:]
        for server in servers {
            tally[known.first { server.hasPrefix($0 + " ") } ?? server, default: 0] += 1
        }
        return tally
    }

    /// The object member `key` of `Vectors/<name>` as a string map (a file's table of
    /// explanations, such as the `whys` its cases refer to by key).
    public static func strings(_ key: String, in name: String, caller: String = #filePath) throws -> [String: String] {
        guard let strings = try json(name, caller: caller)[key]?.stringMembers else {
            throw ReadError(description: "\(name) has no object of strings \(key)")
        }
        return strings
    }

    /// The `cases` of `Vectors/<name>`, each made into a test case by `make`.
    public static func cases<Case>(
        in name: String, caller: String = #filePath, _ make: (CaseEntry) throws -> Case
    ) throws -> [Case] {
        guard let cases = try json(name, caller: caller)["cases"]?.array else {
            throw ReadError(description: "\(name) has no cases")
        }
        return try cases.enumerated().map { try make(CaseEntry(index: $0.offset, json: $0.element)) }
    }
}

/// Just enough JSON to read test vectors (RFC 8259; numbers as Double).
public enum JSON: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var array: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    /// An object whose members are all strings, as a map; nil for anything else.
    public var stringMembers: [String: String]? {
        guard case .object(let members) = self else { return nil }
        var strings: [String: String] = [:]
        for (name, value) in members {
            guard let text = value.string else { return nil }
            strings[name] = text
        }
        return strings
    }

    public static func parse(_ bytes: [UInt8]) throws -> JSON {
        var reader = Reader(bytes: bytes)
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.failure("trailing bytes") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func failure(_ what: String) -> TestVectors.ReadError {
            TestVectors.ReadError(description: "JSON: \(what) at byte \(index)")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(literal)") }
                index += 1
            }
        }

        mutating func value() throws -> JSON {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, JSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    members.append((key, try value()))
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    elements.append(try value())
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                guard let number = Double(String(decoding: bytes[start ..< index], as: UTF8.self)) else {
                    throw failure("bad value")
                }
                return .number(number)
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[index ..< index + 4], as: UTF8.self), radix: 16)
            else {
                throw failure("bad \\u escape")
            }
            index += 4
            return value
        }

        mutating func string() throws -> String {
            try expect("\"")
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() { scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars); raw.removeAll() }
            while true {
                guard index < bytes.count else { throw failure("unterminated string") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw failure("bad escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "n"): raw.append(0x0A)
                    case UInt8(ascii: "t"): raw.append(0x09)
                    case UInt8(ascii: "r"): raw.append(0x0D)
                    case UInt8(ascii: "b"): raw.append(0x08)
                    case UInt8(ascii: "f"): raw.append(0x0C)
                    case UInt8(ascii: "u"):
                        flush()
                        var code = try hex4()
                        if (0xD800 ... 0xDBFF).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00 ... 0xDFFF).contains(low) else { throw failure("lone surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw failure("lone surrogate") }
                        scalars.append(scalar)
                    default: raw.append(escape) // \" \\ \/
                    }
                default:
                    raw.append(byte)
                }
            }
        }
    }
}
