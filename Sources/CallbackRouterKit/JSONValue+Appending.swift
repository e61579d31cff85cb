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

extension JSONValue {
    /// The object with `members` added at the end (nothing added to a non-object).
    package func appending(_ members: [(String, JSONValue)]) -> JSONValue {
        guard case .object(let existing) = storage else { return self }
        return .object(existing + members)
    }
}

#endif
