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

/// The C library is the system layer's (docs/architecture.md): no file under Sources/ outside
/// CallbackSystem imports Glibc, Darwin or Musl, except the core's lock and its clock, which
/// cannot import the system layer. Everything else reaches libc through a `package` wrapper
/// in CallbackSystem, written once.
@Suite struct LibcBoundaryTests {
    /// The module of the system layer, whose files import the C library.
    static let systemLayer = "CallbackSystem"

    /// The only files outside the system layer that import the C library, with why.
    static let exceptions: Set<String> = [
        // CallbackRouter imports nothing but CallbackParsing: its lock and its
        // suspend-aware clock call pthread and clock_gettime themselves.
        "CallbackRouter/Support/Locked.swift",
        "CallbackRouter/Attempts/AttemptClock.swift",
    ]

    /// The modules of the C library on the systems the package builds for.
    static let cLibraries: Set<String> = ["Glibc", "Darwin", "Musl"]

    static var sourcesRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        while let last = parts.last, last != "Tests" { parts.removeLast() }
        parts.removeLast()
        return parts.joined(separator: "/") + "/Sources"
    }

    /// The Swift files under `directory`, as paths relative to it.
    static func swiftFiles(under directory: String, prefix: String = "") -> [String] {
        var found: [String] = []
        for entry in CLIArchitectureTests.entries(directory) {
            if entry.hasSuffix(".swift") {
                found.append(prefix + entry)
            } else if !entry.contains(".") {
                found += swiftFiles(under: directory + "/" + entry, prefix: prefix + entry + "/")
            }
        }
        return found
    }

    /// The C library module `line` imports, if it is an import of one: `import Glibc`,
    /// `@_exported import Darwin`, `internal import Musl`, `import func Glibc.isatty`.
    static func importedCLibrary(_ line: Substring) -> String? {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        guard let index = words.firstIndex(of: "import") else { return nil }
        let before = Set(words[..<index])
        let modifiers: Set<String> = [
            "_exported", "_implementationOnly", "preconcurrency", "testable", "public", "package", "internal", "fileprivate", "private",
        ]
        guard before.isSubset(of: modifiers) else { return nil }
        let kinds: Set<String> = ["func", "var", "let", "struct", "class", "enum", "protocol", "typealias"]
        let rest = words[(index + 1)...].drop { kinds.contains($0) }
        return rest.first.flatMap { cLibraries.contains($0) ? $0 : nil }
    }

    @Test func noFileOutsideTheSystemLayerImportsTheCLibrary() {
        let files = Self.swiftFiles(under: Self.sourcesRoot)
        #expect(files.count > 100, "found \(files.count) files under \(Self.sourcesRoot)")
        for file in files where !file.hasPrefix(Self.systemLayer + "/") && !Self.exceptions.contains(file) {
            for (number, line) in (CLIReferenceTests.read(Self.sourcesRoot + "/" + file) ?? "").split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                if let library = Self.importedCLibrary(line) {
                    Issue.record("Sources/\(file):\(number + 1) imports \(library): call a wrapper in CallbackSystem instead")
                }
            }
        }
    }

    @Test func theExceptionsStillExistAndStillNeedTheCLibrary() {
        for file in Self.exceptions {
            let text = CLIReferenceTests.read(Self.sourcesRoot + "/" + file) ?? ""
            #expect(
                text.split(separator: "\n").contains { Self.importedCLibrary($0) != nil },
                "\(file) no longer imports the C library: take it off LibcBoundaryTests.exceptions")
        }
    }

    @Test(
        arguments: [
            ("import Glibc", "Glibc"), ("@_exported import Darwin", "Darwin"), ("internal import Musl", "Musl"),
            ("import func Glibc.isatty", "Glibc"), ("  import Glibc // indented inside #if", "Glibc"),
            ("import CallbackSystem", nil), ("// import Glibc", nil), ("let importance = Glibc", nil),
        ] as [(String, String?)])
    func recognisesAnImportOfTheCLibrary(line: String, library: String?) {
        #expect(Self.importedCLibrary(Substring(line)) == library)
    }
}
