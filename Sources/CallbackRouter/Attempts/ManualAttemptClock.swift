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

/// A clock that moves only when told to: for tests of expiry.
///
/// Its calendar time (``wallClockNanoseconds()``) starts at `wallClockStart` and moves with
/// ``advance(by:)``, so that tests of sealed attempts never read the real time either.
public final class ManualAttemptClock: AttemptClock {
    private let current: Locked<ClockInstant>
    private let start: ClockInstant
    private let wallClockStart: Int64
    /// Makes a clock that stands at `start` until ``advance(by:)`` moves it; its calendar
    /// time stands at `wallClockStart` (nanoseconds since the Unix epoch; default
    /// 2026-01-01T00:00:00Z).
    public init(start: ClockInstant = ClockInstant(nanoseconds: 0), wallClockStart: Int64 = 1_767_225_600_000_000_000) {
        current = Locked(start)
        self.start = start
        self.wallClockStart = wallClockStart
    }
    /// The instant the clock was last set to.
    public func now() -> ClockInstant { current.withLock { $0 } }
    /// `wallClockStart` plus how far the clock has been advanced.
    public func wallClockNanoseconds() -> Int64 { wallClockStart &+ (now().nanoseconds &- start.nanoseconds) }
    /// Moves the clock forward by `duration`; attempts past their expiry then read as expired.
    public func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }
}
