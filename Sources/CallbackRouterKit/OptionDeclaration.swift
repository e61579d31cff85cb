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
    package let group: OptionGroup
    /// The modes of its command it applies to; empty: every mode.
    package private(set) var modes: [CommandMode] = []
    /// How the USAGE lines show it, by mode (the first rule for the mode wins); none: an
    /// optional option of its own.
    package private(set) var usageRules: [UsageRule] = []

    /// Whether an option must be given, alone or as one of alternatives, in some modes.
    package struct UsageRule: Sendable, Equatable {
        /// Whether it (or one of its alternatives) must be given.
        package let required: Bool
        /// The options sharing this tag are alternatives: `(--state S | --no-state)`.
        package let alternatives: String?
        /// The modes the rule holds in; empty: every mode.
        package let modes: [CommandMode]
    }

    package static func flag(_ name: String, _ summary: String, group: OptionGroup = .main) -> OptionDeclaration {
        OptionDeclaration(name: name, placeholder: nil, summary: summary, repeatable: false, choices: [], group: group)
    }

    package static func value(
        _ name: String, _ placeholder: String, _ summary: String, repeatable: Bool = false, choices: [String] = [],
        group: OptionGroup = .main
    ) -> OptionDeclaration {
        OptionDeclaration(name: name, placeholder: placeholder, summary: summary, repeatable: repeatable, choices: choices, group: group)
    }

    /// The same option, applying only in `modes` of its command.
    package func only(in modes: CommandMode...) -> OptionDeclaration {
        var copy = self
        copy.modes = modes
        return copy
    }

    /// The same option, required in `modes` (every mode when none is named); with
    /// `alternatives`, it or one of the options of the same tag is.
    package func required(in modes: CommandMode..., oneOf alternatives: String? = nil) -> OptionDeclaration {
        var copy = self
        copy.usageRules.append(UsageRule(required: true, alternatives: alternatives, modes: modes))
        return copy
    }

    /// The same option, optional but excluding the options of the same tag: `[--scope S | --no-scope]`.
    package func alternative(_ alternatives: String) -> OptionDeclaration {
        var copy = self
        copy.usageRules.append(UsageRule(required: false, alternatives: alternatives, modes: []))
        return copy
    }

    /// How the USAGE line of `mode` shows it.
    package func usageRule(in mode: CommandMode?) -> UsageRule {
        usageRules.first { rule in rule.modes.isEmpty || mode.map(rule.modes.contains) == true }
            ?? UsageRule(required: false, alternatives: nil, modes: [])
    }

    /// Whether it applies in `mode` (always, when it or its command declares no modes).
    package func applies(in mode: CommandMode?) -> Bool {
        guard let mode, !modes.isEmpty else { return true }
        return modes.contains(mode)
    }

    /// The usage error for giving it in `mode`, where it does not apply: it names the
    /// option, the option that chose `mode` (or the one it needs) and its own modes:
    /// `--port does not apply to --scheme: it is a loopback option`,
    /// `--redirect-uri needs --scheme: it is a scheme option`.
    package func misplaced(in mode: CommandMode) -> Arguments.UsageError {
        let kind = modes.map(\.name).joined(separator: " or ")
        let article = kind.first.map { "aeiouAEIOU".contains($0) } == true ? "an" : "a"
        let reason =
            mode.chooser.map { "does not apply to " + $0 }
            ?? "needs " + modes.compactMap(\.chooser).joined(separator: " or ")
        return Arguments.UsageError(description: "--\(name) \(reason): it is \(article) \(kind) option")
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
        var copy = OptionDeclaration(
            name: name, placeholder: placeholder, summary: summary, repeatable: repeatable, choices: choices, group: group)
        copy.modes = modes
        copy.usageRules = usageRules
        return copy
    }

    /// The same option with another summary (a command that says what it means for it).
    package func described(_ summary: String) -> OptionDeclaration {
        var copy = OptionDeclaration(
            name: name, placeholder: placeholder, summary: summary, repeatable: repeatable, choices: choices, group: group)
        copy.modes = modes
        copy.usageRules = usageRules
        return copy
    }
}

extension [OptionDeclaration] {
    /// The names (without `--`) of the options that take a value.
    package var valueNames: Set<String> { Set(filter(\.takesValue).map(\.name)) }

    /// The names (without `--`) of the flags (`--help` aside: every command has it).
    package var flagNames: Set<String> { Set(filter { !$0.takesValue }.map(\.name)) }

    /// The first option of these given in `args` that does not apply in the mode `args`
    /// chose among `modes`, as its usage error.
    package func misplaced(in args: Arguments, modes: [CommandMode]) -> Arguments.UsageError? {
        guard let mode = modes.chosen(by: args) else { return nil }
        return first { args.gave($0) && !$0.applies(in: mode) }?.misplaced(in: mode)
    }

    /// The USAGE lines of command `name`: one per mode (one in all for a command without
    /// modes), each naming the option that chose the mode, the options required in it
    /// (alternatives in parentheses), the optional ones (`[options]` when there are more than
    /// eight), then `arguments` (`URL`).
    package func usage(of name: String, modes: [CommandMode], arguments: String) -> String {
        let lead = "callback-router " + name
        var lines: [String] = []
        for mode in modes.isEmpty ? [nil] : modes.map(Optional.some) {
            var items: [String] = []
            if let mode, let selector = mode.selector, let chooser = first(where: { $0.name == selector }) {
                items.append(mode.value.map { "--" + selector + " " + $0 } ?? chooser.term)
            }
            let applying = filter { $0.applies(in: mode) && $0.name != mode?.selector }
            let required = applying.filter { $0.usageRule(in: mode).required }
            let optional = applying.filter { !$0.usageRule(in: mode).required }
            items += HelpLayout.usageItems(required, mode: mode, optional: false)
            let optionalItems = HelpLayout.usageItems(optional, mode: mode, optional: true)
            items += optionalItems.count > 8 ? ["[options]"] : optionalItems
            if !arguments.isEmpty { items.append(arguments) }
            lines.append(HelpLayout.usageLine(lead, items, first: lines.isEmpty))
        }
        return lines.joined(separator: "\n") + "\n"
    }

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
    package var helpSections: String {
        groups.map { group in
            var lines = [group.heading]
            lines += options(in: group).map { HelpLayout.entry($0.term, $0.summary) }
            if group == .main { lines.append(HelpLayout.entry("-h, --help", "Show this help.")) }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}

#endif
