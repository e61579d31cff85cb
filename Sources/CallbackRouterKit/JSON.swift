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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

/// A minimal JSON writer: the helper prints JSON without Foundation.
///
/// Strings are escaped per RFC 8259 §7: `"` and `\` escaped, controls as `\n`, `\t`… or
/// `\u00XX`, everything else (non-ASCII included) kept as UTF-8.
public struct JSONValue: Sendable, Equatable {
    package indirect enum Storage: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int)
        case string(String)
        case array([JSONValue])
        case object([(String, JSONValue)])

        package static func == (a: Storage, b: Storage) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case let (.bool(x), .bool(y)): return x == y
            case let (.int(x), .int(y)): return x == y
            case let (.string(x), .string(y)): return x == y
            case let (.array(x), .array(y)): return x == y
            case let (.object(x), .object(y)):
                return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: return false
            }
        }
    }
    package let storage: Storage

    /// The JSON literal `null`.
    public static let null = JSONValue(storage: .null)
    /// The JSON literal `true` or `false`.
    public static func bool(_ b: Bool) -> JSONValue { JSONValue(storage: .bool(b)) }
    /// A JSON number written as a whole number.
    public static func int(_ i: Int) -> JSONValue { JSONValue(storage: .int(i)) }
    /// A JSON string, escaped as RFC 8259 requires when serialized.
    public static func string(_ s: String) -> JSONValue { JSONValue(storage: .string(s)) }
    /// A JSON string, or `null` when `s` is nil (absent components print as null).
    public static func string(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    /// A JSON number, or `null` when `i` is nil (a URL without a port prints `"port":null`).
    public static func int(_ i: Int?) -> JSONValue { i.map { .int($0) } ?? .null }
    /// A JSON array of the values, in order.
    public static func array(_ a: [JSONValue]) -> JSONValue { JSONValue(storage: .array(a)) }
    /// An object whose members keep the order given.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue { JSONValue(storage: .object(members)) }

    /// The compact serialization (no spaces), as the helper prints it.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch storage {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(s.utf8.count + 2)
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00 ..< 0x20, 0x7F:
                bytes += Array("\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        out += String(decoding: bytes, as: UTF8.self)
    }
}

#endif
