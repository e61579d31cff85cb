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

/// A ``ConsumedStateStore`` in this process's memory: for several routers of one process (a
/// router built per request), and for tests. Its digest key is 32 random bytes of its own, so
/// it is never shared with another process: a backend with several instances needs a store
/// over its database (see ``ConsumedStateStore``).
///
/// Each digest is kept until its `keepingUntil` (calendar time), then forgotten at the next
/// insert; at most `capacity` are kept at once, and an insert past that throws (the callback
/// is refused, never delivered twice), so that a flood of logins cannot grow it without bound.
public final class InMemoryConsumedStateStore: ConsumedStateStore {
    /// The store is full (``InMemoryConsumedStateStore/init(capacity:clock:)``'s capacity).
    public struct Full: Error, CustomStringConvertible {
        /// How many digests it keeps at most.
        public let capacity: Int
        /// What happened, with the capacity, in words a person reads.
        public var description: String { "the store of consumed states holds its \(capacity) digests already" }
    }

    public let digestKey: [UInt8]
    private let capacity: Int
    private let clock: any AttemptClock
    private let kept: Locked<Kept>

    /// The digests and when each may be forgotten; `earliest` is the soonest of those
    /// instants, so that a full store is swept only when a sweep can free something.
    struct Kept {
        var until: [ConsumedStateDigest: Int64] = [:]
        var earliest = Int64.max
    }

    /// A store with a fresh random digest key, keeping at most `capacity` digests (at least 1),
    /// reading calendar time from `clock`.
    public init(capacity: Int = 65_536, clock: any AttemptClock = SystemAttemptClock()) {
        digestKey = SecureRandom.bytes(32)
        self.capacity = max(capacity, 1)
        self.clock = clock
        kept = Locked(Kept())
    }

    public func insert(_ digest: ConsumedStateDigest, keepingUntil: Int64) throws -> Bool {
        let now = clock.wallClockNanoseconds()
        let capacity = self.capacity
        return try kept.withLock { (kept: inout Kept) throws(Full) -> Bool in
            if let until = kept.until[digest], until > now { return false }
            if kept.until.count >= capacity, kept.earliest <= now {
                kept.until = kept.until.filter { $0.value > now }
                kept.earliest = kept.until.values.min() ?? .max
            }
            guard kept.until.count < capacity else { throw Full(capacity: capacity) }
            kept.until[digest] = keepingUntil
            kept.earliest = min(kept.earliest, keepingUntil)
            return true
        }
    }

    /// How many digests are kept (tests).
    var count: Int { kept.withLock { $0.until.count } }
}
