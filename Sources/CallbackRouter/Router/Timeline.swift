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

/// The book's agenda: a binary min-heap of (instant, attempt id), one item for each moment
/// something about an attempt may change (it expires, its tombstone or its kept result is to
/// be forgotten).
///
/// A sweep pops only the items that are due, so its cost follows what ended, not how many
/// attempts are remembered (a scan of every remembered attempt would hold the router's lock
/// for 231 ms with a million ended attempts). Items are never removed early: an item whose attempt
/// was forgotten meanwhile, or whose moment moved, is popped in its turn and finds nothing
/// to do. ``compact(keeping:)`` drops such items when they outnumber the live ones.
struct Timeline {
    struct Item {
        let at: Int64
        let id: UInt64
    }

    private(set) var items: [Item] = []

    var count: Int { items.count }

    /// The earliest instant on the agenda, if any.
    var earliest: Int64? { items.first?.at }

    mutating func push(_ at: ClockInstant, _ id: UInt64) {
        items.append(Item(at: at.nanoseconds, id: id))
        var child = items.count &- 1
        while child > 0 {
            let parent = (child &- 1) / 2
            guard items[child].at < items[parent].at else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest item when it is due at `now`.
    mutating func popDue(_ now: ClockInstant) -> UInt64? {
        guard let first = items.first, first.at <= now.nanoseconds else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(from: 0)
        }
        return first.id
    }

    /// Rebuilds the agenda from the items `keep` still wants (O(n)).
    mutating func compact(keeping keep: (Item) -> Bool) {
        items.removeAll(where: { !keep($0) })
        var index = items.count / 2
        while index > 0 {
            index &-= 1
            siftDown(from: index)
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        let count = items.count
        while true {
            let left = parent &* 2 &+ 1
            guard left < count else { return }
            let right = left &+ 1
            let child = right < count && items[right].at < items[left].at ? right : left
            guard items[child].at < items[parent].at else { return }
            items.swapAt(child, parent)
            parent = child
        }
    }
}
