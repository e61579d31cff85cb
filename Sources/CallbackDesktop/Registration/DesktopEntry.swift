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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

/// The `.desktop` file `register` writes, and what `unregister` reads back from it.
///
/// The file carries, in `X-CallbackRouter-*` keys, the scheme it was written for and how
/// `register` changed `mimeapps.list`, so that `unregister` can undo exactly that.
struct DesktopEntry: Equatable {
    let scheme: CallbackScheme
    /// The helper's absolute path, as the `Exec` line runs it.
    let executablePath: String
    let mimeAppsEdit: MimeAppsList.Edit

    static let schemeKey = "X-CallbackRouter-Scheme"
    static let editKey = "X-CallbackRouter-MimeApps"
    static let previousLineKey = "X-CallbackRouter-Previous-Line"

    /// The file's text. Everything in it is deterministic, so registering twice writes the
    /// same bytes (and `register` then writes nothing).
    func rendered() throws(DesktopError) -> String {
        var text = """
            [Desktop Entry]
            Type=Application
            Name=callback-router (\(scheme.name))
            Comment=Hands \(scheme.name): login callbacks to the program waiting for them
            Exec=\(try Self.execLine(executablePath)) open %u
            MimeType=\(scheme.mimeType);
            NoDisplay=true
            Terminal=false
            StartupNotify=false
            \(Self.schemeKey)=\(scheme.name)
            \(Self.editKey)=\(mimeAppsEdit.recordValue)

            """
        if case .replacedLine(let previous) = mimeAppsEdit {
            text += Self.previousLineKey + "=" + Self.escapeString(previous, spaces: true) + "\n"
        }
        return text
    }

    /// Reads back a file `register` wrote; nil when the text is not one (another program's
    /// file, or edited beyond recognition).
    static func parse(_ text: String) -> DesktopEntry? {
        var values: [String: String] = [:]
        var inMainGroup = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") { inMainGroup = line == "[Desktop Entry]"; continue }
            guard inMainGroup, let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingSpaces
            if values[key] == nil { values[key] = String(line[line.index(after: equals)...]).trimmingSpaces }
        }
        guard let schemeText = values[schemeKey], let scheme = try? CallbackScheme(validating: schemeText),
            scheme.name == schemeText, let record = values[editKey],
            let exec = values["Exec"], let path = executablePath(fromExec: exec)
        else { return nil }
        let edit: MimeAppsList.Edit
        switch record {
        case "created-file": edit = .createdFile
        case "added-section": edit = .addedSection(addedNewline: false)
        case "added-section-after-newline": edit = .addedSection(addedNewline: true)
        case "added-line": edit = .addedLine
        case "unchanged": edit = .unchanged
        case "replaced-line":
            guard let previous = values[previousLineKey].flatMap(unescapeString) else { return nil }
            edit = .replacedLine(previous: previous)
        default: return nil
        }
        return DesktopEntry(scheme: scheme, executablePath: path, mimeAppsEdit: edit)
    }

    // MARK: The Exec key (Desktop Entry Specification 1.5, "The Exec key")

    /// Characters that make an argument need double quotes.
    static let reserved: Set<Character> = [
        " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
    ]

    /// The program argument of an `Exec` value: quoted when it holds a reserved character
    /// (with `"`, `` ` ``, `$`, `\` backslash-escaped inside the quotes), `%` doubled, then
    /// escaped as a string value (so a literal backslash is four of them in the file).
    static func execLine(_ path: String) throws(DesktopError) -> String {
        guard path.hasPrefix("/") else { throw .usage("the helper's path '\(path)' is not absolute") }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .usage("the helper's path contains a control character; a desktop entry cannot run it")
        }
        var argument = ""
        for character in path {
            if character == "%" { argument += "%%" } else { argument.append(character) }
        }
        guard path.contains(where: reserved.contains) else { return argument }
        var quoted = "\""
        for character in argument {
            if character == "\"" || character == "`" || character == "$" || character == "\\" { quoted += "\\" }
            quoted.append(character)
        }
        quoted += "\""
        return escapeString(quoted)
    }

    /// The inverse of ``execLine(_:)`` for the first argument of an `Exec` value.
    static func executablePath(fromExec exec: String) -> String? {
        guard let value = unescapeString(exec) else { return nil }
        var result = ""
        var characters = value.makeIterator()
        if value.hasPrefix("\"") {
            _ = characters.next()
            var closed = false
            while let character = characters.next() {
                if character == "\\" {
                    guard let next = characters.next() else { return nil }
                    result.append(next)
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    result.append(character)
                }
            }
            guard closed else { return nil }
        } else {
            while let character = characters.next(), character != " " { result.append(character) }
        }
        return result.replacingPercentEscapes
    }

    /// The general escapes of string values: `\\`, `\n`, `\t`, `\r`, `\s` (a leading
    /// space, or every space when `spaces`: values are trimmed when read).
    static func escapeString(_ text: String, spaces: Bool = false) -> String {
        var out = ""
        for (index, character) in text.enumerated() {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case " " where index == 0 || spaces: out += "\\s"
            default: out.append(character)
            }
        }
        return out
    }

    static func unescapeString(_ text: String) -> String? {
        var out = ""
        var characters = text.makeIterator()
        while let character = characters.next() {
            guard character == "\\" else { out.append(character); continue }
            switch characters.next() {
            case "\\": out += "\\"
            case "n": out += "\n"
            case "t": out += "\t"
            case "r": out += "\r"
            case "s": out += " "
            // Quoting escapes (`\"`, `\$`, `` \` ``) pass through to the quoting layer.
            case let other?: out += "\\" + String(other)
            case nil: return nil
            }
        }
        return out
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start ... end])
    }
}

extension String {
    /// `%%` back to `%` (the only field code an argument of ours holds).
    var replacingPercentEscapes: String {
        var out = ""
        var previousWasPercent = false
        for character in self {
            if character == "%" && previousWasPercent { previousWasPercent = false; continue }
            previousWasPercent = character == "%"
            out.append(character)
        }
        return out
    }
}

extension DesktopEntry {
    /// Whether `Exec=` has to quote this path (xdg-open's generic path cannot run it then).
    static func needsQuoting(_ path: String) -> Bool { path.contains(where: reserved.contains) }
}

#endif
