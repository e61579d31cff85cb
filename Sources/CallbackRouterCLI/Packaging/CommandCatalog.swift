import CallbackRouter

/// What shell completions and man pages know about each command, derived from the two
/// places the command itself defines: the option sets its argument reader is given, and its
/// `--help` text. Nothing here is a second list that could drift: a command that gains an
/// option gains it in its completions at once, and a test fails when its `--help` (so its
/// man page) does not name it.
struct CommandCatalog: Sendable {
    /// One command-line option of one command.
    struct Option: Sendable, Equatable {
        /// The name without `--`.
        let name: String
        /// Whether it takes a value (`--state S`) or is a flag (`--no-state`).
        let takesValue: Bool
        /// The value's placeholder in `--help` (`S`, `SECONDS`, `F`); empty for a flag or
        /// when the help names none.
        let placeholder: String
        /// The first sentence of its `--help` description; empty when the help has no entry.
        let summary: String
        /// The fixed set of values (`--dialect`, `--policy`, `--response-mode`), if any.
        let choices: [String]
        /// Whether the help text says it can be given more than once.
        let repeatable: Bool

        /// Whether the value is a file name (`--redirect-uri-file F`).
        var takesFile: Bool {
            takesValue && (name.hasSuffix("-file") || ["F", "FILE", "PATH"].contains(placeholder))
        }
    }

    /// One subcommand.
    struct Entry: Sendable {
        let name: String
        let summary: String
        let help: String
        let options: [Option]
        /// The values of its positional argument when they come from a fixed set
        /// (`completions bash|zsh|fish`), else empty.
        let positionalChoices: [String]
        /// Whether the help's USAGE line shows a positional argument (`URL`, `SHELL`).
        let takesPositional: Bool

        /// The options the command accepts that its `--help`, hence its man page, never
        /// names (a test keeps this empty for every command).
        var optionsMissingFromHelp: [String] {
            let mentioned = HelpText(help).mentionedOptions
            return options.map(\.name).filter { !mentioned.contains($0) }
        }
    }

    let commands: [Entry]

    /// The catalog of `commands` (default: every command of the helper).
    init(_ commands: [any Command.Type] = CallbackRouterTool.commands) {
        self.commands = commands.map(Self.entry(for:))
    }

    func command(named name: String) -> Entry? { commands.first { $0.name == name } }

    static func entry(for command: any Command.Type) -> Entry {
        let accepted = acceptedOptions(of: command)
        let help = HelpText(command.help)
        var options: [Option] = []
        for name in accepted.options.sorted() {
            options.append(option(name, takesValue: true, help: help))
        }
        for name in accepted.flags.sorted() where name != "help" {
            options.append(option(name, takesValue: false, help: help))
        }
        let positionalChoices = (command as? any PositionalChoices.Type)?.positionalChoices ?? []
        return Entry(
            name: command.name, summary: command.summary, help: command.help, options: options,
            positionalChoices: positionalChoices, takesPositional: help.usageTakesPositional)
    }

    private static func option(_ name: String, takesValue: Bool, help: HelpText) -> Option {
        let entry = help.optionEntry(naming: name)
        let choices = OptionValues.namesByOption.first { $0.option == name }?.names ?? []
        let repeatable =
            help.usage.locate("--\(name) ") != nil && help.usageShowsRepetition(of: name)
            || (entry?.description.locate("repeat") != nil)
        return Option(
            name: name, takesValue: takesValue,
            placeholder: takesValue ? (entry?.placeholder(of: name) ?? "") : "",
            summary: entry.map { firstSentence($0.description) } ?? "",
            choices: choices, repeatable: repeatable)
    }

    /// The options and flags `command` hands to its argument reader: the command is run
    /// with `--help` alone while a recorder listens to ``Command/readArguments``. `--help`
    /// stops every command before it does anything else, so nothing is touched.
    static func acceptedOptions(of command: any Command.Type) -> (options: Set<String>, flags: Set<String>) {
        let recorder = OptionRecorder()
        let context = CommandContext(output: DiscardedOutput(), environment: [:], executablePath: "/nonexistent")
        _ = OptionRecorder.currentTaskLocal.withValue(recorder) {
            command.run(["--help"], context: context)
        }
        return recorder.recorded
    }

    /// Up to the first ". " (or the whole text), without the final period.
    static func firstSentence(_ text: String) -> String {
        var sentence = text
        if let range = text.locate(". ") { sentence = String(text[..<range.lowerBound]) }
        while sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }
}

/// A command whose one positional argument is a name from a fixed set.
protocol PositionalChoices {
    static var positionalChoices: [String] { get }
}

/// Collects the option sets ``Command/readArguments`` is given while it is the task-local
/// ``current`` (set only by ``CommandCatalog/acceptedOptions(of:)``).
final class OptionRecorder: Sendable {
    // Spelled without the @TaskLocal macro: tools that type-check the sources without the
    // toolchain's macro plugins (scripts/check-availability.sh) read it too.
    static let currentTaskLocal = TaskLocal<OptionRecorder?>(wrappedValue: nil)
    static var current: OptionRecorder? { currentTaskLocal.get() }

    private let sets = Locked<(options: Set<String>, flags: Set<String>)>(([], []))

    func record(options: Set<String>, flags: Set<String>) {
        sets.withLock {
            $0.options.formUnion(options)
            $0.flags.formUnion(flags)
        }
    }

    var recorded: (options: Set<String>, flags: Set<String>) { sets.withLock { $0 } }
}

/// Output that goes nowhere (the `--help` run of ``CommandCatalog/acceptedOptions(of:)``).
final class DiscardedOutput: CommandOutput {
    func writeOut(_ text: String) {}
    func writeErr(_ text: String) {}
}

/// A command's `--help` text, split into the sections every command's help uses:
/// `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:`, `OUTPUT:`, `EXIT CODES:`, `EXAMPLE:`…
/// (a heading is a line that starts at column 0 with capitals and a colon), and untitled
/// paragraphs of prose between them.
struct HelpText: Sendable {
    struct Section: Sendable, Equatable {
        /// `OPTIONS`, `EXIT CODES`, `EXAMPLE (bash; jq for brevity)`; empty for untitled prose.
        let title: String
        /// The text after the heading's colon on the heading line, if any.
        let inline: String
        /// The lines after the heading, as written (trailing blank lines dropped).
        let lines: [String]
    }

    /// One entry of a two-column list (`OPTIONS`, `ARGUMENTS`, `COMMANDS`).
    struct Entry: Sendable, Equatable {
        /// The left column: `--dialect D`, `--max-length N, --max-parameters N`, `URL`.
        let term: String
        /// The right column, its lines joined by single spaces.
        let description: String

        /// The option names the term lists (without `--`).
        var optionNames: [String] {
            var names: [String] = []
            var rest = Substring(term)
            while let range = rest.locate("--") {
                let tail = rest[range.upperBound...]
                let name = tail.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                if !name.isEmpty { names.append(String(name)) }
                rest = tail.dropFirst(name.count)
            }
            return names
        }

        /// The placeholder after `--name ` in the term (`S`, `NAME=VALUE`).
        func placeholder(of name: String) -> String? {
            guard let range = term.locate("--\(name) ") else { return nil }
            let value = term[range.upperBound...].prefix { $0 != "," && $0 != " " }
            return value.isEmpty || value.hasPrefix("-") ? nil : String(value)
        }
    }

    let sections: [Section]

    init(_ text: String) {
        var sections: [Section] = []
        var title = ""
        var inline = ""
        var lines: [String] = []
        var started = false
        func flush() {
            while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
            while lines.first?.allSatisfy(\.isWhitespace) == true { lines.removeFirst() }
            if started && (!lines.isEmpty || !inline.isEmpty || !title.isEmpty) {
                sections.append(Section(title: title, inline: inline, lines: lines))
            }
            lines = []
        }
        var previousBlank = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let blank = line.allSatisfy(\.isWhitespace)
            if let (heading, rest) = Self.heading(line) {
                flush()
                title = heading
                inline = rest
                started = true
            } else if !blank && previousBlank && line.first?.isWhitespace == false {
                // A paragraph at column 0 after a blank line: prose of its own.
                flush()
                title = ""
                inline = ""
                started = true
                lines.append(line)
            } else {
                lines.append(line)
            }
            previousBlank = blank
        }
        flush()
        self.sections = sections
    }

    /// `("EXIT CODES", "")` for `EXIT CODES:`, `("USAGE", "callback-router …")` for a
    /// USAGE line; nil for any other line.
    static func heading(_ line: String) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let head = line[..<colon]
        guard let first = head.first, first.isUppercase, first.isASCII else { return nil }
        var inParentheses = false
        for character in head {
            if character == "(" { inParentheses = true }
            if inParentheses { if character == ")" { inParentheses = false }; continue }
            guard character.isUppercase || character == " " else { return nil }
        }
        let rest = line[line.index(after: colon)...].drop { $0 == " " }
        return (String(head), String(rest))
    }

    func section(_ title: String) -> Section? {
        sections.first { $0.title == title || $0.title.hasPrefix(title + " (") }
    }

    /// The OVERVIEW text, its lines joined.
    var overview: String {
        guard let section = section("OVERVIEW") else { return "" }
        return ([section.inline] + section.lines).map { $0.trimmingSpaces }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The USAGE text, as written (continuation lines included).
    var usage: String {
        guard let section = section("USAGE") else { return "" }
        return ([section.inline] + section.lines).joined(separator: "\n")
    }

    /// Whether the USAGE ends with a positional argument (a word without `-` after the
    /// last option), such as `URL` or `bash|zsh|fish`.
    var usageTakesPositional: Bool {
        guard let last = usage.split(whereSeparator: { $0 == " " || $0 == "\n" }).last else { return false }
        return !last.hasPrefix("[") && !last.hasPrefix("-") && !last.hasPrefix("(") && !last.hasSuffix("]")
            && !last.hasSuffix(")") && last != "<command>"
    }

    /// Whether the USAGE shows `--name X]...` (given more than once).
    func usageShowsRepetition(of name: String) -> Bool {
        guard let range = usage.locate("--\(name) ") else { return false }
        let tail = usage[range.upperBound...].prefix { $0 != "[" && $0 != "\n" }
        return tail.locate("...") != nil || tail.locate("…") != nil
    }

    /// The two-column entries of a section (`OPTIONS`, `ARGUMENTS`, `COMMANDS`): a line
    /// indented by two spaces starts an entry, a line indented further continues it.
    func entries(of title: String) -> [Entry] {
        guard let section = section(title) else { return [] }
        return Self.entries(section.lines)
    }

    static func entries(_ lines: [String]) -> [Entry] {
        var entries: [(term: String, description: [String])] = []
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            let text = line.trimmingSpaces
            if text.isEmpty { continue }
            if indent <= 2 || entries.isEmpty {
                // Term and description are separated by a run of two or more spaces.
                if let gap = text.locate("  ") {
                    entries.append((String(text[..<gap.lowerBound]), [text[gap.upperBound...].trimmingSpaces]))
                } else {
                    entries.append((text, []))
                }
            } else {
                entries[entries.count - 1].description.append(text)
            }
        }
        return entries.map { Entry(term: $0.term, description: $0.description.joined(separator: " ")) }
    }

    /// The OPTIONS entry whose term names `--name`.
    func optionEntry(naming name: String) -> Entry? {
        entries(of: "OPTIONS").first { $0.optionNames.contains(name) }
    }

    /// Every `--name` the whole text mentions.
    var mentionedOptions: Set<String> {
        Set(
            Entry(
                term: sections.map { ([$0.inline] + $0.lines).joined(separator: " ") }.joined(separator: " "),
                description: ""
            ).optionNames)
    }
}

extension StringProtocol {
    /// The range of the first occurrence of `target` (a plain scan: help texts are short,
    /// and `firstRange(of:)` would tie the module to newer string-processing availability).
    func locate(_ target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) {
                return start ..< index(start, offsetBy: target.count)
            }
            formIndex(after: &start)
        }
        return nil
    }
}
