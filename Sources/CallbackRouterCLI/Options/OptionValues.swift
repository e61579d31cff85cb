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

/// The options whose values are names from a fixed set, shared by every command.
enum OptionValues {
    static let dialect = OptionChoices<Dialect>(
        option: "dialect", placeholder: "D",
        choices: Dialect.allCases.map { .init(name: $0.rawValue, value: $0, note: nil) },
        defaultName: Dialect.auto.rawValue)

    static let policy = OptionChoices<RedirectURIPolicy>(
        option: "policy", placeholder: "P",
        choices: [
            .init(
                name: "native", value: .native,
                note: "RFC 8252 private-use scheme, http://127.0.0.1 or http://[::1] any port, claimed https on a domain"),
            .init(name: "custom-scheme-only", value: .customSchemeOnly, note: "http and https refused"),
        ],
        defaultName: "native")

    static let responseMode = OptionChoices<ResponseMode>(
        option: "response-mode", placeholder: "M",
        choices: [
            .init(name: ResponseMode.query.rawValue, value: .query, note: nil),
            .init(name: ResponseMode.fragment.rawValue, value: .fragment, note: nil),
        ],
        defaultName: ResponseMode.query.rawValue)

    /// The dialects whose provider accepts only a custom scheme (``Dialect/impliedPolicy``),
    /// as help text names them: `prelude and clerk`.
    static let customSchemeDialects = Dialect.allCases.filter { $0.impliedPolicy != nil }.map(\.rawValue)

    /// The dialects `auto` never picks: `ory`.
    static let dialectsAutoNeverPicks = Dialect.allCases.filter { $0 != .auto && !$0.isPickedByAuto }.map(\.rawValue)

    /// The stateless dialects an http redirect URI can serve, capitalised: `Ory and Zephr`.
    static let statelessHTTPDialects = Dialect.allCases.filter { $0.isStateless && $0.impliedPolicy == nil }
        .map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ names: [String]) -> String {
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// `--profile NAME`, repeatable: the provider profiles a route opts into.
    static let profile = OptionChoices<ProviderProfile>(
        option: "profile", placeholder: "NAME",
        choices: ProviderProfile.allCases.map { .init(name: $0.name, value: $0, note: nil) },
        defaultName: ProviderProfile.allCases[0].name)

    /// Every `--profile` given, in order, without repeats; a usage error naming the known
    /// profiles (never the value typed) for a name that is not one.
    static func profiles(_ args: Arguments) throws(Arguments.UsageError) -> [ProviderProfile] {
        var chosen: [ProviderProfile] = []
        for name in args.all(profileDeclaration) {
            guard let value = profile.value(named: name) else {
                throw Arguments.UsageError(
                    description: "--profile takes one of " + profile.names.joined(separator: ", ")
                        + " (see docs/providers.md)")
            }
            if !chosen.contains(value) { chosen.append(value) }
        }
        return chosen
    }

    /// `--profile NAME`'s declaration: repeatable, no default.
    static let profileDeclaration = OptionDeclaration.value(
        profile.option, profile.placeholder,
        "A provider profile the callback's route opts into, one of " + profile.names.joined(separator: ", ")
            + "; repeat for several. Each relaxes one named rule for that provider's known quirk (docs/providers.md).",
        repeatable: true, choices: profile.names)

    /// The scope an authorization request sends: `--scope S` (default `openid`), or none
    /// with `--no-scope` (authorize-url, login).
    static func scope(_ args: Arguments) throws(Arguments.UsageError) -> String? {
        let scope = try args.single(CommonOptions.scope)
        guard args.has(CommonOptions.noScope) else { return scope ?? "openid" }
        guard scope == nil else { throw Arguments.UsageError(description: "--scope and --no-scope exclude each other") }
        return nil
    }

    /// The parser's limits from `--max-length`, `--max-parameters`, `--max-value-length`.
    static func limits(_ args: Arguments) throws(Arguments.UsageError) -> ParsingLimits {
        let defaults = ParsingLimits.default
        return ParsingLimits(
            maxLength: try args.integer(maxLength, in: 1 ... 1 << 24) ?? defaults.maxLength,
            maxParameters: try args.integer(maxParameters, in: 0 ... 1 << 16) ?? defaults.maxParameters,
            maxValueLength: try args.integer(maxValueLength, in: 0 ... 1 << 24) ?? defaults.maxValueLength)
    }

    /// `--max-length N`, `--max-parameters N`, `--max-value-length N`: the parser's limits.
    static let limitDeclarations = [maxLength, maxParameters, maxValueLength]
    static let maxLength = OptionDeclaration.value("max-length", "N", "Longest URL accepted, in bytes (default 16384).")
    static let maxParameters = OptionDeclaration.value("max-parameters", "N", "Most parameters accepted (default 64).")
    static let maxValueLength = OptionDeclaration.value(
        "max-value-length", "N", "Longest parameter name or value, in bytes (default 8192).")
}

#endif
