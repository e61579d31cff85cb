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

extension CallbackOutcome {
    /// Calls `body` with the UTF-8 bytes of the callback's `state` (the same bytes as
    /// ``state``), or returns nil when it has none. The bytes are valid only during the call.
    ///
    /// The router looks attempts up by these bytes and compares them in constant time:
    /// making the `String` first would cost ~850 instructions and an allocation a callback.
    /// On the classifier's common path the bytes come straight from the
    /// callback's storage (a value written as is; an escaped one from its decoded `String`), otherwise from the
    /// outcome's own string. `CallbackOutcomeStateUTF8Tests` checks both against ``state``.
    func withStateUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        if strings == nil, let bounds = located.plainBounds(of: CallbackClassifier.FieldID.state) {
            var source = located.source
            return source.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[bounds])) }
        }
        guard var state else { return nil }
        return state.withUTF8(body)
    }
}

extension CallbackOutcome.Located {
    /// Where the value of field `id` stands in ``source`` when it is written as is (no
    /// `%XX`, no `+`); nil when the field is absent or its value needs decoding.
    func plainBounds(of id: Int) -> Range<Int>? {
        guard id < 32 else { return nil }
        let bit: UInt32 = 1 << UInt32(id)
        guard mask & bit != 0 else { return nil }
        let slot = (mask & (bit &- 1)).nonzeroBitCount
        let start = Int(slots.bounds[2 &* slot]), end = slots.bounds[2 &* slot &+ 1]
        guard end & 1 << 31 == 0 else { return nil }
        return start ..< Int(end)
    }
}
