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
