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

/// A point on a monotonic clock, in nanoseconds. Only differences mean anything.
public struct ClockInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an arbitrary origin of the clock that made the instant.
    public let nanoseconds: Int64
    /// Makes an instant from nanoseconds on a clock's own scale (tests start at zero).
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Whether `a` comes before `b` on the same clock.
    public static func < (a: ClockInstant, b: ClockInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The instant `duration` later, saturating at the ends of the range instead of trapping.
    public func advanced(by duration: Duration) -> ClockInstant {
        let step = duration.nanosecondsSaturated
        let (sum, overflow) = nanoseconds.addingReportingOverflow(step)
        guard overflow else { return ClockInstant(nanoseconds: sum) }
        return ClockInstant(nanoseconds: step < 0 ? .min : .max)
    }
}
