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

/// The two-column layout of every command's OPTIONS section.
package enum HelpLayout {
    /// Where descriptions start.
    static let column = 26
    /// The longest line.
    static let width = 90

    /// `  NAME` padded to ``column``, then `text` wrapped at spaces to ``width``, each
    /// continuation line indented to ``column`` (no final newline).
    static func entry(_ name: String, _ text: String) -> String {
        var out = "  " + name
        if out.count + 1 > column {
            out += "\n" + String(repeating: " ", count: column)
        } else {
            out += String(repeating: " ", count: column - out.count)
        }
        var lineLength = column
        var first = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !first && lineLength + 1 + word.count > width {
                out += "\n" + String(repeating: " ", count: column)
                lineLength = column
                first = true
            }
            if !first { out += " "; lineLength += 1 }
            out += word
            lineLength += word.count
            first = false
        }
        return out
    }
}

#endif
