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

/// A streaming UTF-8 validator (Unicode 15, Table 3-7): refuses overlongs, surrogates,
/// code points past U+10FFFF and truncated sequences.
struct UTF8Validator {
    private var remaining = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    var isAtBoundary: Bool { remaining == 0 }

    /// Feeds one byte; false when the sequence so far is invalid.
    mutating func consume(_ byte: UInt8) -> Bool {
        if remaining == 0 {
            switch byte {
            case 0x00 ... 0x7F: return true
            case 0xC2 ... 0xDF: remaining = 1; lower = 0x80; upper = 0xBF
            case 0xE0: remaining = 2; lower = 0xA0; upper = 0xBF
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: remaining = 2; lower = 0x80; upper = 0xBF
            case 0xED: remaining = 2; lower = 0x80; upper = 0x9F
            case 0xF0: remaining = 3; lower = 0x90; upper = 0xBF
            case 0xF1 ... 0xF3: remaining = 3; lower = 0x80; upper = 0xBF
            case 0xF4: remaining = 3; lower = 0x80; upper = 0x8F
            default: return false
            }
            return true
        }
        guard byte >= lower && byte <= upper else { return false }
        remaining -= 1
        lower = 0x80
        upper = 0xBF
        return true
    }
}
