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
