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

/// SplitMix64: a small, seedable, deterministic generator, so generated test inputs are
/// the same on every run with the same seed.
///
/// Property tests make theirs with ``init(propertyTest:defaultSeed:)``: the seed comes from
/// `CALLBACK_ROUTER_TEST_SEED` when it is set, and every failure message carries
/// ``replay``, which says how to run the failing case again.
public struct SplitMix64: RandomNumberGenerator {
    /// The environment variable that replays a property test with a given seed (decimal,
    /// or hexadecimal with `0x`).
    public static let seedVariable = "CALLBACK_ROUTER_TEST_SEED"

    /// The seed this generator started from.
    public let seed: UInt64
    /// The test it feeds, for ``replay``.
    public let testName: String?
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        testName = nil
        state = seed
    }

    /// The generator of the property test `name`: seeded from `CALLBACK_ROUTER_TEST_SEED`
    /// when set, else from `defaultSeed` (a fixed seed keeps the suite deterministic), else,
    /// when `defaultSeed` is nil, from a fresh random seed (each run explores new cases).
    public init(propertyTest name: String, defaultSeed: UInt64?) {
        let seed = Self.seedFromEnvironment() ?? defaultSeed ?? UInt64.random(in: .min ... .max)
        self.seed = seed
        testName = name
        state = seed
    }

    /// How to run this test again with the same seed, for failure messages.
    public var replay: String {
        let hex = "0x" + String(seed, radix: 16)
        return "seed \(hex) (replay: \(Self.seedVariable)=\(hex) swift test --filter \(testName ?? "<test>"))"
    }

    /// The seed `CALLBACK_ROUTER_TEST_SEED` names; nil when unset; a value that is not a
    /// number stops the run (a typo must not silently test another seed).
    public static func seedFromEnvironment() -> UInt64? {
        guard let raw = getenv(seedVariable) else { return nil }
        let text = String(cString: raw)
        let seed = text.hasPrefix("0x") || text.hasPrefix("0X") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let seed else { fatalError("\(seedVariable)=\(text) is not a decimal or 0x-hexadecimal 64-bit seed") }
        return seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
