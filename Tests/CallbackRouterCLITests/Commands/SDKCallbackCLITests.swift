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
import TestVectorSupport
@testable import CallbackRouterCLI
@testable import CallbackRouterKit

/// The real SDKs' callbacks (CallbackRouterTests/Vectors/sdk-callbacks.json, where each
/// case's provenance and verdict live) through `callback-router parse`, in-process: the JSON
/// and the exit code scripts see. `SDKCallbackVectorTests` holds the library to the same
/// file; this holds the CLI's contract (design.md: the fields named as the wire
/// parameters, `extra`, the rejection object, the sysexits codes) to it.
@Suite struct SDKCallbackCLITests {
    struct Case: Sendable, CustomTestStringConvertible {
        let index: Int
        let note: String
        let arguments: [String]
        /// `{"outcome":…}` as recorded: the kind and its fields, or the reason and offset.
        let outcome: String
        let fields: [String: String]
        let extra: [String: String]
        /// The human-text fields withheld (`"withheld"`, absent when none).
        let withheld: [String]
        let reason: String?
        let offset: Int?
        /// `"unbound":true` expected.
        let unbound: Bool
        var testDescription: String { "#\(index) \(note)" }
    }

    /// The vector file lives with the library's tests: read it as their suite does.
    static let file = "sdk-callbacks.json"
    static let libraryTest: String = {
        var directory = Substring(#filePath)
        if let slash = directory.lastIndex(of: "/") { directory = directory[..<slash] }
        return directory + "/../../CallbackRouterTests/SDKCallbackVectorTests.swift"
    }()

    static func loadCases() throws -> [Case] {
        try TestVectors.cases(in: file, caller: libraryTest) { entry in
            guard let expect = entry["expect"] else { throw entry.error("no expect") }
            // What `parse` is told: the case's route, as an app's script would pass it.
            var arguments: [String] = []
            let logout = entry["logout"] == .bool(true)
            if logout {
                arguments += ["--logout"]
                arguments += entry["state"]?.string.map { ["--state", $0] } ?? ["--no-state"]
            } else {
                arguments += ["--dialect", try entry.string("dialect"), "--response-mode", try entry.string("response_mode")]
                if let state = entry["state"]?.string { arguments += ["--state", state] }
                if let issuer = entry["issuer"]?.string { arguments += ["--issuer", issuer] }
                if entry["require_issuer"] == .bool(true) { arguments += ["--require-issuer"] }
                for profile in entry["profiles"]?.array ?? [] { arguments += ["--profile", profile.string ?? ""] }
            }
            arguments += ["--policy", try entry.string("policy")]
            if let redirect = entry["redirect_uri"]?.string { arguments += ["--redirect-uri", redirect] }
            if entry["allow_localhost"] == .bool(true) { arguments += ["--allow-localhost"] }
            // A case without a URL is about its redirect URI, refused before any URL is read.
            arguments.append(entry["url"]?.string ?? "com.example.app:/cb")
            var offset: Int?
            if case .number(let number)? = expect["offset"] { offset = Int(number) }
            return Case(
                index: entry.index, note: try entry.string("note"), arguments: arguments,
                outcome: expect["reason"] == nil ? try string(expect["outcome"], entry) : "rejected",
                fields: try entry.strings(expect["fields"], "fields"), extra: try entry.strings(expect["extra"], "extra"),
                withheld: expect["withheld"]?.array?.compactMap(\.string) ?? [],
                reason: expect["reason"]?.string, offset: offset,
                unbound: expect["unbound"] == .bool(true) || (logout && entry["state"] == nil))
        }
    }

    private static func string(_ json: JSON?, _ entry: TestVectors.CaseEntry) throws -> String {
        guard let text = json?.string else { throw entry.error("expect has neither outcome nor reason") }
        return text
    }

    /// design.md's exit codes: 0 a success outcome (Clerk's transfer, bare callback and magic
    /// link too), 1 the provider reported a failure, 64 a bad `--redirect-uri` (usage), 65
    /// rejected input.
    static func exitCode(of testCase: Case) -> Int32 {
        switch testCase.outcome {
        case "authorization_error", "login_failure", "clerk_failure": return 1
        case "rejected": return testCase.reason == "invalid_configuration" ? 64 : 65
        default: return 0
        }
    }

    @Test func everyCaseIsRead() throws {
        let cases = try Self.loadCases()
        #expect(try TestVectors.json(Self.file, caller: Self.libraryTest)["count"] == .number(Double(cases.count)))
        #expect(cases.count >= 100)
    }

    @Test(arguments: try loadCases())
    func printsTheRecordedOutcome(_ testCase: Case) throws {
        let output = CapturedOutput()
        let context = CommandContext(output: output, environment: [:], executablePath: "/usr/bin/callback-router")
        let exit = CallbackRouterTool.run(["parse"] + testCase.arguments, context: context)
        #expect(exit == Self.exitCode(of: testCase), "\(output.stdout)")
        let line = output.stdout.hasSuffix("\n") ? String(output.stdout.dropLast()) : output.stdout
        #expect(!line.contains("\n"), "one JSON object on one line")
        guard case .object(let members) = try JSON.parse(Array(line.utf8)) else {
            Issue.record("not a JSON object: \(output.stdout)")
            return
        }
        let json = Dictionary(members, uniquingKeysWith: { first, _ in first })
        #expect(json.count == members.count, "a member is repeated")
        #expect(json["outcome"]?.string == testCase.outcome)
        if let reason = testCase.reason {
            #expect(json["reason"]?.string == reason)
            if let offset = testCase.offset { #expect(json["offset"] == .number(Double(offset))) }
            #expect(Set(json.keys) == ["outcome", "reason", "detail", "offset"])
            return
        }
        // The fields named as the wire parameters, the rest under `extra`; nothing else but
        // `dialect` (and `unbound` for a logout that sent no state, `withheld` for text held back).
        var fields: [String: String] = [:]
        for (name, value) in json where !["outcome", "dialect", "extra", "unbound", "withheld"].contains(name) {
            fields[name] = value.string ?? "(not a string)"
        }
        #expect(fields == testCase.fields)
        #expect(json["withheld"]?.array?.compactMap(\.string) ?? [] == testCase.withheld)
        #expect((json["withheld"] == nil) == testCase.withheld.isEmpty, "withheld is absent when nothing is")
        guard case .object(let extraMembers)? = json["extra"] else {
            Issue.record("no extra object")
            return
        }
        #expect(Dictionary(extraMembers.map { ($0.0, $0.1.string ?? "(not a string)") }, uniquingKeysWith: { a, _ in a }) == testCase.extra)
        #expect(json["dialect"]?.string != nil)
        #expect(json["unbound"] == (testCase.unbound ? .bool(true) : nil), "unbound is true or absent")
    }
}
