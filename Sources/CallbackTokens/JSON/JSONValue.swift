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

/// A JSON value (RFC 8259), the package's one: what `JSONReader` reads (strings decoded,
/// numbers kept as their exact text, object members in document order with no name twice)
/// and what the `callback-router` helper prints (``serialized``), without Foundation.
///
/// Public only as the helper's output value (`CallbackRouterCLI.JSONValue`): made with the
/// static constructors, printed with ``serialized``. Apps reading a token response or a
/// discovery document see typed values (``TokenResponse``, ``ProviderMetadata``), never
/// this tree.
public struct JSONValue: Sendable, Equatable {
    /// The value's kind and contents. An object keeps its members in order, as given.
    package indirect enum Storage: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONValue])
        case object([(String, JSONValue)])

        package static func == (a: Storage, b: Storage) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case let (.bool(x), .bool(y)): return x == y
            case let (.number(x), .number(y)): return x == y
            case let (.string(x), .string(y)): return x == y
            case let (.array(x), .array(y)): return x == y
            case let (.object(x), .object(y)):
                return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: return false
            }
        }
    }

    /// What the value is.
    package let storage: Storage

    package init(storage: Storage) { self.storage = storage }

    /// The JSON literal `null`.
    public static let null = JSONValue(storage: .null)
    /// The JSON literal `true` or `false`.
    public static func bool(_ b: Bool) -> JSONValue { JSONValue(storage: .bool(b)) }
    /// A JSON number written as a whole number.
    public static func int(_ i: Int) -> JSONValue { JSONValue(storage: .number(JSONNumber(uncheckedText: String(i)))) }
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
    /// A number exactly as read.
    package static func number(_ number: JSONNumber) -> JSONValue { JSONValue(storage: .number(number)) }
    /// An object as read.
    package static func object(_ object: JSONObject) -> JSONValue { JSONValue(storage: .object(object.members)) }

    /// The string, when the value is one.
    package var string: String? {
        if case .string(let text) = storage { return text }
        return nil
    }

    /// The object, when the value is one.
    package var object: JSONObject? {
        if case .object(let members) = storage { return JSONObject(uncheckedMembers: members) }
        return nil
    }

    /// The elements, when the value is an array.
    package var array: [JSONValue]? {
        if case .array(let elements) = storage { return elements }
        return nil
    }

    /// The number, when the value is one.
    package var number: JSONNumber? {
        if case .number(let number) = storage { return number }
        return nil
    }

    /// The JSON type's name, for error details (`"string"`, `"number"`…).
    package var typeName: String {
        switch storage {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
