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
