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

/// The key attempts are found by: the 128-bit SipHash-2-4 tag of the state under the
/// router's own random key (``SipHash128``).
///
/// Looking states up by a keyed hash keeps dispatch O(1) without comparing secret states
/// with `==` (whose running time depends on how many leading bytes match), and without
/// letting a sender who does not know the router's key pick states that collide; the full
/// state is then compared in constant time. (SHA-256 would cost 7,700 instructions and two
/// allocations a callback, for a digest nobody needs to be collision-resistant against the
/// router's own key.)
struct StateKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ state: String, hasher: SipHash128) {
        var state = state
        (high, low) = state.withUTF8 { hasher.tag(of: UnsafeRawBufferPointer($0)) }
    }

    init(utf8 state: UnsafeBufferPointer<UInt8>, hasher: SipHash128) {
        (high, low) = hasher.tag(of: UnsafeRawBufferPointer(state))
    }

    /// A key with these words (tests: keys chosen to collide in ``StateTable``).
    init(high: UInt64, low: UInt64) {
        (self.high, self.low) = (high, low)
    }

    /// The tag is already a keyed PRF's output: one word of it is enough for `Hasher`.
    /// (The book's own index, ``StateTable``, uses the tag's bits directly.)
    func hash(into hasher: inout Hasher) { hasher.combine(low) }
}
