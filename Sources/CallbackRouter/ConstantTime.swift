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

/// Compares two byte sequences in time that depends only on the length of `received`,
/// never on where the first difference is.
///
/// Use it for every comparison of a secret the attacker can probe (the `state` of a
/// callback against the expected one): an early-exit `==` tells a timing attacker how
/// many leading bytes were right. Pass the untrusted value as `received`: the loop runs
/// over it, so the running time does not reveal the length of `expected` either.
///
/// ```swift
/// constantTimeEquals(callbackState.utf8, attempt.state.utf8)
/// ```
@inline(never)
public func constantTimeEquals<Received: Collection, Expected: Collection>(
    _ received: Received, _ expected: Expected
) -> Bool where Received.Element == UInt8, Expected.Element == UInt8 {
    var difference: UInt8 = 0
    var expectedBytes = expected.makeIterator()
    var expectedCount = 0
    var receivedCount = 0
    for byte in received {
        // Past the end of `expected` keep comparing against 0 so the loop length stays
        // that of `received`; the length check below makes the result false anyway.
        let other: UInt8
        if let next = expectedBytes.next() {
            other = next
            expectedCount &+= 1
        } else {
            other = 0
        }
        difference |= byte ^ other
        receivedCount &+= 1
    }
    // `expected` may be longer than `received`.
    if expectedBytes.next() != nil { expectedCount &+= 1 }
    let lengthDiffers: UInt8 = receivedCount == expectedCount ? 0 : 1
    return (difference | lengthDiffers) == 0
}

/// ``constantTimeEquals(_:_:)`` over the UTF-8 of two strings.
public func constantTimeEquals(_ received: String, _ expected: String) -> Bool {
    var received = received, expected = expected
    return received.withUTF8 { r in expected.withUTF8 { e in constantTimeEquals(r, e) } }
}

/// ``constantTimeEquals(_:_:)`` over two buffers: the loop the generic version runs,
/// without an iterator per byte, eight bytes a round where both buffers have them. The
/// work depends on the two lengths only, never on the bytes.
@inline(never)
public func constantTimeEquals(_ received: UnsafeBufferPointer<UInt8>, _ expected: UnsafeBufferPointer<UInt8>) -> Bool {
    var difference: UInt64 = 0
    let shared = Swift.min(received.count, expected.count)
    var i = 0
    if shared >= 8, let r = received.baseAddress, let e = expected.baseAddress {
        let x = UnsafeRawPointer(r), y = UnsafeRawPointer(e)
        // Two words a round, then at most one more: half the loop's branches and counter
        // updates for a 43-byte state.
        while i &+ 16 <= shared {
            difference |= x.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            difference |=
                x.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            i &+= 16
        }
        if i &+ 8 <= shared {
            difference |= x.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        if received.count == expected.count {
            // Equal lengths (the case of a genuine state): the tail as the last eight bytes,
            // overlapping what was compared; the work still depends on the length only.
            let last = shared &- 8
            difference |=
                x.loadUnaligned(fromByteOffset: last, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: last, as: UInt64.self)
            return difference == 0
        }
    }
    while i < received.count {
        // Past the end of `expected` compare against 0: the loop length stays that of `received`.
        difference |= UInt64(received[i] ^ (i < shared ? expected[i] : 0))
        i += 1
    }
    return difference == 0 && received.count == expected.count
}
