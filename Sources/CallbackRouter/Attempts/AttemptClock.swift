#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        ClockInstant(nanoseconds: nanoseconds &+ duration.nanosecondsSaturated)
    }
}

extension Duration {
    var nanosecondsSaturated: Int64 {
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
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`): immune to wall-clock changes.
public struct SystemAttemptClock: AttemptClock {
    /// Makes the clock; it has no state of its own.
    public init() {}
    /// Reads `CLOCK_MONOTONIC`.
    public func now() -> ClockInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return ClockInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}

/// A clock that moves only when told to: for tests of expiry.
public final class ManualAttemptClock: AttemptClock {
    private let current: Locked<ClockInstant>
    /// Makes a clock that stands at `start` until ``advance(by:)`` moves it.
    public init(start: ClockInstant = ClockInstant(nanoseconds: 0)) { current = Locked(start) }
    /// The instant the clock was last set to.
    public func now() -> ClockInstant { current.withLock { $0 } }
    /// Moves the clock forward by `duration`; attempts past their expiry then read as expired.
    public func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }
}
