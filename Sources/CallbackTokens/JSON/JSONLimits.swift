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

/// The limits ``JSONReader`` enforces; past one, a refusal, never a crash or quadratic time.
package struct JSONLimits: Sendable, Hashable {
    /// The whole document, in bytes (`too_long`).
    package var maxBytes: Int
    /// How deeply arrays and objects nest; the document's top-level value is depth 1 (`too_long`).
    package var maxDepth: Int
    /// One decoded string (a member name or a value), in UTF-8 bytes; also the longest
    /// number text (`too_long`).
    package var maxStringBytes: Int
    /// The members of one object or the elements of one array (`too_many_parameters`).
    package var maxMembers: Int

    package init(maxBytes: Int = 64 * 1024, maxDepth: Int = 32, maxStringBytes: Int = 32 * 1024, maxMembers: Int = 256) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxMembers = maxMembers
    }

    /// 64 KiB, depth 32, 32 KiB a string, 256 members: a token response or a discovery
    /// document fits many times over.
    package static let `default` = JSONLimits()
}
