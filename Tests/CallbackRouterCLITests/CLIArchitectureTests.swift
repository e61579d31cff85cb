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

    static var desktopRoot: String {
        var parts = sourceRoot.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/CallbackDesktop"
    }

    /// CallbackDesktop's `package` declarations a CLI file can reach (issue 26: the CLI uses
    /// the libraries' public APIs): its top-level ones, by name (seen where the file imports
    /// CallbackDesktop), and the members it declares `package` in its public types or adds to
    /// types of other modules (seen in every file of the CLI: members leak without an import),
    /// each as the text a use contains: `T.name` for a static member, `name(label:` or
    /// `.name(` for a function (a name alone, `status`, is too common a word), the name of a
    /// property.
    static func desktopPackageNames() -> (topLevel: Set<String>, members: Set<String>) {
        var files: [String] = []
        for entry in entries(desktopRoot) {
            if entry.hasSuffix(".swift") {
                files.append(entry)
            } else {
                files += entries(desktopRoot + "/" + entry).map { entry + "/" + $0 }
            }
        }
        let sources = files.filter { $0.hasSuffix(".swift") }.map { CLIReferenceTests.read(desktopRoot + "/" + $0) ?? "" }
        func tokens(_ line: Substring) -> [String] {
            line.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }.map(String.init)
        }
        let typeKinds: Set<String> = ["struct", "enum", "class", "protocol", "typealias"]
        var topLevel: Set<String> = []
        var publicTypes: Set<String> = []
        for source in sources {
            for line in source.split(separator: "\n") where line.hasPrefix("public ") || line.hasPrefix("package ") {
                let words = tokens(line)
                guard let kind = words.firstIndex(where: { typeKinds.contains($0) || $0 == "func" || $0 == "let" || $0 == "var" }),
                    kind + 1 < words.count
                else { continue }
                if line.hasPrefix("package ") { topLevel.insert(words[kind + 1]) } else { publicTypes.insert(words[kind + 1]) }
            }
        }
        var members: Set<String> = []
        for source in sources {
            // The type whose members the lines below declare, when it is public or another
            // module's; nil inside a package type (its name is caught already).
            var owner: String?
            for line in source.split(separator: "\n") {
                let words = tokens(line)
                if let first = line.first, !first.isWhitespace, first != "}", first != "/", first != "#" {
                    let declared = words.firstIndex { typeKinds.contains($0) || $0 == "extension" }.map { words[$0 + 1] }
                    owner = declared.flatMap { name in
                        line.hasPrefix("public ") || (line.hasPrefix("extension ") && !topLevel.contains(name)) ? name : nil
                    }
                    continue
                }
                guard let owner, let index = words.firstIndex(of: "package"),
                    let kind = words[(index + 1)...].firstIndex(where: { ["func", "let", "var"].contains($0) }), kind + 1 < words.count
                else { continue }
                let name = words[kind + 1]
                if words[kind] == "func", let open = line.firstIndex(of: "(") {
                    let label = line[line.index(after: open)...].prefix { $0 != " " && $0 != ":" }
                    members.insert(label == "_" ? "." + name + "(" : name + "(" + label + ":")
                } else if words.contains("static") {
                    members.insert(owner + "." + name)
                } else {
                    members.insert(name)
                }
            }
        }
        return (topLevel, members)
    }

    @Test func cliUsesOnlyThePublicAPIOfCallbackDesktop() {
        let names = Self.desktopPackageNames()
        #expect(names.topLevel.isSuperset(of: ["HandoffListener", "SchemeRegistration", "RuntimeDirectory", "HelperFailure"]))
        #expect(
            names.members.isSuperset(of: ["trimmingSpaces", "status(ifExists:", ".usage(", "CallbackScheme.refused", "directoryKey"]),
            "\(names.members.sorted())")
        for file in Self.files() {
            let path = file.folder.isEmpty ? file.name : file.folder + "/" + file.name
            let source = CLIReferenceTests.read(Self.sourceRoot + "/" + path) ?? ""
            let code = source.split(separator: "\n").map {
                $0.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            }
            .joined(separator: "\n")
            var used = names.members.filter {
                $0.contains(".") || $0.hasSuffix("(") || $0.hasSuffix(":") ? code.contains($0) : file.words.contains($0)
            }
            if source.contains("\nimport CallbackDesktop\n") { used.formUnion(file.words.intersection(names.topLevel)) }
            #expect(used.isEmpty, "\(path) uses CallbackDesktop's package \(used.sorted()): use (or add) its public API")
        }
    }
}
