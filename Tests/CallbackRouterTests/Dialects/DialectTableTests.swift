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

import TestVectorSupport
import Testing
@_spi(Testing) @testable import CallbackRouter

/// `Dialect.table` is the one place a dialect is written (docs/dialects.md, "Adding a
/// dialect"): everything else is derived from it, and these tests fail when an entry and the
/// rest disagree.
@Suite struct DialectTableTests {
    /// Each dialect's typical callback, with a state the classifier expects: a dialect added to
    /// the table without one here fails ``everyDialectHasATypicalCallback()``.
    static let typical: [String: String] = [
        "auto": "com.example.app:/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=s1",
        "oauth2": "com.example.app:/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=s1&iss=https%3A%2F%2Fissuer.example%2F",
        "prelude": "com.example.app:/cb?challenge_token="
            + "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdF83UXhWMm1LcDlzTGQzUnRZOHdaYzROYkgifQ.cWAcu0YaZgsGuSG2bQ3hve4CQivEKewS5PsOZYacwlQ"
            + "&state=s1",
        "ory": "com.example.app:/cb?code=ory_ac_Zx81LmQp3WfT9sKd2VbN7hYc&state=s1",
        "zephr": "com.example.app:/cb?action=login&status=success&session_id=sess_4Kq9Zp2LmX7vTb&state=s1",
        "clerk": "com.example.app:/cb?rotating_token_nonce=rtn_3NfQ8wZk2LpV7xYc&created_session_id=sess_2Yh&state=s1",
    ]

    @Test func tagsArePlacesInTheTableWhichBeginsWithAuto() {
        #expect(Dialect.table.first?.name == "auto")
        #expect(Dialect.auto.tag == Dialect.autoTag)
        #expect(Dialect.allCases.map(\.rawValue) == Dialect.table.map(\.name))
        #expect(Set(Dialect.table.map(\.name)).count == Dialect.table.count, "two entries share a name")
        for (index, dialect) in Dialect.allCases.enumerated() {
            #expect(Int(dialect.tag) == index)
            #expect(Dialect(rawValue: dialect.rawValue) == dialect)
            #expect(dialect.description == dialect.rawValue)
        }
        #expect(Dialect(rawValue: "Auto") == nil)
    }

    @Test func everyDialectButAutoReadsItsOwnCallbacks() {
        for dialect in Dialect.allCases {
            #expect((dialect.rules.read == nil) == (dialect == .auto), "\(dialect): auto alone has no reader")
        }
    }

    @Test func everyNameAnEntryUsesIsAKnownField() {
        for rules in Dialect.table {
            var names = rules.credentials
            if let marker = rules.marker { names.append(marker.name) }
            switch rules.common {
            case .one(let shape)?: names += shape.known + (shape.required.map { [$0] } ?? [])
            case .byStatus(let success, let partial, let failure)?:
                for shape in [success, partial, failure] { names += shape.known + (shape.required.map { [$0] } ?? []) }
            case nil: break
            }
            for name in names { #expect(KnownField.order.contains(name), "\(rules.name) uses '\(name)', which KnownField does not list") }
        }
    }

    @Test func autoMarkersAreDistinctAndOrdered() {
        let markers = Dialect.table.compactMap(\.marker)
        #expect(Set(markers.map(\.name)).count == markers.count)
        #expect(Set(markers.map(\.precedence)).count == markers.count)
        for rules in Dialect.table { #expect(rules.name != "auto" || rules.marker == nil) }
    }

    @Test func everyCommonShapeHasAKindOfOutcomeKindAllCases() {
        for rules in Dialect.table {
            let shapes: [Dialect.Rules.Shape]
            switch rules.common {
            case .one(let shape)?: shapes = [shape]
            case .byStatus(let success, let partial, let failure)?: shapes = [success, partial, failure]
            case nil: shapes = []
            }
            for shape in shapes { #expect(OutcomeKind.allCases.contains(shape.kind), "\(rules.name): \(shape.kind)") }
        }
        for compiled in Dialect.commonTable {
            for shape in [compiled.shapes.0, compiled.shapes.1, compiled.shapes.2] {
                #expect(Int(shape.kind) <= OutcomeKind.allCases.count)
            }
        }
    }

    @Test func everyDialectHasATypicalCallback() {
        #expect(Set(Self.typical.keys) == Set(Dialect.allCases.map(\.rawValue)))
    }

    /// Each dialect reads its typical callback as itself (auto as the dialect it picks), and
    /// the common path, where the entry has one, answers as the full path does.
    @Test(arguments: Dialect.allCases)
    func classifiesItsTypicalCallback(_ dialect: Dialect) throws {
        let text = try #require(Self.typical[dialect.rawValue])
        let url = try CallbackURL(parsing: text)
        let expectations = CallbackExpectations(state: "s1")
        let outcome = try CallbackClassifier.classify(url, dialect: dialect, expecting: expectations)
        #expect(outcome.dialect == (dialect == .auto ? .oauth2 : dialect))
        let full = try CallbackClassifier.classifyWithoutCommonPath(url, dialect: dialect, expecting: expectations)
        #expect(outcome.isSame(as: full))
        if dialect.rules.common != nil {
            let common = try #require(CallbackClassifier.classifyCommon(url, dialect: dialect, expectations: expectations))
            #expect(common.isSame(as: full))
        }
    }

    /// docs/dialects.md has a section per dialect, and docs/cli.md (the help, which
    /// `CLIReferenceTests` keeps equal to it) lists every dialect under `--dialect D`.
    @Test func theDocsAndTheHelpNameEveryDialect() throws {
        let dialects = try Self.read("docs/dialects.md")
        let cli = try Self.read("docs/cli.md")
        // The help wraps its lines: read it as one line.
        let help = cli.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        let lists = help.split(separator: "--dialect D ").dropFirst().filter { $0.hasPrefix("auto (default)") }
            .map { $0.prefix { $0 != "." } }
        #expect(!lists.isEmpty)
        for dialect in Dialect.allCases where dialect != .auto {
            #expect(dialects.contains("(`\(dialect.rawValue)`)"), "docs/dialects.md has no section for \(dialect)")
            for list in lists { #expect(list.contains(" \(dialect.rawValue)"), "--dialect does not list \(dialect)") }
        }
    }

    /// A file of the repository, by its path from the root, read as the vector tests read
    /// theirs (from `Tests/CallbackRouterTests/Vectors/`, three folders below the root).
    static func read(_ path: String) throws -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2) // Dialects/<this file>
        let caller = parts.joined(separator: "/") + "/DialectTableTests.swift"
        return String(decoding: try TestVectors.bytes("../../../" + path, caller: caller), as: UTF8.self)
    }
}
