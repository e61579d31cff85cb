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

/// The heading a command's options are listed under: `OPTIONS`, or a named group such as
/// `LOOPBACK OPTIONS` with a note on when it applies.
package struct OptionGroup: Sendable, Equatable {
    /// `OPTIONS`, `LOOPBACK OPTIONS`.
    package let title: String
    /// When the group applies (`the default: an RFC 8252 receiver on 127.0.0.1`), if it needs saying.
    package let note: String?

    package init(_ title: String, note: String? = nil) {
        self.title = title
        self.note = note
    }

    /// Every command's own options.
    package static let main = OptionGroup("OPTIONS")

    /// The heading line of `--help`: `LOOPBACK OPTIONS (the default: …):`.
    var heading: String { note.map { "\(title) (\($0)):" } ?? "\(title):" }
}

/// One command-line option of one command, declared once: its parsing (value or flag), its
/// `--help` entry, its shell completions and its man page entry are all made from this, so
/// they cannot disagree (swift-argument-parser's habit, without the dependency).
package struct OptionDeclaration: Sendable {
    /// The name without `--`.
    package let name: String
    /// The value's placeholder in `--help` (`S`, `SECONDS`, `N[,N…]`); nil for a flag.
    package let placeholder: String?
    /// What `--help` and the man page say about it; its first sentence is the completions'.
    package let summary: String
    /// Whether it may be given more than once.
    package let repeatable: Bool
    /// The values it accepts when they are names from a fixed set (offered by completions).
    package let choices: [String]
    /// The heading it is listed under.
    let group: OptionGroup

    package static func flag(_ name: String, _ summary: String, group: OptionGroup = .main) -> OptionDeclaration {
        OptionDeclaration(name: name, placeholder: nil, summary: summary, repeatable: false, choices: [], group: group)
    }

    package static func value(
        _ name: String, _ placeholder: String, _ summary: String, repeatable: Bool = false, choices: [String] = [],
        group: OptionGroup = .main
    ) -> OptionDeclaration {
        OptionDeclaration(name: name, placeholder: placeholder, summary: summary, repeatable: repeatable, choices: choices, group: group)
    }

    /// Whether it takes a value (`--state S`) rather than being a flag (`--no-state`).
    package var takesValue: Bool { placeholder != nil }

    /// Whether the value is a file name (`--redirect-uri-file F`), for completions.
    package var takesFile: Bool {
        guard let placeholder else { return false }
        return name.hasSuffix("-file") || ["F", "FILE", "PATH"].contains(placeholder)
    }

    /// `--state S`, `--no-state`: the left column of `--help`.
    package var term: String { "--" + name + (placeholder.map { " " + $0 } ?? "") }

    /// The summary up to its first ". " (or all of it), without the final period.
    package var firstSentence: String {
        var sentence = summary
        if let range = summary.locate(". ") { sentence = String(summary[..<range.lowerBound]) }
        while sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }

    /// The same option listed under `group`.
    package func listed(under group: OptionGroup) -> OptionDeclaration {
        OptionDeclaration(name: name, placeholder: placeholder, summary: summary, repeatable: repeatable, choices: choices, group: group)
    }

    /// The same option with another summary (a command that says what it means for it).
    package func described(_ summary: String) -> OptionDeclaration {
        OptionDeclaration(name: name, placeholder: placeholder, summary: summary, repeatable: repeatable, choices: choices, group: group)
    }
}

extension [OptionDeclaration] {
    /// The names (without `--`) of the options that take a value.
    var valueNames: Set<String> { Set(filter(\.takesValue).map(\.name)) }

    /// The names (without `--`) of the flags (`--help` aside: every command has it).
    var flagNames: Set<String> { Set(filter { !$0.takesValue }.map(\.name)) }

    /// The groups, in the order their first option is declared; `OPTIONS` first.
    package var groups: [OptionGroup] {
        var groups: [OptionGroup] = [.main]
        for option in self where !groups.contains(option.group) { groups.append(option.group) }
        return groups
    }

    /// The options of `group`, in declaration order.
    package func options(in group: OptionGroup) -> [OptionDeclaration] { filter { $0.group == group } }

    /// The OPTIONS part of `--help`: each group's heading and two-column entries, the main
    /// group ending with `-h, --help`; groups separated by a blank line.
    var helpSections: String {
        groups.map { group in
            var lines = [group.heading]
            lines += options(in: group).map { HelpLayout.entry($0.term, $0.summary) }
            if group == .main { lines.append(HelpLayout.entry("-h, --help", "Show this help.")) }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}

#endif
