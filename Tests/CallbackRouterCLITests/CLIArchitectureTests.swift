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
/// and no command names another command. The toolbox (CallbackRouterKit) and the packaging
/// (CallbackRouterPackaging) are modules below the CLI, so the compiler keeps them from
/// seeing the commands.
@Suite struct CLIArchitectureTests {
    /// Folder → the folders its files may use ("" is the top: CallbackRouterTool.swift).
    static let allowed: [String: Set<String>] = [
        "": ["Rendering", "Options", "Commands"],
        "Commands": ["Rendering", "Options", "Steps"],
        "Steps": ["Rendering", "Options"],
        "Options": ["Rendering"],
        "Rendering": [],
    ]

    /// The modules the helper is made of besides CallbackRouterCLI, by the name of their test
    /// folder: Kit/ holds CallbackRouterKit's tests.
    static let modules: [String: String] = ["Kit": "CallbackRouterKit", "Packaging": "CallbackRouterPackaging"]

    /// The folder of `module`'s sources.
    static func moduleRoot(_ module: String) -> String {
        var parts = sourceRoot.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/" + module
    }

    /// Every Swift file of the helper's library modules (CallbackRouterCLI's folders, then
    /// ``modules``), as full paths.
    static var helperSourcePaths: [String] {
        var paths: [String] = []
        for folder in [""] + allowed.keys.filter({ !$0.isEmpty }).sorted() {
            let directory = folder.isEmpty ? sourceRoot : sourceRoot + "/" + folder
            paths += entries(directory).filter { $0.hasSuffix(".swift") }.map { directory + "/" + $0 }
        }
        for module in modules.values.sorted() {
            paths += entries(moduleRoot(module)).filter { $0.hasSuffix(".swift") }.map { moduleRoot(module) + "/" + $0 }
        }
        return paths
    }

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

    /// A folder the table does not list would escape every rule above it.
    @Test func everyFolderHasItsArrowsListed() {
        let folders = Self.entries(Self.sourceRoot).filter { !$0.hasSuffix(".swift") && !$0.hasSuffix(".docc") }
        #expect(folders.count >= 4, "found \(folders) under \(Self.sourceRoot)")
        for folder in folders {
            #expect(Self.allowed[folder] != nil, "Sources/CallbackRouterCLI/\(folder) is not in CLIArchitectureTests.allowed")
        }
        for folder in Self.allowed.keys where !folder.isEmpty {
            #expect(folders.contains(folder), "CLIArchitectureTests.allowed lists \(folder), which does not exist")
        }
    }

    /// The CLI's tests are found where its code is: each test folder is named after a source
    /// folder of the CLI or after one of its modules, except Support/ (the helpers they share).
    @Test func everyTestFolderMirrorsASourceFolder() {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        let testRoot = parts.joined(separator: "/")
        let folders = Self.entries(testRoot).filter { !$0.hasSuffix(".swift") && $0 != "Support" }
        #expect(folders.count >= 5, "found \(folders) under \(testRoot)")
        for folder in folders {
            #expect(
                Self.allowed[folder] != nil || Self.modules[folder] != nil,
                "Tests/CallbackRouterCLITests/\(folder) has no source folder or module of that name")
        }
        for module in Self.modules.values {
            #expect(!Self.entries(Self.moduleRoot(module)).isEmpty, "Sources/\(module) is gone: update CLIArchitectureTests.modules")
        }
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

    // MARK: Platforms

    /// On tvOS and watchOS (no `posix_spawn`, no desktop) the CLI and the executable build as
    /// empty modules, as CallbackDesktop does (docs/platforms.md): each file's code, imports
    /// included, is inside one `#if !os(tvOS) && !os(watchOS)` that ends the file.
    @Test func everyCLIFileIsEmptyOnTVOSAndWatchOS() {
        let paths = Self.helperSourcePaths + [Self.moduleRoot("callback-router") + "/main.swift"]
        #expect(paths.count > 40)
        for path in paths {
            let lines = (CLIReferenceTests.read(path) ?? "").split(separator: "\n").map(String.init)
            let code = lines.filter { !$0.hasPrefix("//") && !$0.trimmingPrefix(while: \.isWhitespace).isEmpty }
            #expect(
                code.first?.hasPrefix("#if !os(tvOS) && !os(watchOS)") == true && code.last == "#endif",
                "\(path): not inside #if !os(tvOS) && !os(watchOS) … #endif")
        }
    }

    // MARK: CallbackDesktop's public face

    static var desktopRoot: String {
        var parts = sourceRoot.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/CallbackDesktop"
    }

    /// The CLI uses CallbackDesktop's public API only, and the compiler checks it:
    /// CallbackDesktop declares nothing `package` (what is not public is internal, which
    /// another module cannot see), and no CLI file imports a module `@testable` (which would
    /// reach the internals in a debug build).
    @Test func cliCanUseOnlyThePublicAPIOfCallbackDesktop() {
        var files: [String] = []
        for entry in Self.entries(Self.desktopRoot) {
            if entry.hasSuffix(".swift") {
                files.append(entry)
            } else {
                files += Self.entries(Self.desktopRoot + "/" + entry).map { entry + "/" + $0 }
            }
        }
        #expect(files.filter { $0.hasSuffix(".swift") }.count > 10, "found \(files) under \(Self.desktopRoot)")
        for file in files where file.hasSuffix(".swift") {
            for (number, line) in (CLIReferenceTests.read(Self.desktopRoot + "/" + file) ?? "").split(separator: "\n").enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                #expect(
                    !words.contains("package"),
                    "CallbackDesktop/\(file):\(number + 1) declares a package symbol: make it internal, or public and documented")
            }
        }
        for path in Self.helperSourcePaths {
            #expect(!(CLIReferenceTests.read(path) ?? "").contains("@testable"), "\(path) imports a module @testable")
        }
    }
}
