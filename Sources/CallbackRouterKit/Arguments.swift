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

/// A small, strict command-line option reader shared by every command.
///
/// Accepts `--name value`, `--name=value`, repeated options, boolean flags, `--` to end
/// options, and positionals. Unknown options and missing values are usage errors (exit 64).
package struct Arguments {
    package struct UsageError: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }
    }

    package private(set) var values: [String: [String]] = [:]
    package private(set) var flags: Set<String> = []
    package private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - options: names (without `--`) that take a value.
    ///   - flags: names (without `--`) that take none. `help` is always a flag.
    package init(_ arguments: some Collection<String>, options: Set<String>, flags: Set<String>) throws(UsageError) {
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        var position = 0
        while let argument = iterator.next() {
            position += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            guard argument.hasPrefix("--") else {
                if argument == "-h" { self.flags.insert("help"); continue }
                throw Arguments.unknownOption(argument, position: position, known: options.union(flags))
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            // Split at the first '=' byte: a Character search would miss an '=' that a
            // combining mark joins into one grapheme with what follows.
            if let equals = name.utf8.firstIndex(of: UInt8(ascii: "=")) {
                inlineValue = String(name[name.utf8.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "help" || flags.contains(name) {
                if inlineValue != nil { throw UsageError(description: "--\(name) takes no value") }
                self.flags.insert(name)
            } else if options.contains(name) {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError(description: "--\(name) needs a value")
                }
                values[name, default: []].append(value)
            } else {
                throw Arguments.unknownOption(argument, position: position, known: options.union(flags))
            }
        }
    }

    package var wantsHelp: Bool { flags.contains("help") }

    /// The error for an argument that looks like an option but is none of this command's.
    /// It names the argument's position and length, never its text: a mistyped
    /// `--stat=SECRET`, or a token pasted where an option was expected, must not reach
    /// stderr, and an innocent typo (`--frobnicate`) cannot be told from a secret by its
    /// bytes. The command's `--help` lists the options it takes.
    /// One exception: a name within a typo's distance of a declared option is a typo of it
    /// (`--scopes`), so it is named with the option meant (its value, after `=`, never is).
    package static func unknownOption(_ argument: String, position: Int, known: Set<String> = []) -> UsageError {
        let name = String(argument.drop { $0 == "-" }.prefix { $0 != "=" })
        if argument.hasPrefix("--"), let meant = Suggestion.closest(to: name, among: known) {
            return UsageError(description: "unknown option --\(name); did you mean --\(meant)?")
        }
        return UsageError(description: "argument \(position) is an unknown option (\(argument.utf8.count) bytes, not shown)")
    }

    /// Whether `option` (a flag or an option with a value) was given.
    package func gave(_ option: OptionDeclaration) -> Bool { gave(option: option.name) }

    /// Whether the option named `name` (without `--`) was given, last with `value` when one
    /// is named: how a ``CommandMode`` is chosen.
    package func gave(option name: String, value: String? = nil) -> Bool {
        guard let value else { return flags.contains(name) || values[name] != nil }
        return values[name]?.last == value
    }

    // Options are read by their declarations (``OptionDeclaration``), which are the only keys:
    // a command reads what it declared, under the name it declared, and a misspelt key does
    // not compile.

    /// Whether the flag `flag` was given.
    package func has(_ flag: OptionDeclaration) -> Bool {
        assert(!flag.takesValue, "--\(flag.name) takes a value: read it with single(_:) or all(_:)")
        return flags.contains(flag.name)
    }

    /// The value of an option given at most once.
    package func single(_ option: OptionDeclaration) throws(UsageError) -> String? {
        assert(option.takesValue, "--\(option.name) is a flag: read it with has(_:)")
        return try onlyValue(named: option.name)
    }

    private func onlyValue(named name: String) throws(UsageError) -> String? {
        guard let all = values[name] else { return nil }
        guard all.count == 1 else { throw UsageError(description: "--\(name) is given more than once") }
        return all[0]
    }

    /// The value of an option that must be given once: a usage error (`missing --NAME`) without it.
    package func required(_ option: OptionDeclaration) throws(UsageError) -> String {
        guard let value = try single(option) else { throw UsageError(description: "missing --\(option.name)") }
        return value
    }

    /// Every value of an option, in the order given.
    package func all(_ option: OptionDeclaration) -> [String] {
        assert(option.takesValue, "--\(option.name) is a flag: read it with has(_:)")
        return values[option.name] ?? []
    }

    /// An option's value as a whole number in `range`.
    package func integer(_ option: OptionDeclaration, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try single(option) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "--\(option.name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Exactly one positional argument, named `what` in the error.
    package func onePositional(_ what: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError(
                description: positionals.isEmpty ? "missing \(what)" : "expected one \(what), got \(positionals.count) arguments")
        }
        return positionals[0]
    }

    package func noPositionals() throws(UsageError) {
        // Never echoed: a stray positional is often a URL or a state.
        if let first = positionals.first {
            throw UsageError(
                description:
                    "unexpected argument (\(first.utf8.count) bytes, not shown): this command takes no arguments besides its options")
        }
    }
}

#endif
