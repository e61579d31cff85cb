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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The arrows between the CLI's folders (docs/architecture.md, "The CLI"), read from the
/// sources: a file may name the types of its own folder and of the folders it points to,
/// and no command names another command.
@Suite struct CLIArchitectureTests {
    /// Folder → the folders its files may use ("" is the top: CallbackRouterTool.swift).
    static let allowed: [String: Set<String>] = [
        "": ["Kit", "Rendering", "Options", "Packaging", "Commands"],
        "Commands": ["Kit", "Rendering", "Options", "Packaging", "Tokens"],
        "Tokens": ["Kit", "Rendering"],
        "Packaging": ["Kit"],
        "Options": ["Kit", "Rendering"],
        "Rendering": ["Kit"],
        "Kit": [],
    ]

    static var sourceRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Sources/CallbackRouterCLI"
    }

    struct SourceFile {
        let folder: String
        let name: String
        let words: Set<String>
        let declared: [String]
    }

    static func entries(_ directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// Every Swift file, with the identifiers its code (comments aside) uses and the types
    /// it declares at the top level.
    static func files() -> [SourceFile] {
        var files: [SourceFile] = []
        for folder in [""] + allowed.keys.filter({ !$0.isEmpty }).sorted() {
            let directory = folder.isEmpty ? sourceRoot : sourceRoot + "/" + folder
            for name in entries(directory) where name.hasSuffix(".swift") {
                var words: Set<String> = []
                var declared: [String] = []
                for line in (CLIReferenceTests.read(directory + "/" + name) ?? "").split(separator: "\n") {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    let tokens = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
                    words.formUnion(tokens)
                    if let first = line.first, !first.isWhitespace,
                        let index = tokens.firstIndex(where: { ["struct", "enum", "class", "protocol"].contains($0) }),
                        index + 1 < tokens.count
                    {
                        declared.append(tokens[index + 1])
                    }
                }
                files.append(SourceFile(folder: folder, name: name, words: words, declared: declared))
            }
        }
        return files
    }

    @Test func everyFileUsesOnlyTheFoldersItPointsTo() {
        let files = Self.files()
        #expect(files.count > 20, "found \(files.count) files under \(Self.sourceRoot)")
        var owner: [String: SourceFile] = [:]
        for file in files { for type in file.declared { owner[type] = file } }
        for file in files {
            for word in file.words {
                guard let declaring = owner[word], declaring.name != file.name else { continue }
                if declaring.folder == "Commands" && file.folder == "Commands" {
                    Issue.record("\(file.name) names \(word) of \(declaring.name): a command names another command")
                } else if declaring.folder != file.folder && !(Self.allowed[file.folder] ?? []).contains(declaring.folder) {
                    Issue.record("\(file.folder)/\(file.name) names \(word) of \(declaring.folder)/\(declaring.name)")
                }
            }
        }
    }

    // MARK: CallbackDesktop's public face

    /// CLI files that still reach CallbackDesktop's `package` declarations (issue 26: the CLI
    /// uses the libraries' public APIs). The list may only shrink: a new use fails, and so
    /// does an entry that is no longer true, so that moving a command to the public API
    /// removes its line here.
    static let knownPackageUses: [String: Set<String>] = [:]

    static var desktopRoot: String {
        var parts = sourceRoot.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/CallbackDesktop"
    }

    /// CallbackDesktop's `package` names a CLI file can reach: its top-level declarations
    /// (seen where the file imports CallbackDesktop; the ones SystemForwarding.swift forwards
    /// to CallbackSystem are fine where the file imports CallbackSystem too), and the members
    /// it adds to types of other modules (seen in every file of the CLI, imported or not).
    static func desktopPackageNames() -> (topLevel: Set<String>, forwarded: Set<String>, members: Set<String>) {
        var topLevel: Set<String> = []
        var forwarded: Set<String> = []
        var members: Set<String> = []
        var files: [String] = []
        for entry in entries(desktopRoot) {
            if entry.hasSuffix(".swift") {
                files.append(entry)
            } else {
                files += entries(desktopRoot + "/" + entry).map { entry + "/" + $0 }
            }
        }
        let kinds: Set<String> = ["struct", "enum", "class", "protocol", "typealias", "func", "let", "var"]
        for file in files where file.hasSuffix(".swift") {
            var foreignExtension = false
            for line in (CLIReferenceTests.read(desktopRoot + "/" + file) ?? "").split(separator: "\n") {
                let tokens = line.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }.map(String.init)
                if line.hasPrefix("extension ") {
                    let extended = tokens.count > 1 ? tokens[1] : ""
                    foreignExtension = ![
                        "CallbackHandoff", "DesktopSchemeHandler", "DesktopSchemeHandler.Report", "DesktopEntry", "DesktopError",
                    ].contains(extended)
                    continue
                }
                if line.hasPrefix("}") { foreignExtension = false }
                guard let index = tokens.firstIndex(of: "package"),
                    let kind = tokens[(index + 1)...].firstIndex(where: kinds.contains), kind + 1 < tokens.count
                else { continue }
                let name = String(tokens[kind + 1].prefix { $0 != "." })
                if line.hasPrefix("package ") {
                    if file == "SystemForwarding.swift" { forwarded.insert(name) } else { topLevel.insert(name) }
                } else if foreignExtension {
                    // A function is known by its name and first label (`status(ifExists:`): a
                    // name alone (`status`) is too common a word.
                    if tokens[kind] == "func", let open = line.firstIndex(of: "(") {
                        let label = line[line.index(after: open)...].prefix { $0 != " " && $0 != ":" }
                        members.insert(label == "_" ? name + "(" : name + "(" + label + ":")
                    } else {
                        members.insert(name)
                    }
                }
            }
        }
        return (topLevel, forwarded, members)
    }

    @Test func cliUsesOnlyThePublicAPIOfCallbackDesktopBeyondTheKnownList() {
        let names = Self.desktopPackageNames()
        #expect(names.topLevel.contains("HandoffListener") && names.topLevel.contains("SchemeRegistration"))
        #expect(names.forwarded.contains("FileSystem") && names.members.contains("trimmingSpaces"))
        #expect(names.members.contains("status(ifExists:"), "\(names.members.sorted())")
        var found: [String: Set<String>] = [:]
        for file in Self.files() {
            let path = file.folder.isEmpty ? file.name : file.folder + "/" + file.name
            let source = CLIReferenceTests.read(Self.sourceRoot + "/" + path) ?? ""
            let importsDesktop = source.contains("\nimport CallbackDesktop\n")
            let importsSystem = source.contains("\nimport CallbackSystem\n")
            let code = source.split(separator: "\n").map {
                $0.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            }
            .joined(separator: "\n")
            var used = Set(names.members.filter { $0.hasSuffix(":") || $0.hasSuffix("(") ? code.contains($0) : file.words.contains($0) })
            if importsDesktop {
                used.formUnion(file.words.intersection(names.topLevel))
                if !importsSystem { used.formUnion(file.words.intersection(names.forwarded)) }
            }
            if !used.isEmpty { found[path] = used }
        }
        for (path, used) in found.sorted(by: { $0.key < $1.key }) {
            let new = used.subtracting(Self.knownPackageUses[path] ?? [])
            #expect(new.isEmpty, "\(path) uses CallbackDesktop's package \(new.sorted()): use (or add) its public API")
        }
        for (path, known) in Self.knownPackageUses.sorted(by: { $0.key < $1.key }) {
            let gone = known.subtracting(found[path] ?? [])
            #expect(gone.isEmpty, "\(path) no longer uses \(gone.sorted()): remove it from knownPackageUses")
        }
    }
}
