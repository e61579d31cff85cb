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

/// Options are read through their declarations (`args.single(CommonOptions.issuer)`), so a
/// misspelt or undeclared key does not compile: `Arguments` has no reader by a string name.
/// This test keeps one from coming back through a helper of the CLI's own.
@Suite struct StringKeyedReadTests {

    static var sourcesRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Sources"
    }

    /// Every Swift file under `directory`, at any depth.
    static func swiftFiles(under directory: String) -> [String] {
        CLIArchitectureTests.entries(directory).flatMap { name in
            name.hasSuffix(".swift") ? [directory + "/" + name] : swiftFiles(under: directory + "/" + name)
        }
    }

    /// The reads of an option by a string literal in `text`: `.single("`, `.has("`,
    /// `.all("`, `.integer("`, `.required("` (spaces allowed after the parenthesis).
    static func readsByName(in text: String) -> Int {
        var count = 0
        for method in ["single", "has", "all", "integer", "required"] {
            var rest = Substring(text)
            while let range = rest.firstRange(of: "." + method + "(") {
                rest = rest[range.upperBound...]
                if rest.drop(while: { $0 == " " || $0 == "\n" }).first == "\"" { count += 1 }
            }
        }
        return count
    }

    @Test func theCLIReadsOptionsThroughTheirDeclarations() {
        let files = Self.swiftFiles(under: Self.sourcesRoot).filter { $0.contains("/CallbackRouterCLI") }
        #expect(files.count > 20, "found \(files.count) files under \(Self.sourcesRoot)")
        for path in files {
            let reads = Self.readsByName(in: CLIReferenceTests.read(path) ?? "")
            #expect(reads == 0, "\(path) reads \(reads) options by a string name: read them by their declaration")
        }
    }

    @Test func countsAReadByName() {
        #expect(Self.readsByName(in: #"let x = try args.single("issuer"); if args.has( "logout") {}"#) == 2)
        #expect(Self.readsByName(in: "let x = try args.single(CommonOptions.issuer)") == 0)
    }
}
