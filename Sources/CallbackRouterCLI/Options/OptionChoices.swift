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

import CallbackRouter
import CallbackRouterKit

/// An option that takes one name out of a fixed set (`--dialect`, `--policy`,
/// `--response-mode`): the one table its parsing, its usage error, its `--help` entry and
/// shell completions all read, so they cannot disagree.
///
/// A value outside the set is refused without being repeated: what was typed there may be a
/// pasted state, code or callback URL, and stderr ends up in terminals, CI logs and bug
/// reports. The error says what was expected instead.
struct OptionChoices<Value: Sendable>: Sendable {
    struct Choice: Sendable {
        /// The name on the command line (`custom-scheme-only`).
        let name: String
        let value: Value
        /// What the name means, for `--help`; nil when the name says it.
        let note: String?
    }

    /// The option's name, without `--`.
    let option: String
    /// The placeholder `--help` shows for the value (`D`, `P`, `M`).
    let placeholder: String
    /// Every accepted name, in the order `--help`, errors and completions list them.
    let choices: [Choice]
    /// The name that applies when the option is absent.
    let defaultName: String

    init(option: String, placeholder: String, choices: [Choice], defaultName: String) {
        precondition(choices.contains { $0.name == defaultName }, "the default of --\(option) is not one of its names")
        self.option = option
        self.placeholder = placeholder
        self.choices = choices
        self.defaultName = defaultName
    }

    /// Every accepted name.
    var names: [String] { choices.map(\.name) }

    /// The usage error for a value outside the set; it never contains the value.
    var expectation: String { "--\(option) takes one of " + names.joined(separator: ", ") }

    /// The value of `name`, or nil when it is not one of ``names`` (exact, case-sensitive).
    func value(named name: String) -> Value? {
        choices.first { $0.name == name }?.value
    }

    /// The option's value in `args`: the default when absent; a usage error when it is
    /// given twice or is not one of ``names``.
    func read(_ args: Arguments) throws(Arguments.UsageError) -> Value {
        let name = try args.single(declaration()) ?? defaultName
        guard let value = value(named: name) else {
            // A value this close to a choice's name is a typo of it (`oath2`), not a secret.
            let meant = Suggestion.closest(to: name, among: choices.map(\.name)).map { "; did you mean \($0)?" } ?? ""
            throw Arguments.UsageError(description: expectation + meant)
        }
        return value
    }

    /// `auto (default), oauth2, prelude, ory, zephr or clerk`, with each name's note.
    var described: String {
        var parts: [String] = []
        for choice in choices {
            var text = choice.name
            switch (choice.name == defaultName, choice.note) {
            case (true, let note?): text += " (default: \(note))"
            case (true, nil): text += " (default)"
            case (false, let note?): text += " (\(note))"
            case (false, nil): break
            }
            parts.append(text)
        }
        guard parts.count > 1 else { return parts.joined() }
        return parts.dropLast().joined(separator: ", ") + " or " + parts[parts.count - 1]
    }

    /// The option's declaration: ``described`` and `then` as its summary, its names as its choices.
    func declaration(then: String = "", group: OptionGroup = .main) -> OptionDeclaration {
        .value(option, placeholder, described + "." + (then.isEmpty ? "" : " " + then), choices: names, group: group)
    }
}

#endif
