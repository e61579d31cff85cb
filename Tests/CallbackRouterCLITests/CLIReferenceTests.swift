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

import CallbackRouter
import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// docs/cli.md is the command-line contract. Its command reference is each command's
/// `--help`, so the two cannot drift: this test fails when they differ, and regenerates the
/// section when `CALLBACK_ROUTER_UPDATE_CLI_DOC=1`.
@Suite(.serialized) struct CLIReferenceTests {
    static let begin = "<!-- BEGIN GENERATED: command reference -->\n"
    static let end = "<!-- END GENERATED: command reference -->\n"

    static var documentPath: String {
        // Tests/CallbackRouterCLITests/CLIReferenceTests.swift → docs/cli.md
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/cli.md"
    }

    static var generated: String {
        var text = ""
        for command in CallbackRouterTool.commands {
            text += "\n### `\(command.name)`\n\n\(command.summary).\n\n```text\n\(command.help)```\n"
        }
        return text + "\n"
    }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0 ..< count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }

    @Test func theCommandReferenceIsEachCommandsHelp() throws {
        let document = try #require(Self.read(Self.documentPath), "cannot read \(Self.documentPath)")
        let start = try #require(document.firstRange(of: Self.begin), "docs/cli.md lost its BEGIN marker")
        let stop = try #require(document.firstRange(of: Self.end), "docs/cli.md lost its END marker")
        let current = String(document[start.upperBound ..< stop.lowerBound])
        if current != Self.generated, getenv("CALLBACK_ROUTER_UPDATE_CLI_DOC") != nil {
            let updated = String(document[..<start.upperBound]) + Self.generated + String(document[stop.lowerBound...])
            #expect(Self.write(updated, to: Self.documentPath))
            return
        }
        #expect(
            current == Self.generated,
            "docs/cli.md's command reference is stale: CALLBACK_ROUTER_UPDATE_CLI_DOC=1 swift test --filter CLIReferenceTests")
    }

    @Test func everyReasonCodeIsInTheReference() throws {
        let document = try #require(Self.read(Self.documentPath))
        for code in ReasonCode.allCases {
            #expect(document.contains("`\(code.rawValue)`"), "docs/cli.md does not list \(code.rawValue)")
        }
    }

    @Test func everyCommandIsInTheOverview() {
        let overview = CallbackRouterTool.help
        for command in CallbackRouterTool.commands {
            #expect(overview.contains("  \(command.name) "), "\(command.name) is missing from callback-router --help")
        }
    }
}
