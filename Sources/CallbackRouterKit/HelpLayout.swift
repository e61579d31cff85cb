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
    package static let column = 26
    /// The longest line.
    package static let width = 90

    /// The USAGE words of `options` in `mode`: each option's term, those of one
    /// alternatives tag together (`--state S | --no-state`), in parentheses when required and
    /// in brackets when `optional` (a repeatable one followed by `...`).
    package static func usageItems(_ options: [OptionDeclaration], mode: CommandMode?, optional: Bool) -> [String] {
        var items: [String] = []
        var shown: Set<String> = []
        for option in options {
            if let tag = option.usageRule(in: mode).alternatives {
                guard shown.insert(tag).inserted else { continue }
                let terms = options.filter { $0.usageRule(in: mode).alternatives == tag }.map(\.term).joined(separator: " | ")
                items.append(optional ? "[" + terms + "]" : terms.contains(" | ") ? "(" + terms + ")" : terms)
            } else {
                items.append(optional ? "[" + option.term + "]" + (option.repeatable ? "..." : "") : option.term)
            }
        }
        return items
    }

    /// One USAGE line: `USAGE: ` (or its indentation after the first), `lead`, then `items`
    /// wrapped at ``width`` with continuation lines under the first item.
    package static func usageLine(_ lead: String, _ items: [String], first: Bool) -> String {
        let start = (first ? "USAGE: " : "       ") + lead
        let indent = String(repeating: " ", count: start.count + 1)
        var out = start
        var lineLength = start.count
        for item in items {
            if lineLength + 1 + item.count > width && lineLength > start.count {
                out += "\n" + indent + item
                lineLength = indent.count + item.count
            } else {
                out += " " + item
                lineLength += 1 + item.count
            }
        }
        return out
    }

    /// `  NAME` padded to ``column``, then `text` wrapped at spaces to ``width``, each
    /// continuation line indented to ``column`` (no final newline).
    package static func entry(_ name: String, _ text: String) -> String {
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
