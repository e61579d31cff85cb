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

/// One decoded form-urlencoded parameter (`+` is a space, `%XX` decoded).
///
/// `description`, `debugDescription` and `dump()` show the name and the value's length,
/// never the value: read ``value`` explicitly.
public struct Parameter: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The parameter's name, percent-decoded (form rules: `+` is a space).
    public let name: String
    /// The parameter's value, percent-decoded (form rules); may hold a secret, so
    /// descriptions never print it.
    public let value: String

    /// Makes a decoded name/value pair (tests and builders; the parser makes its own).
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The name and the value's length: values are secrets until proven otherwise.
    public var description: String { "\(ParameterName.shown(name, value: value)): <redacted, \(value.utf8.count) bytes>" }

    /// The same redacted text as `description`: names and lengths, never a value.
    public var debugDescription: String { description }

    /// `dump()` shows the name and the value's length, never the value.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["name": ParameterName.shown(name, value: value), "value": "<redacted, \(value.utf8.count) bytes>"],
            displayStyle: .struct)
    }
}
