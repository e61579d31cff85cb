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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

/// One rule for every `--timeout` (and every duration a message names).
package enum Durations {
    /// The longest `--timeout`: a day.
    static let maximum: Double = 86_400

    /// Reads `option` (`--timeout SECONDS`): decimal digits with an optional fraction (`300`, `1.5`,
    /// `0.25`), at most a day; greater than zero unless `allowZero`. No sign (`-0`), no
    /// exponent, hex (`0x10`), `inf` or `nan`, nothing empty: those are usage errors, not
    /// whatever `Double(_:)` makes of them.
    package static func seconds(
        _ args: Arguments, _ option: OptionDeclaration, default fallback: Double = 300, allowZero: Bool = false
    ) throws(Arguments.UsageError) -> Double {
        guard let text = try args.single(option) else { return fallback }
        let name = option.name
        let bounds = allowZero ? "from 0" : "greater than 0"
        let refusal = Arguments.UsageError(
            description: "--\(name) takes a number of seconds \(bounds) and at most 86400, such as 300 or 1.5")
        guard let seconds = parse(text) else { throw refusal }
        guard seconds <= maximum, seconds > 0 || (allowZero && seconds == 0) else { throw refusal }
        return seconds
    }

    /// `digits[.digits]`, or nil.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.utf8.count <= 9,
            whole.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.utf8.count <= 9,
                fraction.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
        }
        return Double(text)
    }

    /// "1 second", "1.5 seconds", "300 seconds".
    package static func describe(seconds: Double) -> String {
        // Two decimals at most: a third of 8 seconds reads 2.67, never 2.6666666666666665.
        let rounded = (seconds * 100).rounded() / 100
        let number = rounded == rounded.rounded() && rounded < 1e15 ? String(Int64(rounded)) : String(rounded)
        return number + (rounded == 1 ? " second" : " seconds")
    }
}

#endif
