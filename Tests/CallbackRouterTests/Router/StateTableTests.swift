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

import CallbackParsing
import Testing
@testable import CallbackRouter

/// `StateTable` (the router's index of attempts by state key) against `Dictionary`, the
/// index it replaced: the same answers after every insert, replacement and removal,
/// including keys made to share their slot (the low bits) and runs that wrap around the end.
@Suite struct StateTableTests {
    static func entry(_ key: StateKey) -> AttemptBook.Entry {
        let attempt = LoginAttempt(
            id: 1, route: "app", state: "s", pkce: PKCE(unchecked: String(repeating: "v", count: 43)), nonce: "n",
            redirectURI: try! RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2, expectedIssuer: nil,
            createdAt: ClockInstant(nanoseconds: 0), expiresAt: ClockInstant(nanoseconds: 1), isLogout: false,
            expiresAtWallClock: 0)
        return AttemptBook.Entry(attempt: attempt, key: key, routeIndex: 0, stateless: false, unboundLogout: false)
    }

    /// A seeded generator (SplitMix64), so a failure replays.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func answersAsADictionaryDoes(seed: UInt64) {
        var random = Seeded(state: seed)
        var table = StateTable()
        var model: [StateKey: AttemptBook.Entry] = [:]
        // Few distinct low words (many keys share a slot) and few keys (replacements).
        let keys = (0 ..< 200).map { _ in
            StateKey(high: random.next() % 50, low: seed == 4 ? 7 : random.next() % 40 &+ UInt64.max &- 20)
        }
        var operations = 0
        for _ in 0 ..< 5_000 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            switch random.next() % 3 {
            case 0:
                let entry = Self.entry(key)
                table.insert(entry)
                model[key] = entry
            case 1:
                // Removes only the entry stored under the key, as the sweep does.
                if let stored = model[key], random.next() % 4 != 0 {
                    table.remove(stored)
                    model[key] = nil
                } else {
                    table.remove(Self.entry(key)) // a stale entry: nothing changes
                }
            default:
                break
            }
            operations += 1
            #expect(table.count == model.count)
            for probe in keys.prefix(40) { #expect(table[probe] === model[probe]) }
        }
        for key in keys { #expect(table[key] === model[key]) }
        #expect(operations == 5_000)
    }

    @Test func emptyTableFindsNothing() {
        var table = StateTable()
        #expect(table[StateKey(high: 1, low: 2)] == nil)
        table.remove(Self.entry(StateKey(high: 1, low: 2)))
        #expect(table.count == 0)
    }
}
