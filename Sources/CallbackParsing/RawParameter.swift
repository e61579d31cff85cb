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

/// Where one `name=value` pair stands in the input. Offsets are into the whole URL: the
/// name is `start ..< nameEnd`; the value follows the `=` at `nameEnd` and runs to `end`
/// (empty when there is no `=`). Offsets fit in 31 bits (`ParsingLimits` caps lengths at
/// `Int32.max`), so bit 31 of `nameEnd` and of `end` say whether the name and the value
/// hold `%XX` or `+`: twelve bytes a pair, copied with the URL.
struct RawParameter: Sendable {
    var start: UInt32
    private var nameEndBits: UInt32
    private var endBits: UInt32

    private static let flag: UInt32 = 1 << 31

    /// `escapes`: bit 0 when the name needs decoding, bit 1 when the value does.
    init(start: UInt32, nameEnd: UInt32, end: UInt32, escapes: UInt8) {
        self.start = start
        nameEndBits = nameEnd | (escapes & 1 != 0 ? Self.flag : 0)
        endBits = end | (escapes & 2 != 0 ? Self.flag : 0)
    }

    var nameEnd: UInt32 { nameEndBits & ~Self.flag }
    var end: UInt32 { endBits & ~Self.flag }
    var nameRange: Range<Int> { Int(start) ..< Int(nameEnd) }
    var valueRange: Range<Int> { (nameEnd < end ? Int(nameEnd) + 1 : Int(end)) ..< Int(end) }
    var nameNeedsDecoding: Bool { nameEndBits & Self.flag != 0 }
    var valueNeedsDecoding: Bool { endBits & Self.flag != 0 }
    /// Whether the name or the value needs decoding.
    var needsDecoding: Bool { (nameEndBits | endBits) & Self.flag != 0 }

    /// An empty slot (a plain initializer, not a static: no lazy-global check per parse).
    init() {
        start = 0
        nameEndBits = 0
        endBits = 0
    }
}
