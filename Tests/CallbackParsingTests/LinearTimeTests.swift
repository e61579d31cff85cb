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

/// Inputs that make naive parsers quadratic: long runs of escapes, separators, brackets
/// and colons. Each runs at 4 KiB and 16 KiB and must complete with the expected outcome.
/// No timing here (timing belongs to the benchmark and to the fuzzer's -timeout); a
/// quadratic parse of 16 KiB × 2,000 repetitions would make this suite visibly hang.
@Suite struct LinearTimeTests {
    struct Pathology: CustomTestStringConvertible, Sendable {
        let name: String
        let build: @Sendable (Int) -> String
        /// nil: accepted; else the expected reason.
        let reason: ReasonCode?
        var testDescription: String { name }
    }

    static let roomy = ParsingLimits(maxLength: 16 * 1024, maxParameters: 1024, maxValueLength: 16 * 1024)

    static let pathologies: [Pathology] = [
        Pathology(name: "%41 in a value", build: { "x:?a=" + String(repeating: "%41", count: ($0 - 5) / 3) }, reason: nil),
        Pathology(name: "%C3%A9 in a value", build: { "x:?a=" + String(repeating: "%C3%A9", count: ($0 - 5) / 6) }, reason: nil),
        Pathology(name: "& only", build: { "x:?" + String(repeating: "&", count: $0 - 3) }, reason: nil),
        Pathology(name: "= only", build: { "x:?" + String(repeating: "=", count: $0 - 3) }, reason: nil),
        Pathology(
            name: "a& pairs past the count limit", build: { "x:?" + String(repeating: "a&", count: ($0 - 3) / 2) },
            reason: .tooManyParameters),
        Pathology(name: "[ in a query", build: { "x:?" + String(repeating: "[", count: $0 - 3) }, reason: nil),
        Pathology(name: "[ in a host", build: { "x://" + String(repeating: "[", count: $0 - 4) }, reason: .invalidHost),
        Pathology(
            name: ":: in a bracketed host", build: { "x://[" + String(repeating: "::", count: ($0 - 6) / 2) + "]" },
            reason: .invalidHost),
        Pathology(name: ":: in a host", build: { "x://" + String(repeating: "::", count: ($0 - 4) / 2) }, reason: .invalidPort),
        Pathology(name: "digits in a port", build: { "x://h:" + String(repeating: "0", count: $0 - 6) }, reason: nil),
        Pathology(name: "dots in a host", build: { "x://" + String(repeating: ".", count: $0 - 4) }, reason: nil),
        Pathology(name: "digit labels in a host", build: { "x://" + String(repeating: "1.", count: ($0 - 4) / 2) }, reason: .invalidHost),
        Pathology(name: "@ in an authority", build: { "x://" + String(repeating: "@", count: $0 - 4) }, reason: .invalidAuthority),
        Pathology(name: "no colon", build: { String(repeating: "a", count: $0) }, reason: .relativeReference),
        Pathology(name: "long scheme", build: { String(repeating: "a", count: $0 - 1) + ":" }, reason: nil),
        Pathology(name: "# in a fragment", build: { "x:#" + String(repeating: "#", count: $0 - 3) }, reason: nil),
        Pathology(name: "/ in a path", build: { "x:" + String(repeating: "/", count: $0 - 2) }, reason: nil),
        Pathology(
            name: "truncated UTF-8 at the end", build: { "x:?a=" + String(repeating: "%C3%A9", count: ($0 - 8) / 6) + "%C3" },
            reason: .invalidUTF8),
    ]

    @Test(arguments: pathologies)
    func completesAtFourAndSixteenKiB(_ pathology: Pathology) {
        for size in [4 * 1024, 16 * 1024] {
            let text = pathology.build(size)
            #expect(text.utf8.count <= size && text.utf8.count > size - 8)
            for _ in 0 ..< 50 {
                let result = parse(text, limits: Self.roomy)
                #expect(result.error?.reason == pathology.reason, "\(pathology.name) at \(size): \(String(describing: result.error))")
            }
            // Lookups on a 16 KiB parameter list are linear too.
            if let url = parse(text, limits: Self.roomy).value {
                _ = url.queryParameters.firstDuplicate()
                _ = url.queryParameters.count(named: "a")
                _ = url.serialized
                _ = url.description
            }
        }
    }
}
