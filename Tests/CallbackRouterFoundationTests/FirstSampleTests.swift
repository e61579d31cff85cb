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

import Foundation
import Testing

/// The first sample of README.md and of docs/getting-started.md is the program the interop
/// suite runs against django-oauth-toolkit (Tests/Samples/SignIn/main.swift): the same
/// text, so that the page and what CI runs cannot drift apart.
@Suite struct FirstSampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first compiled ```swift block of a page (not one marked `<!-- sample: skip … -->`,
    /// such as a manifest line), without its `import` lines and blank edges.
    static func firstSample(of page: String) throws -> [String] {
        let lines = try text(page).components(separatedBy: "\n")
        let start = try #require(
            lines.indices.first { lines[$0].hasPrefix("```swift") && ($0 == 0 || !lines[$0 - 1].hasPrefix("<!-- sample: skip")) })
        let end = try #require(lines[(start + 1)...].firstIndex { $0.hasPrefix("```") })
        return trimmed(lines[(start + 1) ..< end].filter { !$0.hasPrefix("import ") })
    }

    static func trimmed(_ lines: some Collection<String>) -> [String] {
        Array(
            lines.drop { $0.trimmingCharacters(in: .whitespaces).isEmpty }.reversed().drop {
                $0.trimmingCharacters(in: .whitespaces).isEmpty
            }.reversed())
    }

    /// The lines between `// sample begins` and `// sample ends`, unindented by the `do`'s four spaces.
    static func programSample() throws -> [String] {
        let lines = try text("Tests/Samples/SignIn/main.swift").components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// sample begins" })
        let end = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// sample ends" })
        return trimmed(lines[(start + 1) ..< end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 })
    }

    @Test(arguments: ["README.md", "docs/getting-started.md"])
    func theFirstSampleIsTheProgramTheInteropSuiteRuns(page: String) throws {
        let sample = try Self.firstSample(of: page)
        #expect(sample == (try Self.programSample()))
        #expect(sample.count <= 10)
        #expect(sample.contains { $0.contains("SignIn.loopback(") })
    }
}
