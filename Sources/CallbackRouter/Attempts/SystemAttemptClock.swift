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

/// The system's monotonic clock, immune to wall-clock changes and counting the time the
/// machine sleeps: an attempt's lifetime is real time, so a login begun before the lid
/// closed for the night has expired when it opens. `CLOCK_BOOTTIME` on Linux (its
/// `CLOCK_MONOTONIC` stops during suspend), `CLOCK_MONOTONIC` on Darwin (which counts
/// sleep), the clocks the standard library's `ContinuousClock` reads there.
public struct SystemAttemptClock: AttemptClock {
    /// Makes the clock; it has no state of its own.
    public init() {}
    /// Reads the suspend-aware monotonic clock (``suspendAwareNanoseconds()``, beside the
    /// core's other clock reading in AttemptClock.swift, the one file of this module that
    /// calls the C library for a clock).
    public func now() -> ClockInstant {
        ClockInstant(nanoseconds: suspendAwareNanoseconds())
    }
}
