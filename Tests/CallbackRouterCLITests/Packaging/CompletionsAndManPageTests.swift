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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import CallbackRouter
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
@testable import CallbackRouterPackaging

private func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
    let run = runTool(arguments, executablePath: "/usr/bin/callback-router")
    return (run.exit, run.stdout, run.stderr)
}

private let catalog = CommandCatalog()
private let commandNames = CallbackRouterTool.commands.map { $0.name }

/// The lines of `script` between the line that contains `start` and the next line that
/// contains `end` (a command's part of a completion script).
private func part(of script: String, from start: String, to end: String) -> String {
    var lines: [Substring] = []
    var inside = false
    for line in script.split(separator: "\n") {
        if inside && line.locate(end) != nil { break }
        if inside { lines.append(line) }
        if !inside && line.locate(start) != nil { inside = true; lines.append(line) }
    }
    return lines.joined(separator: "\n")
}

/// The options one surface lists for a command: read back from the text users get, never
/// from the declaration, so that a test comparing them with the declaration can fail.
private enum Listed {
    /// The `--name`s of the entries of every `…OPTIONS` section of `--help` (`-h, --help` aside).
    static func help(_ text: String) -> [String] {
        let help = HelpText(text)
        return help.sections.filter { $0.title.locate("OPTIONS") != nil }
            .flatMap { HelpText.entries($0.lines) }.flatMap(\.optionNames).filter { $0 != "help" }
    }

    static func bash(_ name: String) -> [String] {
        let block = part(of: CompletionScript(catalog: catalog).bash, from: "        \(name))", to: ";;\n")
        let words = part(of: block, from: "options='", to: "'").split(separator: "'").dropFirst().first ?? ""
        return words.split(separator: " ").map { String($0.dropFirst(2)) }.filter { $0 != "help" }
    }

    static func zsh(_ name: String) -> [String] {
        let block = part(of: CompletionScript(catalog: catalog).zsh, from: "                \(name))", to: " ;;")
        return block.split(separator: "\n").compactMap { line -> String? in
            let spec = line.drop { $0 == " " }.drop { $0 == "'" || $0 == "*" }
            guard spec.hasPrefix("--") else { return nil }
            return String(spec.dropFirst(2).prefix { $0 != "=" && $0 != "[" })
        }
    }

    static func fish(_ name: String) -> [String] {
        CompletionScript(catalog: catalog).fish.split(separator: "\n")
            .filter { $0.locate("'__fish_seen_subcommand_from \(name)'") != nil }
            .compactMap { line -> String? in
                guard let range = line.locate(" -l ") else { return nil }
                return String(line[range.upperBound...].prefix { $0 != " " })
            }.filter { $0 != "help" }
    }

    /// The bold `\-\-name` after each `.TP` of the page.
    static func man(_ name: String) throws -> [String] {
        let page = try #require(ManPage().page(named: name))
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        var names: [String] = []
        for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
            var term = Substring(lines[index + 1])
            while let range = term.locate("\\fB\\-\\-") {
                let rest = term[range.upperBound...]
                let end = rest.locate("\\fR")?.lowerBound ?? rest.endIndex
                names.append(String(rest[..<end]).replacingOccurrences("\\-", with: "-"))
                term = rest[end...]
            }
        }
        return names.filter { $0 != "help" }
    }
}

@Suite struct EverySurfaceListsTheDeclaredOptionsTests {
    /// `--help`, the three completion scripts and the man page each list exactly the
    /// options the command declares (so parses), once each, for every command.
    @Test(arguments: commandNames)
    func helpCompletionsAndManPageListTheDeclaration(_ name: String) throws {
        let command = try #require(CallbackRouterTool.commands.first { $0.name == name })
        let declared = command.options.map(\.name).sorted()
        #expect(Set(declared).count == declared.count, "\(name) declares an option twice")
        #expect(Listed.help(command.help).sorted() == declared, "--help of \(name)")
        #expect(Listed.bash(name).sorted() == declared, "bash: \(name)")
        #expect(Listed.zsh(name).sorted() == declared, "zsh: \(name)")
        #expect(Listed.fish(name).sorted() == declared, "fish: \(name)")
        #expect(try Listed.man(name).sorted() == declared, "man page of \(name)")
    }

    /// Each option with a fixed set of values is offered exactly that set by every shell.
    @Test(arguments: commandNames)
    func completionsOfferTheDeclaredChoices(_ name: String) throws {
        let command = try #require(CallbackRouterTool.commands.first { $0.name == name })
        let scripts = CompletionScript(catalog: catalog)
        let bash = part(of: scripts.bash, from: "        \(name))", to: ";;\n            ;;")
        let zsh = part(of: scripts.zsh, from: "                \(name))", to: " ;;")
        for option in command.options where !option.choices.isEmpty {
            let words = option.choices.joined(separator: " ")
            #expect(bash.locate("--\(option.name)) COMPREPLY=( $(compgen -W '\(words)'") != nil, "bash: \(name) --\(option.name)")
            #expect(zsh.locate("--\(option.name)=[") != nil && zsh.locate(":(\(words))'") != nil, "zsh: \(name) --\(option.name)")
            #expect(
                scripts.fish.locate("'__fish_seen_subcommand_from \(name)' -l \(option.name) -x -a '\(words)'") != nil,
                "fish: \(name) --\(option.name)")
        }
    }

    /// The bug this design removes: `loopback` and `login` take `--response-mode query|form_post`,
    /// and their completions offered `query fragment`, the names `parse` takes.
    @Test(arguments: ["loopback", "login"])
    func theLoopbackResponseModesAreTheOnesItReads(_ name: String) throws {
        let command = try #require(CallbackRouterTool.commands.first { $0.name == name })
        let choices = try #require(command.options.first { $0.name == "response-mode" }).choices
        #expect(choices == ["query", "form_post"])
        for choice in choices {
            let args = try Arguments(["--response-mode", choice], options: ["response-mode"], flags: [])
            #expect(throws: Never.self) { try LoopbackOptions.readConfiguration(args) }
        }
        #expect(
            CompletionScript(catalog: catalog).fish.locate("'__fish_seen_subcommand_from \(name)' -l response-mode -x -a 'query fragment'")
                == nil)
    }

    /// login's groups are man sections of their own, each option a tagged paragraph: a
    /// group's note is whole ("the default: …"), and its options are not run together.
    @Test func loginsOptionGroupsAreSectionsOfTheManPage() throws {
        let page = try #require(ManPage().page(named: "login"))
        #expect(page.locate(".SH \"LOOPBACK OPTIONS\"\nThe default: an RFC 8252 receiver on 127.0.0.1.\n.TP\n") != nil)
        #expect(page.locate(".SH \"SCHEME OPTIONS\"\n") != nil)
        #expect(page.locate("defaul:") == nil)
        #expect(page.locate(".TP\n\\fB\\-\\-port\\fR \\fIN[,N\\[u2026]]\\fR\n") != nil)
    }

    /// And nothing more: each option the catalog lists is accepted by the command's parser
    /// (run with the option, then --help: a rejected option would be a usage error).
    @Test(arguments: commandNames)
    func everyListedOptionIsAccepted(_ name: String) throws {
        let entry = try #require(catalog.command(named: name))
        for option in entry.options {
            let arguments = option.takesValue ? [name, "--" + option.name, "x", "--help"] : [name, "--" + option.name, "--help"]
            let result = run(arguments)
            #expect(result.code == ExitCode.success, "\(name) --\(option.name): \(result.err)")
            #expect(result.out == CallbackRouterTool.commands.first { $0.name == name }!.help)
        }
    }

    @Test func fixedValuesAreOfferedForDialectPolicyAndResponseMode() throws {
        let parse = try #require(catalog.command(named: "parse"))
        #expect(parse.options.first { $0.name == "dialect" }?.choices == Dialect.allCases.map(\.rawValue))
        #expect(parse.options.first { $0.name == "policy" }?.choices == ["native", "custom-scheme-only"])
        #expect(parse.options.first { $0.name == "response-mode" }?.choices == ["query", "fragment"])
        let bash = CompletionScript(catalog: catalog).bash
        #expect(bash.locate("--dialect) COMPREPLY=( $(compgen -W '\(Dialect.allCases.map(\.rawValue).joined(separator: " "))'") != nil)
        #expect(CompletionScript(catalog: catalog).fish.locate("-l policy -x -a 'native custom-scheme-only'") != nil)
    }

    @Test func fileOptionsCompleteFileNamesAndFreeValuesNothing() throws {
        let loopback = try #require(catalog.command(named: "loopback"))
        #expect(loopback.options.first { $0.name == "redirect-uri-file" }?.takesFile == true)
        #expect(loopback.options.first { $0.name == "path" }?.takesFile == false)
        #expect(loopback.options.first { $0.name == "state" }?.takesFile == false)
        let scripts = CompletionScript(catalog: catalog)
        #expect(scripts.fish.locate("-l redirect-uri-file -r -F") != nil)
        #expect(scripts.zsh.locate("--redirect-uri-file=[") != nil && scripts.zsh.locate(":F:_files'") != nil)
        #expect(scripts.fish.locate("-l state -x -d") != nil)
    }

    @Test func repeatableOptionsAreMarkedForZsh() throws {
        let parse = try #require(catalog.command(named: "parse"))
        #expect(parse.options.first { $0.name == "redirect-uri" }?.repeatable == true)
        #expect(parse.options.first { $0.name == "state" }?.repeatable == false)
        #expect(CompletionScript(catalog: catalog).zsh.locate("'*--redirect-uri=[") != nil)
    }
}

@Suite struct CompletionsCommandTests {
    @Test(arguments: CompletionShell.allCases)
    func printsEachShellsScript(_ shell: CompletionShell) {
        let result = run(["completions", shell.rawValue])
        #expect(result.code == ExitCode.success)
        #expect(result.out == CompletionScript().script(for: shell))
        #expect(result.err.isEmpty)
    }

    /// A wrong word is refused without being repeated (it may be a pasted secret).
    @Test(arguments: [["completions"], ["completions", "tcsh-SECRET"], ["completions", "bash", "zsh"], ["completions", "--shell=bash"]])
    func refusesAnythingButOneShell(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.code == ExitCode.usage)
        #expect(result.out.isEmpty)
        #expect(result.err.locate("SECRET") == nil && result.err.locate("tcsh") == nil)
    }

    @Test func theCompletionsCommandCompletesItsShells() throws {
        let entry = try #require(catalog.command(named: "completions"))
        #expect(entry.positionalChoices == ["bash", "zsh", "fish"])
        #expect(CompletionScript(catalog: catalog).bash.locate("positionals='bash zsh fish'") != nil)
    }

    @Test func topLevelWordsAreTheToolsCommandWords() {
        let bash = CompletionScript(catalog: catalog).bash
        for word in CallbackRouterTool.commandWords {
            #expect(
                part(of: bash, from: "COMP_CWORD == 1", to: "return").locate(" \(word)") != nil
                    || part(of: bash, from: "COMP_CWORD == 1", to: "return").locate("'\(word) ") != nil, "\(word)")
        }
    }
}

@Suite struct ManPageTests {
    static let requests: Set<String> = [".TH", ".SH", ".TP", ".PP", ".nf", ".fi", ".RS", ".RE", ".IP", ".\\\""]

    /// Every line that starts with a dot is one of the requests the renderer writes: help
    /// text can never inject a roff request.
    @Test(arguments: [nil] + commandNames)
    func everyLineIsTextOrAKnownRequest(_ name: String?) throws {
        let page = try #require(ManPage().page(named: name))
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            let request = String(line.prefix { $0 != " " }).replacingOccurrences("\\\"", with: "\\\"")
            #expect(Self.requests.contains(request) || Self.requests.contains(String(line.prefix(3))), "\(line)")
        }
        #expect(page.hasPrefix(".\\\" Generated"))
        #expect(page.locate(".SH NAME\n") != nil && page.locate(".SH SYNOPSIS\n") != nil && page.locate(".SH DESCRIPTION\n") != nil)
    }

    @Test(arguments: [
        ("a.b", "a.b"), (".start", "\\&.start"), ("'quote", "\\&'quote"), ("--state", "\\-\\-state"),
        ("back\\slash", "back\\eslash"), ("RFC 8252 §7.3 …", "RFC 8252 \\[u00A7]7.3 \\[u2026]"),
    ])
    func escapesRoff(_ input: String, _ expected: String) {
        #expect(ManPage.lineSafe(ManPage.escaped(input)) == expected)
    }

    @Test func hostileHelpProseCannotStartARequest() {
        let roff = ManPage.prose([".so /etc/shadow", "'br", "plain"])
        #expect(roff.split(separator: "\n").allSatisfy { !$0.hasPrefix(".so") && !$0.hasPrefix("'") })
    }

    @Test func toolPageListsEveryCommandAndSeeAlso() throws {
        let page = ManPage().toolPage
        for name in commandNames {
            #expect(page.locate("\\fB" + ManPage.escaped(name) + "\\fR") != nil, "\(name)")
            #expect(page.locate("\\fBcallback\\-router\\-" + ManPage.escaped(name) + "\\fR(1)") != nil, "\(name)")
        }
        #expect(ManPage().allPages.count == commandNames.count + 1)
    }

    @Test func sectionsFollowTheHelp() throws {
        let page = try #require(ManPage().page(named: "parse"))
        let titles = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { String($0.dropFirst(4)) }
        #expect(
            titles == ["NAME", "SYNOPSIS", "DESCRIPTION", "ARGUMENTS", "OPTIONS", "OUTPUT", "\"EXIT STATUS\"", "EXAMPLES", "\"SEE ALSO\""]
                || titles == [
                    "NAME", "SYNOPSIS", "DESCRIPTION", "ARGUMENTS", "OPTIONS", "OUTPUT", "\"EXIT STATUS\"", "EXAMPLES", "SEE ALSO",
                ])
        #expect(page.locate(".TP\n\\fB\\-\\-dialect\\fR \\fID\\fR\n") != nil)
    }

    @Test func unknownCommandIsAUsageErrorThatDoesNotEchoIt() {
        let result = run(["manpage", "SECRET-state"])
        #expect(result.code == ExitCode.usage)
        #expect(result.err.locate("SECRET") == nil)
        #expect(run(["manpage", "parse"]).out == ManPage().page(named: "parse"))
    }
}

@Suite struct HelpTextParsingTests {
    @Test func splitsSectionsHeadingsAndProse() {
        let help = HelpText(
            """
            OVERVIEW: One line,
            and its continuation.

            USAGE: callback-router x [--a A] URL

            OPTIONS:
              --a A, --b B            First
                                      and second.
              --c                     Flag.

            Prose at column zero.

            EXAMPLE (bash):
              x --a 1

            """)
        #expect(help.sections.map(\.title) == ["OVERVIEW", "USAGE", "OPTIONS", "", "EXAMPLE (bash)"])
        #expect(help.overview == "One line, and its continuation.")
        #expect(help.usageTakesPositional)
        #expect(
            help.entries(of: "OPTIONS") == [
                .init(term: "--a A, --b B", description: "First and second."),
                .init(term: "--c", description: "Flag."),
            ])
        #expect(help.entries(of: "OPTIONS").flatMap(\.optionNames) == ["a", "b", "c"])
        #expect(help.section("EXAMPLE")?.lines == ["  x --a 1"])
    }
}

@Suite struct ManPageDirectoryTests {
    private static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/callback-router-manpage.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func contents(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0 ..< n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// --directory writes every page, each exactly what `manpage [COMMAND]` prints, mode 0644.
    @Test func writesEveryPage() throws {
        let directory = try Self.temporaryDirectory()
        let result = run(["manpage", "--directory", directory])
        #expect(result.code == ExitCode.success, "\(result.err)")
        let pages = ManPage().allPages
        #expect(result.out == "{\"written\":[" + pages.map { "\"\($0.fileName)\"" }.joined(separator: ",") + "]}\n")
        for (fileName, text) in pages {
            let path = directory + "/" + fileName
            #expect(Self.contents(path) == text, "\(fileName)")
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o644, "\(fileName)")
            unlink(path)
        }
        #expect(Self.contents(directory + "/callback-router-parse.1") == nil)
        rmdir(directory)
    }

    @Test func aMissingDirectoryIsAPermissionFailure() throws {
        let result = run(["manpage", "--directory", "/nonexistent/callback-router-man"])
        #expect(result.code == ExitCode.permission)
        #expect(result.out.isEmpty)
        #expect(!result.err.isEmpty)
    }

    @Test func directoryTakesNoCommand() {
        let result = run(["manpage", "--directory", "/tmp", "parse"])
        #expect(result.code == ExitCode.usage)
    }
}
