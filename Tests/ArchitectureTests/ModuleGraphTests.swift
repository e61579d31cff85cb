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

/// docs/architecture.md draws the module graph; Package.swift is what the compiler enforces
/// (CI builds with `--explicit-target-dependency-import-check error`, so a module importing a
/// target it does not declare fails the build). These tests keep the two the same.
@Suite struct ModuleGraphTests {
    /// The library and executable targets under Sources/ and the targets each declares as
    /// dependencies, read from Package.swift.
    static func packageGraph() -> [String: Set<String>] {
        let manifest = PackageSources.read("Package.swift")
        var graph: [String: Set<String>] = [:]
        let declarations = manifest.split(separator: ".")
        for declaration in declarations where declaration.hasPrefix("target(") || declaration.hasPrefix("executableTarget(") {
            // `target(name: "X", dependencies: ["A", "B"], …)` up to the next declaration.
            let text = declaration.split(separator: ")", maxSplits: 1).first.map(String.init) ?? ""
            guard !text.contains("path:") else { continue } // Benchmarks and test support live elsewhere
            let quoted = text.split(separator: "\"", omittingEmptySubsequences: false)
            guard quoted.count >= 2 else { continue }
            let name = String(quoted[1])
            var dependencies: Set<String> = []
            if let list = text.split(separator: "[", maxSplits: 1).dropFirst().first?.split(separator: "]").first {
                for item in list.split(separator: ",") {
                    let parts = item.split(separator: "\"")
                    if let dependency = parts.first(where: { $0.first?.isLetter == true }) { dependencies.insert(String(dependency)) }
                }
            }
            graph[name] = dependencies
        }
        return graph
    }

    /// The rows of the table under "## The modules and the arrows allowed":
    /// `| \`Module\` | may import | job |` → (the package modules named in "may import", job).
    static func documentedGraph(knownModules: Set<String>) -> [String: (imports: Set<String>, job: String)] {
        let document = PackageSources.read("docs/architecture.md")
        let lines = document.split(separator: "\n")
        guard let start = lines.firstIndex(of: "## The modules and the arrows allowed") else { return [:] }
        var rows: [String: (imports: Set<String>, job: String)] = [:]
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingPrefix(while: { $0 == " " }) }
            guard cells.count >= 4 else { continue }
            let module = String(cells[1].split(separator: "`").first ?? "")
            let imports = Set(cells[2].split(separator: "`").map(String.init).filter { knownModules.contains($0) })
            rows[module] = (imports, String(cells[3].reversed().drop(while: { $0 == " " }).reversed()))
        }
        return rows
    }

    @Test func theArchitectureDocumentDrawsTheGraphPackageSwiftDeclares() {
        let graph = Self.packageGraph()
        #expect(graph.count >= 8, "read only \(graph.keys.sorted()) from Package.swift")
        let documented = Self.documentedGraph(knownModules: Set(graph.keys))
        #expect(
            Set(documented.keys) == Set(graph.keys),
            "docs/architecture.md's table lists \(documented.keys.sorted()); Package.swift has \(graph.keys.sorted())")
        for (module, dependencies) in graph.sorted(by: { $0.key < $1.key }) {
            guard let row = documented[module] else { continue }
            #expect(
                row.imports == dependencies,
                "\(module): docs/architecture.md says it may import \(row.imports.sorted()), Package.swift declares \(dependencies.sorted())"
            )
        }
    }

    /// Every module has a job, said in one sentence.
    @Test func everyModuleHasAOneSentenceJob() {
        let graph = Self.packageGraph()
        for (module, row) in Self.documentedGraph(knownModules: Set(graph.keys)) {
            let job = row.job
            #expect(job.count > 20, "\(module)'s job is missing in docs/architecture.md")
            let sentences = job.split(separator: ". ").count
            #expect(sentences == 1, "\(module)'s job is \(sentences) sentences: \(job)")
        }
    }

    /// Every module under Sources/ is a target (no stray folder the build ignores).
    @Test func everySourceFolderIsATarget() {
        let graph = Self.packageGraph()
        for module in PackageSources.modules {
            #expect(graph[module] != nil, "Sources/\(module) is not a target in Package.swift")
        }
    }
}
