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
