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

import CallbackRouterKit

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
        // The colon that ends the heading is the first one outside parentheses: a note in
        // them (`LOOPBACK OPTIONS (the default: …):`) may hold colons of its own.
        var depth = 0
        var colon: String.Index?
        for index in line.indices {
            switch line[index] {
            case "(": depth += 1
            case ")": depth -= 1
            case ":" where depth == 0: colon = index
            default: break
            }
            if colon != nil { break }
        }
        guard let colon else { return nil }
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
        return ([section.inline] + section.lines).map { $0.withoutSurroundingSpaces }.filter { !$0.isEmpty }.joined(separator: " ")
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
            let text = line.withoutSurroundingSpaces
            if text.isEmpty { continue }
            if indent <= 2 || entries.isEmpty {
                // Term and description are separated by a run of two or more spaces.
                if let gap = text.locate("  ") {
                    entries.append((String(text[..<gap.lowerBound]), [text[gap.upperBound...].withoutSurroundingSpaces]))
                } else {
                    entries.append((text, []))
                }
            } else {
                entries[entries.count - 1].description.append(text)
            }
        }
        return entries.map { Entry(term: $0.term, description: $0.description.joined(separator: " ")) }
    }

}

#endif
