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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the monotonic clock after which waiting stops.
package struct Deadline {
    package let milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    package static func after(milliseconds: Int64) -> Deadline {
        Deadline(milliseconds: SystemClock.monotonicMilliseconds() + milliseconds)
    }

    /// What is left, for `poll`: at least 0, at most Int32.max.
    package var remainingMilliseconds: Int32 {
        let left = milliseconds - SystemClock.monotonicMilliseconds()
        return Int32(clamping: max(0, left))
    }

    package var hasPassed: Bool { SystemClock.monotonicMilliseconds() >= milliseconds }

    package func earlier(_ other: Deadline) -> Deadline { milliseconds <= other.milliseconds ? self : other }
}
