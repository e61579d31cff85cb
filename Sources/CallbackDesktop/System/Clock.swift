#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Time without Foundation: a monotonic clock for deadlines, the wall clock for spool expiry
/// (which must mean the same to two processes).
package enum Clock {
    /// Milliseconds on the monotonic clock (deadlines, durations).
    package static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Seconds since the epoch on the wall clock.
    package static func wallSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }
}

/// A point on the monotonic clock after which waiting stops.
package struct Deadline {
    package let milliseconds: Int64

    package static func after(milliseconds: Int64) -> Deadline {
        Deadline(milliseconds: Clock.monotonicMilliseconds() + milliseconds)
    }

    /// What is left, for `poll`: at least 0, at most Int32.max.
    package var remainingMilliseconds: Int32 {
        let left = milliseconds - Clock.monotonicMilliseconds()
        return Int32(clamping: max(0, left))
    }

    package var hasPassed: Bool { Clock.monotonicMilliseconds() >= milliseconds }

    package func earlier(_ other: Deadline) -> Deadline { milliseconds <= other.milliseconds ? self : other }
}

/// Random identifiers from the system generator (getrandom). Not secrets: names.
package enum RandomName {
    package static func hex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for _ in 0 ..< count {
            let byte = UInt8.random(in: 0 ... 255, using: &generator)
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
