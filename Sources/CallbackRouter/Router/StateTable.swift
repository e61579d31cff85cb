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

/// The book's index of entries by state key: an open-addressing table (linear probing)
/// whose slot is read straight from the key's bits.
///
/// A ``StateKey`` is already the output of a keyed PRF (SipHash-2-4 under the router's
/// random key), uniform and unpredictable to a sender who does not know the key, so its
/// low bits are a good slot index as they are. `Dictionary<StateKey, Entry>` would run its
/// own SipHash-1-3 over the key again on every lookup (~250 instructions a callback).
/// Kept at most half full, so a probe is short; removal shifts the following run back
/// (no tombstones), so lookups never slow down as attempts come and go.
struct StateTable {
    private var slots: [AttemptBook.Entry?] = []
    private(set) var count = 0

    /// The entry stored under `key`, or nil.
    subscript(key: StateKey) -> AttemptBook.Entry? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count &- 1
        var index = Self.home(of: key, mask: mask)
        while let entry = slots[index] {
            if entry.key == key { return entry }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Stores `entry` under its key, replacing the entry stored there before, if any.
    mutating func insert(_ entry: AttemptBook.Entry) {
        if (count &+ 1) &* 2 > slots.count { grow() }
        let mask = slots.count &- 1
        var index = Self.home(of: entry.key, mask: mask)
        while let existing = slots[index] {
            if existing.key == entry.key {
                slots[index] = entry
                return
            }
            index = (index &+ 1) & mask
        }
        slots[index] = entry
        count &+= 1
    }

    /// Removes `entry` if it is the one stored under its key (a later attempt with the
    /// same state may have replaced it); otherwise does nothing.
    mutating func remove(_ entry: AttemptBook.Entry) {
        guard !slots.isEmpty else { return }
        let mask = slots.count &- 1
        var hole = Self.home(of: entry.key, mask: mask)
        while true {
            guard let existing = slots[hole] else { return }
            if existing.key == entry.key {
                guard existing === entry else { return }
                break
            }
            hole = (hole &+ 1) & mask
        }
        slots[hole] = nil
        count &-= 1
        // Backward-shift deletion: move back every following entry of the run whose home
        // slot is not cyclically within (hole, next], so each stays reachable from its home.
        var next = hole
        while true {
            next = (next &+ 1) & mask
            guard let moved = slots[next] else { return }
            let home = Self.home(of: moved.key, mask: mask)
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                slots[hole] = moved
                slots[next] = nil
                hole = next
            }
        }
    }

    @inline(__always)
    private static func home(of key: StateKey, mask: Int) -> Int {
        Int(truncatingIfNeeded: key.low) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: Swift.max(16, old.count &* 2))
        count = 0
        for case let entry? in old { insert(entry) }
    }
}
