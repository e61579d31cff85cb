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

import CallbackParsing
import CallbackRouter
import CallbackTestSupport
import Testing
import TestVectorSupport

/// Long redirects captured from real authorization servers by the live interop suites
/// (Vectors/captured-long-redirects.json, docs/interop.md): the OpenID Connect hybrid flow's
/// signed ID token (~850 bytes) beside the code, a 256-byte state of reserved and non-ASCII
/// characters and a percent-encoded iss, and a 512-byte state. The parser must read every
/// pair exactly as a second parser (Python's parse_qsl) did, through both reading paths;
/// they are also the benchmark's `long` row, where the byte loops' speed is measured.
@Suite struct CapturedLongRedirectVectorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let index: Int
        let server: String
        let flow: String
        let url: String
        let bytes: Int
        let inFragment: Bool
        let redirectURI: String
        let parameters: [[String]]
        var testDescription: String { "#\(index) \(server): \(flow)" }
        func value(_ name: String) -> String? { parameters.first { $0[0] == name }?[1] }
    }

    static let expectedPerServer: [String: Int] = ["django-oauth-toolkit": 3, "glewlwyd": 3]

    static func loadCases() throws -> [Case] {
        try TestVectors.cases(in: "captured-long-redirects.json") { entry in
            guard case .number(let bytes)? = entry["bytes"], let pairs = entry["parameters"]?.array else {
                throw entry.error("no bytes or parameters")
            }
            let parameters = try pairs.map { pair in
                guard let items = pair.array, items.count == 2, let name = items[0].string, let value = items[1].string else {
                    throw entry.error("a pair is not [name, value]")
                }
                return [name, value]
            }
            return Case(
                index: entry.index, server: try entry.string("server"), flow: try entry.string("flow"),
                url: try entry.string("url"), bytes: Int(bytes), inFragment: try entry.string("response_in") == "fragment",
                redirectURI: try entry.string("redirect_uri"), parameters: parameters)
        }
    }

    @Test func theFileHoldsEveryCase() throws {
        let cases = try Self.loadCases()
        let file = try TestVectors.json("captured-long-redirects.json")
        #expect(file["count"] == .number(Double(cases.count)), "the file's own count is stale")
        #expect(TestVectors.tally(servers: cases.map(\.server), known: Self.expectedPerServer.keys) == Self.expectedPerServer)
        for testCase in cases { #expect(testCase.bytes == testCase.url.utf8.count, "#\(testCase.index): bytes") }
        // What makes them long and worth keeping: a signed ID token (a JWT) from each server,
        // in the fragment (django-oauth-toolkit) and in the query (glewlwyd); a 256-byte and
        // a 512-byte state; iss percent-encoded.
        let tokens = cases.compactMap { $0.value("id_token") }
        #expect(tokens.count == 4 && tokens.allSatisfy { $0.utf8.count >= 800 && $0.split(separator: ".").count == 3 })
        #expect(cases.contains { $0.inFragment && $0.value("id_token") != nil })
        #expect(cases.contains { !$0.inFragment && $0.value("id_token") != nil })
        #expect(cases.contains { $0.value("state")?.utf8.count == 256 })
        #expect(cases.contains { $0.value("state")?.utf8.count == 512 })
        #expect(cases.allSatisfy { $0.url.contains("iss=http%3A%2F%2F") })
    }

    @Test(arguments: try loadCases())
    func parsesToThePairsASecondParserReads(_ testCase: Case) throws {
        let url = try CallbackURL(parsing: testCase.url)
        let parameters = testCase.inFragment ? url.fragmentParameters : url.queryParameters
        #expect(parameters.map { [$0.name, $0.value] } == testCase.parameters)
        #expect((testCase.inFragment ? url.queryParameters : url.fragmentParameters).isEmpty)
        #expect(testCase.inFragment ? url.query == nil : url.fragment == nil)
        // The zero-copy reader (the benchmark's path) gives the same bytes.
        var read: [[String]] = []
        let collect = { (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) in
            read.append([String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)])
        }
        if testCase.inFragment { url.fragmentParameters.forEachDecodedUTF8(collect) } else { url.forEachQueryParameterUTF8(collect) }
        #expect(read == testCase.parameters)
    }

    /// A token in the URL is the implicit grant's answer, refused whatever carries it
    /// (design.md): the hybrid flow's redirect is read, never delivered as a code.
    @Test(arguments: try loadCases().filter { $0.value("id_token") != nil })
    func refusesTheIDTokenInTheURL(_ testCase: Case) throws {
        let validator = try CallbackValidator(
            redirectURIs: [try RedirectURI(testCase.redirectURI, policy: .native)], policy: .native, dialect: .oauth2,
            expecting: CallbackExpectations(
                state: testCase.value("state"), responseMode: testCase.inFragment ? .fragment : .query))
        expectRefusal(.implicitGrantNotSupported) { try validator.validate(testCase.url) }
    }
}
