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
    /// Without leading and trailing spaces, tabs and carriage returns (help text and its
    /// man-page and completion renderings). The CLI's own: it uses CallbackDesktop's public
    /// API only, and this is not part of it.
    package var withoutSurroundingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start ... end])
    }
}

#endif
