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

/// A JSON value (RFC 8259) as ``JSONReader`` reads it: strings decoded, numbers kept as
/// their exact text, object members in document order with no name twice.
///
/// Package API: the token endpoint's and the discovery document's readers are built on it;
/// apps see typed values (``TokenResponse``, ``ProviderMetadata``), never this tree.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, when the value is one.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The object, when the value is one.
    package var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, when the value is an array.
    package var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The number, when the value is one.
    package var number: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The JSON type's name, for error details (`"string"`, `"number"`…).
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number exactly as written (`-12`, `0.5`, `1e3`): no rounding through `Double`.
/// ``int64`` reads it as an integer only when it is written as one and fits.
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text as written in the document (it matched RFC 8259 §6's grammar).
    package let text: String

    package init(uncheckedText text: String) { self.text = text }

    /// Whether the text has no fraction and no exponent (`1.0` and `1e2` are not integers
    /// here: a field that requires an integer refuses them, as oauth4webapi does).
    package var isInteger: Bool { !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } }

    /// The value as an `Int64` when the text is an integer in range; nil for a fraction, an
    /// exponent, or a value past `Int64`'s range (never rounded, never trapping).
    package var int64: Int64? {
        guard isInteger else { return nil }
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var value: Int64 = 0
        for byte in bytes {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min fits.
            let (next, o2) = shifted.subtractingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    package var description: String { text }
}

/// A JSON object: its members in document order, each name once (``JSONReader`` refuses a
/// repeated name with `duplicate_parameter`).
package struct JSONObject: Sendable, Hashable {
    /// One name/value pair.
    package struct Member: Sendable, Hashable {
        package let name: String
        package let value: JSONValue
    }

    /// The members in document order.
    package let members: [Member]

    package init(uncheckedMembers members: [Member]) { self.members = members }

    /// The value of the member `name`, or nil when there is none.
    package subscript(name: String) -> JSONValue? {
        for member in members where member.name == name { return member.value }
        return nil
    }

    /// The member names in document order.
    package var names: [String] { members.map(\.name) }
}
