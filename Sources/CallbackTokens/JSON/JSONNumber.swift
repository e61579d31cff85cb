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

/// A JSON number exactly as written (`-12`, `0.5`, `1e3`): no rounding through `Double`.
/// ``int64`` reads it as an integer only when it is written as one and fits.
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text as written in the document (it matched RFC 8259 §6's grammar).
    package let text: String

    package init(uncheckedText text: String) { self.text = text }

    /// Whether the text has no fraction and no exponent (`1.0` and `1e2` are not integers
    /// here: a field that requires an integer refuses them, as oauth4webapi does).
    package var isInteger: Bool { !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } }

    /// The value as an `Int64` when the text is an integer in range; nil for a fraction, an
    /// exponent, or a value past `Int64`'s range (never rounded, never trapping).
    package var int64: Int64? {
        guard isInteger else { return nil }
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var value: Int64 = 0
        for byte in bytes {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min fits.
            let (next, o2) = shifted.subtractingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    package var description: String { text }
}
