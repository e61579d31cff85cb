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

/// Edits of `$XDG_CONFIG_HOME/mimeapps.list` as pure functions over its text.
///
/// Only the one line of the scheme's MIME type under `[Default Applications]` is touched;
/// every other byte (comments, other sections, spacing, a missing final newline) stays as
/// it was. `setDefault` says what it did (``Edit``) and `restore` undoes exactly that, so
/// register → unregister gives the file back byte for byte.
enum MimeAppsList {
    static let section = "[Default Applications]"

    /// What `setDefault` changed, recorded in the desktop file for `unregister`.
    enum Edit: Equatable {
        /// There was no file; it was created.
        case createdFile
        /// A `[Default Applications]` section was appended (after adding a final newline
        /// the file lacked, when `addedNewline`).
        case addedSection(addedNewline: Bool)
        /// A line was added under the existing section's header.
        case addedLine
        /// The type's line was replaced; this was it.
        case replacedLine(previous: String)
        /// The default was already this desktop file.
        case unchanged

        var recordValue: String {
            switch self {
            case .createdFile: "created-file"
            case .addedSection(let addedNewline): addedNewline ? "added-section-after-newline" : "added-section"
            case .addedLine: "added-line"
            case .replacedLine: "replaced-line"
            case .unchanged: "unchanged"
            }
        }
    }

    struct DuplicateKey: Error {
        let mimeType: String
    }

    /// The file's text with `desktopFile` as the default for `mimeType`. `text` nil: no file.
    static func setDefault(_ text: String?, mimeType: String, desktopFile: String) throws(DuplicateKey) -> (
        text: String, edit: Edit
    ) {
        let ourLine = mimeType + "=" + desktopFile
        guard let text else { return (section + "\n" + ourLine + "\n", .createdFile) }
        var lines = splitLines(text)
        let found = linesOf(mimeType, in: lines)
        if found.count > 1 { throw DuplicateKey(mimeType: mimeType) }
        if let index = found.first {
            if firstDesktopFile(lines[index]) == desktopFile { return (text, .unchanged) }
            let previous = lines[index]
            lines[index] = ourLine
            return (joinLines(lines), .replacedLine(previous: previous))
        }
        if let header = lines.firstIndex(where: { $0.trimmingSpaces == section }) {
            lines.insert(ourLine, at: header + 1)
            return (joinLines(lines), .addedLine)
        }
        // A file that ends with a newline splits into lines ending with "" (so does an empty one).
        if lines.last == "" {
            lines.insert(contentsOf: [section, ourLine], at: lines.count - 1)
            return (joinLines(lines), .addedSection(addedNewline: false))
        }
        lines += [section, ourLine, ""]
        return (joinLines(lines), .addedSection(addedNewline: true))
    }

    /// Undoes `edit`. Returns the new text (nil: delete the file), and whether the line was
    /// still ours: a default the user changed since is left alone.
    static func restore(_ text: String, mimeType: String, desktopFile: String, edit: Edit) -> (text: String?, wasOurs: Bool) {
        var lines = splitLines(text)
        guard let index = linesOf(mimeType, in: lines).first(where: { firstDesktopFile(lines[$0]) == desktopFile }) else {
            return (text, false)
        }
        switch edit {
        case .unchanged:
            return (text, true)
        case .replacedLine(let previous):
            lines[index] = previous
        case .addedLine:
            lines.remove(at: index)
        case .createdFile, .addedSection:
            lines.remove(at: index)
            let header = index - 1
            let sectionIsEmpty =
                header >= 0 && lines[header].trimmingSpaces == section
                && (header + 1 == lines.count || (header + 2 == lines.count && lines[header + 1] == "")
                    || lines[header + 1].trimmingSpaces.hasPrefix("["))
            if sectionIsEmpty { lines.remove(at: header) }
            if case .createdFile = edit, lines == [""] { return (nil, true) }
            if case .addedSection(addedNewline: true) = edit, sectionIsEmpty, lines.count >= 2, lines.last == "" {
                lines.removeLast()
            }
        }
        return (joinLines(lines), true)
    }

    /// The default desktop file for `mimeType`, as the file says (nil when none).
    static func defaultDesktopFile(_ text: String, mimeType: String) -> String? {
        let lines = splitLines(text)
        return linesOf(mimeType, in: lines).first.flatMap { firstDesktopFile(lines[$0]) }
    }

    // MARK: Lines

    static func splitLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func joinLines(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    /// The indices of `mimeType`'s lines inside `[Default Applications]` sections.
    static func linesOf(_ mimeType: String, in lines: [String]) -> [Int] {
        var inSection = false
        var result: [Int] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingSpaces
            if trimmed.hasPrefix("[") { inSection = trimmed == section; continue }
            guard inSection, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            if trimmed[..<equals].trimmingSpaces.lowercased() == mimeType.lowercased() { result.append(index) }
        }
        return result
    }

    /// `x-scheme-handler/a = b.desktop;c.desktop;` → `b.desktop`.
    static func firstDesktopFile(_ line: String) -> String? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let value = line[line.index(after: equals)...]
        let first = value.split(separator: ";", omittingEmptySubsequences: true).first.map { $0.trimmingSpaces }
        return first.flatMap { $0.isEmpty ? nil : $0 }
    }
}

#endif
