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

/// Why the parser refused an input, and where.
///
/// The `detail` is written for people and never contains a parameter value: at most a
/// component name and the offending byte when it is not a letter or digit of a value.
public struct ParseError: ReasonCarrying, Hashable, Sendable, CustomStringConvertible {
    /// The stable reason (the syntax codes of docs/parsing.md).
    public let reason: ReasonCode
    /// The byte offset into the input where the problem is, when one applies.
    public let offset: Int?
    /// A human sentence, free of secrets.
    public let detail: String

    /// Makes a refusal with its reason, the byte offset it applies to (or nil), and a
    /// sentence for people that must not contain any part of a value.
    public init(_ reason: ReasonCode, at offset: Int?, _ detail: String) {
        self.reason = reason
        self.offset = offset
        self.detail = detail
    }

    /// The reason's wire name, the offset when there is one, and the detail, e.g.
    /// `invalid_port at byte 17: the port is not a number`.
    public var description: String {
        if let offset { return "\(reason.rawValue) at byte \(offset): \(detail)" }
        return "\(reason.rawValue): \(detail)"
    }
}
