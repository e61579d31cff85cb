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

/// The limits every parse enforces. Past a limit the input is refused with a reason
/// (`too_long`, `too_many_parameters`), never truncated.
public struct ParsingLimits: Sendable, Hashable {
    /// The longest URL accepted, in bytes. Default 16 KiB.
    public var maxLength: Int
    /// The most parameters accepted, query and fragment together. Default 64.
    public var maxParameters: Int
    /// The longest parameter name or value accepted, in bytes as written. Default 8 KiB.
    public var maxValueLength: Int

    /// Negative limits are read as 0. Lengths are capped at `Int32.max` (2 GiB): offsets
    /// are stored in 32 bits, so a larger limit must not let a larger input through.
    public init(maxLength: Int = 16 * 1024, maxParameters: Int = 64, maxValueLength: Int = 8 * 1024) {
        self.maxLength = min(max(0, maxLength), Self.largestLength)
        self.maxParameters = max(0, maxParameters)
        self.maxValueLength = min(max(0, maxValueLength), Self.largestLength)
    }

    static let largestLength = Int(Int32.max)

    /// 16 KiB, 64 parameters, 8 KiB a value.
    public static let `default` = ParsingLimits()
}
