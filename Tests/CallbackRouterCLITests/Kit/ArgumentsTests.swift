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

import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop

/// Usage errors name what was wrong without echoing what may be a secret.
@Suite struct ArgumentsTests {
    private func run(_ arguments: [String]) -> (exit: Int32, stdout: String, stderr: String) {
        runTool(arguments, executablePath: "/x")
    }

    @Test(arguments: [
        ["parse", "--stat=S3cr3tStateValue+/=", "myapp://cb?code=a&state=b"],
        ["parse", "-S3cr3tStateValue", "myapp://cb?code=a&state=b"],
        ["pkce", "myapp://cb?code=S3cr3tStateValue"],
        ["inspect", "--max-length=10", "--S3cr3tStateValue=1", "x:y"],
        ["listen", "--scheme", "myapp", "S3cr3tStateValue"],
        ["register", "--scheme", "myapp", "myapp://cb?code=S3cr3tStateValue"],
    ])
    func neverEchoesAnUnknownArgumentThatLooksLikeData(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.exit == ExitCode.usage)
        #expect(!result.stderr.contains("S3cr3tStateValue"), "\(result.stderr)")
        #expect(!result.stdout.contains("S3cr3tStateValue"))
    }

    /// Not even a harmless-looking unknown option is repeated: a lowercase hex token looks
    /// just as harmless. The error names its position and length, the same for any text.
    @Test(arguments: [
        ["parse", "--frobnicate", "x:y"],
        ["parse", "x:y", "--0123456789abcdef0"],
        ["parse", "-q", "x:y"],
        ["inspect", "--max-length=10", "--s3cr3t=1", "x:y"],
    ])
    func namesAnUnknownOptionByPositionOnly(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.exit == ExitCode.usage)
        let unknown = arguments.dropFirst().first { $0.hasPrefix("-") && !$0.hasPrefix("--max") }!
        let position = arguments.dropFirst().firstIndex(of: unknown)!
        #expect(
            result.stderr.contains("argument \(position) is an unknown option (\(unknown.utf8.count) bytes, not shown)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains(unknown.drop { $0 == "-" }.prefix(4)), "\(result.stderr)")
        #expect(result.stderr.contains("Try 'callback-router \(arguments[0]) --help'"))
    }

    /// Whatever stands where the command should: a callback URL pasted without its command,
    /// a state, a typo, an unknown option. The error lists the commands instead, and is
    /// the same for any argument of the same length.
    @Test(arguments: [
        "myapp://cb?code=S3cr3tStateValue&state=abc",
        "S3cr3tStateValue",
        "prase",
        "--S3cr3tStateValue",
        "-S",
        "PARSE",
        "parse ",
    ])
    func neverEchoesTheCommandPosition(_ first: String) {
        let result = run([first, "--state", "x", "myapp://cb?code=a"])
        #expect(result.exit == ExitCode.usage)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains(first), "\(result.stderr)")
        #expect(!result.stderr.contains("S3cr3t"), "\(result.stderr)")
        #expect(result.stderr.contains("(\(first.utf8.count) bytes, not shown)"), "\(result.stderr)")
        #expect(
            result.stderr.contains("(\(first.utf8.count) bytes, not shown). The commands are")
                || result.stderr.contains("? The commands are"), "punctuated: \(result.stderr)")
        #expect(
            result.stderr.contains(
                "The commands are " + CallbackRouterTool.commands.map { $0.name }.joined(separator: ", ")), "\(result.stderr)")
        // A typo of a command adds the command meant; anything else reads the same
        // for any argument of its length.
        guard Suggestion.closest(to: first, among: CallbackRouterTool.commands.map { $0.name } + ["help"]) == nil else { return }
        let twin = run([String(repeating: first.hasPrefix("-") ? "-" : "z", count: first.utf8.count), "--state", "x", "myapp://cb?code=a"])
        #expect(twin.stderr == result.stderr)
    }

    /// Fuzz-cli reproducer (crash-7e5edc3d…): `--issuer=` followed by a combining mark was
    /// not split at its '=' (a Character search sees "=" + U+0732 as one grapheme), so the
    /// whole argument, value included, was echoed as an unknown option.
    @Test func splitsAnOptionAtItsEqualsSignWhateverFollows() throws {
        let parsed = try Arguments(["--issuer=\u{0732}W:"], options: ["issuer"], flags: [])
        #expect(try parsed.single(CommonOptions.issuer) == "\u{0732}W:")
        let result = run(["parse", "--issuer=\u{0732}W:", "myapp://cb?code=a&state=b"])
        #expect(!result.stderr.contains("unknown option"))
        #expect(!result.stderr.contains("W:"))
    }
}

/// `--dialect`, `--policy` and `--response-mode` are read by one table per option
/// (`OptionValues`): every command accepts the same names, refuses others with the same
/// message, which never repeats the value, and lists the names in its `--help`.
@Suite struct OptionValuesTests {
    private func run(_ arguments: [String]) -> (exit: Int32, stdout: String, stderr: String) {
        runTool(arguments, executablePath: "/x")
    }

    /// Where each command takes each option, with the arguments it needs besides.
    static let uses: [(command: String, option: String, rest: [String])] = [
        ("parse", "dialect", ["myapp:/cb?code=a"]),
        ("parse", "policy", ["myapp:/cb?code=a"]),
        ("parse", "response-mode", ["myapp:/cb?code=a"]),
        ("authorize-url", "policy", ["--endpoint", "https://e.example/a", "--client-id", "c", "--redirect-uri", "myapp:/cb"]),
        ("loopback", "dialect", ["--no-state", "--timeout", "0.001"]),
        ("listen", "dialect", ["--scheme", "myapp", "--timeout", "0"]),
        ("listen", "policy", ["--scheme", "myapp", "--timeout", "0"]),
        ("listen", "response-mode", ["--scheme", "myapp", "--timeout", "0"]),
    ]

    /// The names `command` declares for `option` (what its completions offer).
    static func choices(_ command: String, _ option: String) -> [String] {
        CallbackRouterTool.commands.first { $0.name == command }!.options.first { $0.name == option }!.choices
    }

    @Test(arguments: uses.indices)
    func refusesAnUnknownValueWithoutRepeatingIt(_ index: Int) {
        let use = Self.uses[index]
        for value in ["S3cr3tStateValue", "myapp://cb?code=S3cr3tStateValue", "AUTO", "native "] {
            let result = run([use.command, "--\(use.option)", value] + use.rest)
            #expect(result.exit == ExitCode.usage, "\(use)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains(value), "\(use) echoed the value: \(result.stderr)")
            let expected = "--\(use.option) takes one of " + Self.choices(use.command, use.option).joined(separator: ", ")
            #expect(result.stderr.contains(expected), "\(use): \(result.stderr)")
        }
    }

    @Test(arguments: uses.indices)
    func helpListsEveryAcceptedName(_ index: Int) {
        let use = Self.uses[index]
        let help = run([use.command, "--help"]).stdout
        let entryStart = help.firstRange(of: "  --\(use.option) ")!
        let entry = help[entryStart.upperBound...].prefix(400)
        for name in Self.choices(use.command, use.option) {
            #expect(entry.contains(name), "\(use.command) --help does not list \(name) for --\(use.option)")
        }
    }

    @Test func everyNameReadsItsOwnValue() throws {
        for name in OptionValues.dialect.names {
            #expect(try OptionValues.dialect.read(Arguments(["--dialect", name], options: ["dialect"], flags: [])).rawValue == name)
        }
        #expect(
            try OptionValues.policy.read(Arguments(["--policy=custom-scheme-only"], options: ["policy"], flags: [])) == .customSchemeOnly)
        #expect(try OptionValues.policy.read(Arguments([], options: ["policy"], flags: [])) == .native)
        #expect(
            try OptionValues.responseMode.read(Arguments(["--response-mode", "fragment"], options: ["response-mode"], flags: []))
                == .fragment)
        #expect(try OptionValues.responseMode.read(Arguments([], options: ["response-mode"], flags: [])) == .query)
        #expect(try OptionValues.dialect.read(Arguments([], options: ["dialect"], flags: [])) == .auto)
    }

    @Test func anAcceptedValueWorksInEveryCommand() {
        // The policy reaches the validator: custom-scheme-only refuses an http redirect URI.
        let refused = run([
            "parse", "--policy", "custom-scheme-only", "--redirect-uri", "http://127.0.0.1/cb", "http://127.0.0.1/cb?code=a",
        ])
        #expect(refused.exit == ExitCode.usage)
        #expect(refused.stdout.contains("invalid_configuration"))
        let fragment = run(["parse", "--response-mode", "fragment", "myapp:/cb#code=a"])
        #expect(fragment.exit == ExitCode.success, "\(fragment)")
        let clerk = run(["parse", "--dialect", "clerk", "myapp:/cb?rotating_token_nonce=n"])
        #expect(clerk.stdout.contains(#""dialect":"clerk""#), "\(clerk)")
    }
}
