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

extension Duration {
    package var nanosecondsSaturated: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? (seconds < 0 ? .min : .max) : total
    }
}

/// Where attempts read the time. The router takes one so that tests can move time by hand.
public protocol AttemptClock: Sendable {
    /// The current instant; successive calls never go backwards.
    func now() -> ClockInstant
    /// Nanoseconds since the Unix epoch (UTC): the calendar time a sealed attempt records
    /// its expiry in, because monotonic instants mean nothing in another process (or after
    /// a reboot). Default: `CLOCK_REALTIME`.
    func wallClockNanoseconds() -> Int64
}

extension AttemptClock {
    /// Reads `CLOCK_REALTIME`.
    public func wallClockNanoseconds() -> Int64 { realtimeNanoseconds() }
}

func realtimeNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
}

/// The suspend-aware monotonic clock ``SystemAttemptClock`` reads, in nanoseconds:
/// `CLOCK_BOOTTIME` on Linux (its `CLOCK_MONOTONIC` stops during suspend), `CLOCK_MONOTONIC`
/// on Darwin (which counts sleep), the clocks the standard library's `ContinuousClock` reads there.
func suspendAwareNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(suspendAwareClockID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

#if canImport(Glibc)
/// The clock ``suspendAwareNanoseconds()`` reads: one that keeps counting while the system is suspended.
let suspendAwareClockID: clockid_t = CLOCK_BOOTTIME
#else
/// The clock ``suspendAwareNanoseconds()`` reads: one that keeps counting while the system sleeps.
let suspendAwareClockID: clockid_t = CLOCK_MONOTONIC
#endif
