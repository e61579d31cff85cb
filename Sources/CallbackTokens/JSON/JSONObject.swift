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

/// A JSON object: its members in document order, each name once when ``JSONReader`` read it
/// (it refuses a repeated name with `duplicate_parameter`).
package struct JSONObject: Sendable, Equatable {
    /// The members in document order.
    package let members: [(name: String, value: JSONValue)]

    package init(uncheckedMembers members: [(String, JSONValue)]) { self.members = members }

    /// The value of the member `name` (the first, if a value made in code names it twice),
    /// or nil when there is none.
    package subscript(name: String) -> JSONValue? {
        for member in members where member.name == name { return member.value }
        return nil
    }

    /// The member names in document order.
    package var names: [String] { members.map(\.name) }

    package static func == (a: JSONObject, b: JSONObject) -> Bool {
        JSONValue.object(a) == JSONValue.object(b)
    }
}
