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

/// The rules of docs/architecture.md that the compiler cannot check, read from the sources.
/// Each test names the file and line that breaks its rule.
@Suite struct SourceLayoutTests {
    static let typeKeywords: Set<Substring> = ["struct", "enum", "class", "actor", "protocol"]
    static let modifiers: Set<Substring> = [
        "public", "package", "internal", "final", "indirect", "open", "nonisolated", "fileprivate", "private",
    ]

    /// The types a file declares at its top level and other files may see (a `private` or
    /// `fileprivate` helper type is the file's own business). A declaration starts in the
    /// first column (the style puts no indentation inside top-level `#if`), after attributes.
    static func visibleTopLevelTypes(_ text: String) -> [(name: String, line: Int)] {
        var types: [(name: String, line: Int)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let first = line.first, first.isLetter || first == "@" else { continue }
            var words = PackageSources.words(PackageSources.code(line))[...]
            // Attributes: `@available(*, deprecated, …)`, `@frozen`, `@_spi(Testing)`.
            if first == "@" {
                guard let keyword = words.firstIndex(where: { typeKeywords.contains($0) || $0 == "extension" || $0 == "func" }) else {
                    continue
                }
                words = words[keyword...]
                let before = PackageSources.words(PackageSources.code(line))
                if before.contains("private") || before.contains("fileprivate") { continue }
            }
            var isPrivate = false
            while let word = words.first, modifiers.contains(word) {
                if word == "private" || word == "fileprivate" { isPrivate = true }
                words = words.dropFirst()
            }
            guard let keyword = words.first, typeKeywords.contains(keyword), let name = words.dropFirst().first, !isPrivate else {
                continue
            }
            types.append((String(name), number + 1))
        }
        return types
    }

    /// One type, one file named after it (as swift-argument-parser does): a file declares at
    /// most one type others can see, and its name is the type's (`Type.swift`); a file named
    /// `Type+Topic.swift` extends `Type` and declares none.
    @Test func everyTypeLivesInAFileNamedAfterIt() {
        var checked = 0
        for module in PackageSources.modules {
            for path in PackageSources.swiftFiles(under: "Sources/" + module) {
                checked += 1
                let fileName = String(path.split(separator: "/").last ?? "").dropLast(".swift".count)
                var seen: [String: Int] = [:]
                for (name, line) in Self.visibleTopLevelTypes(PackageSources.read(path)) where seen[name] == nil {
                    seen[name] = line
                }
                for (name, line) in seen.sorted(by: { $0.value < $1.value }) where name != fileName {
                    Issue.record("\(path):\(line) declares \(name): a type lives in \(name).swift")
                }
            }
        }
        #expect(checked > 150, "found only \(checked) source files under \(PackageSources.root)/Sources")
    }

    /// Foundation in one module only (design.md, principle 2): the core and the helper link
    /// none (scripts/check-linkage.sh proves it of the binaries; this names the file).
    @Test func onlyCallbackRouterFoundationImportsFoundation() {
        for module in PackageSources.modules where module != "CallbackRouterFoundation" {
            for path in PackageSources.swiftFiles(under: "Sources/" + module) {
                for (number, line) in PackageSources.read(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let words = PackageSources.words(PackageSources.code(line))
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                    #expect(!words[index + 1].hasPrefix("Foundation"), "\(path):\(number + 1) imports \(words[index + 1])")
                }
            }
        }
    }

    /// The system layer keeps the C library to itself: no file of it re-exports a module, so a
    /// module above that calls a C function does not compile (which files may import the C
    /// library: LibcBoundaryTests).
    @Test func theSystemLayerReExportsNothing() {
        let files = PackageSources.swiftFiles(under: "Sources/CallbackSystem")
        #expect(files.count > 10, "found only \(files) under Sources/CallbackSystem")
        for path in files {
            for (number, line) in PackageSources.read(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where PackageSources.words(PackageSources.code(line)).contains("_exported") {
                Issue.record("\(path):\(number + 1) re-exports a module: CallbackSystem keeps the C library to itself")
            }
        }
    }

    /// Comments say what the code does; the history lives in git and the tracker.
    @Test func noCommentNarratesHistory() {
        let rounds: Set<Substring> = ["first", "second", "third", "fourth", "fifth"]
        for module in PackageSources.modules {
            for path in PackageSources.swiftFiles(under: "Sources/" + module) {
                for (number, line) in PackageSources.read(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let words = PackageSources.words(line).map { $0.lowercased() }
                    for (index, word) in words.enumerated() where index + 1 < words.count {
                        let next = words[index + 1]
                        let namesAnIssue = word == "issue" && next.first?.isNumber == true
                        let namesARound = rounds.contains(Substring(word)) && next == "round"
                        #expect(!namesAnIssue && !namesARound, "\(path):\(number + 1) narrates history: \(line)")
                    }
                }
            }
        }
    }

    /// A module's tests are found where its code is: a test target's folders are named after
    /// the module's own folders, or after a module it tests that has no test target of its
    /// own (the CLI's tests hold `CallbackRouterKit/` and `CallbackRouterPackaging/` tests as
    /// `Kit/` and `Packaging/`), or hold fixtures (`Support`, `Vectors`); and a module whose
    /// code lives only in folders has no test at the top of its test target.
    @Test func testsMirrorTheSourceFolders() {
        let fixtures: Set<String> = ["Support", "Vectors"]
        let modules = Set(PackageSources.modules)
        var checked = 0
        for module in PackageSources.modules {
            let tests = "Tests/" + module + "Tests"
            guard PackageSources.isDirectory(tests) else { continue }
            checked += 1
            let sourceFolders = Set(
                PackageSources.entries("Sources/" + module).filter {
                    PackageSources.isDirectory("Sources/\(module)/\($0)") && !$0.hasSuffix(".docc")
                })
            let topLevelSources = PackageSources.entries("Sources/" + module).filter { $0.hasSuffix(".swift") }
            for entry in PackageSources.entries(tests) {
                if PackageSources.isDirectory(tests + "/" + entry) {
                    let testsAModule =
                        modules.contains("CallbackRouter" + entry) && !PackageSources.isDirectory("Tests/CallbackRouter\(entry)Tests")
                    #expect(
                        sourceFolders.contains(entry) || fixtures.contains(entry) || testsAModule,
                        "\(tests)/\(entry) is not a folder of Sources/\(module) (\(sourceFolders.sorted())) nor a module without tests of its own"
                    )
                } else if entry.hasSuffix(".swift") {
                    #expect(
                        !topLevelSources.isEmpty || sourceFolders.isEmpty,
                        "\(tests)/\(entry) sits at the top, where Sources/\(module) has no file at its top: put it in the folder of what it tests"
                    )
                }
            }
        }
        #expect(checked >= 6, "found only \(checked) test targets named after a module")
    }
}
