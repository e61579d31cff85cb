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
import Testing
import TestVectorSupport

/// The WHATWG application/x-www-form-urlencoded parser table (WPT), as data in
/// Vectors/urlencoded.json with its provenance. Every entry runs, in the query and in the
/// fragment: where WHATWG is lenient (raw non-ASCII, malformed escapes, U+FFFD
/// replacement) the file records our refusal instead, and the test checks that.
@Suite struct URLEncodedVectorTests {
    struct Case: CustomTestStringConvertible {
        let input: String
        let output: [[String]]?
        let refusal: (reason: String, offset: Int)?
        var testDescription: String { input.isEmpty ? "(empty)" : input }
    }

    static func loadCases() throws -> [Case] {
        let file = try TestVectors.json("urlencoded.json")
        guard let cases = file["cases"]?.array else { throw TestVectors.ReadError(description: "no cases") }
        return try cases.map { entry in
            guard let input = entry["input"]?.string else { throw TestVectors.ReadError(description: "case without input") }
            let output = entry["output"]?.array?.map { $0.array?.compactMap(\.string) ?? [] }
            var refusal: (String, Int)?
            if let refused = entry["refused"], let reason = refused["reason"]?.string,
                case .number(let offset)? = refused["offset"]
            {
                refusal = (reason, Int(offset))
            }
            guard (output == nil) != (refusal == nil) else {
                throw TestVectors.ReadError(description: "case \(input) needs exactly one of output/refused")
            }
            return Case(input: input, output: output, refusal: refusal)
        }
    }

    @Test func theFileHoldsEveryWPTEntry() throws {
        let cases = try Self.loadCases()
        #expect(cases.count == 35)
        #expect(cases.filter { $0.output != nil }.count == 21, "entries where WHATWG and we agree")
        #expect(cases.filter { $0.refusal != nil }.count == 14, "entries we refuse by design")
    }

    @Test func queryParametersMatchTheTable() throws {
        try check(prefix: "x:?", parameters: \.queryParameters)
    }

    @Test func fragmentParametersMatchTheTable() throws {
        try check(prefix: "x:#", parameters: \.fragmentParameters)
    }

    private func check(prefix: String, parameters: (CallbackURL) -> Parameters) throws {
        var ran = 0
        for entry in try Self.loadCases() {
            let result = parse(prefix + entry.input)
            if let output = entry.output {
                let url = try #require(result.value, "\(entry.input) refused: \(result.error.map(String.init(describing:)) ?? "")")
                #expect(pairs(parameters(url)) == output, "\(entry.input)")
            } else if let refusal = entry.refusal {
                let error = try #require(result.error, "\(entry.input) accepted")
                #expect(error.reason.rawValue == refusal.reason, "\(entry.input)")
                #expect(error.offset == prefix.utf8.count + refusal.offset, "\(entry.input)")
            }
            ran += 1
        }
        #expect(ran == 35)
    }
}
