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

// What every fuzz target shares: the check that traps (libFuzzer keeps the reproducer)
// and a reader that turns the input into a program's choices.

/// Traps with `message` unless `condition` holds.
@inlinable
public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// The fuzz input read byte by byte; past its end, zeros.
public struct Reader {
    public let bytes: [UInt8]
    public var index: Int

    /// Reading from `start` (a target may spend byte 0 on a mode).
    public init(bytes: [UInt8], from start: Int = 0) {
        self.bytes = bytes
        index = start
    }

    public var atEnd: Bool { index >= bytes.count }

    public mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// Up to `count` bytes, fewer at the end.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + count)
        defer { index = end }
        return index < end ? Array(bytes[index ..< end]) : []
    }
}

/// A byte's blind twin: the same class for every syntax rule a value is judged by (VSCHAR,
/// NQSCHAR's `"` and `\`, space, controls, non-ASCII; Prelude's compact JWS and Ory's UUID:
/// lowercase hex, base64url's other letters and digits, `-` and `.`; Clerk's blank: ASCII
/// whitespace), and a different byte wherever it can be (every visible ASCII byte but `-`
/// and `.`, the only members of their classes).
public func blindByte(_ byte: UInt8) -> UInt8 {
    switch byte {
    case 0x22: return 0x5C
    case 0x5C: return 0x22
    case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "a") ... UInt8(ascii: "f"):
        return byte == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
    case UInt8(ascii: "g") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "_"):
        return byte == UInt8(ascii: "g") ? UInt8(ascii: "h") : UInt8(ascii: "g")
    case UInt8(ascii: "-"), UInt8(ascii: "."): return byte
    case 0x21 ... 0x7E: return byte == UInt8(ascii: "!") ? UInt8(ascii: "#") : UInt8(ascii: "!")
    case 0x09 ... 0x0D: return byte
    case 0x00 ... 0x1F: return byte ^ 1 == 0x09 ? byte : byte ^ 1
    default: return byte // space, DEL, non-ASCII (UTF-8 stays valid)
    }
}
