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

extension StringProtocol {
    /// The range of the first occurrence of `target` (a plain scan: help texts are short,
    /// and `firstRange(of:)` would tie the module to newer string-processing availability).
    package func locate(_ target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) {
                return start ..< index(start, offsetBy: target.count)
            }
            formIndex(after: &start)
        }
        return nil
    }
}

#endif
