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

/// The system's monotonic clock, immune to wall-clock changes and counting the time the
/// machine sleeps: an attempt's lifetime is real time, so a login begun before the lid
/// closed for the night has expired when it opens. `CLOCK_BOOTTIME` on Linux (its
/// `CLOCK_MONOTONIC` stops during suspend), `CLOCK_MONOTONIC` on Darwin (which counts
/// sleep), the clocks the standard library's `ContinuousClock` reads there.
public struct SystemAttemptClock: AttemptClock {
    /// Makes the clock; it has no state of its own.
    public init() {}
    /// Reads ``clockID``.
    public func now() -> ClockInstant {
        var time = timespec()
        clock_gettime(Self.clockID, &time)
        return ClockInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    #if canImport(Glibc)
    /// The clock `now()` reads: one that keeps counting while the system is suspended.
    static var clockID: clockid_t { CLOCK_BOOTTIME }
    #else
    /// The clock `now()` reads: one that keeps counting while the system sleeps.
    static var clockID: clockid_t { CLOCK_MONOTONIC }
    #endif
}
