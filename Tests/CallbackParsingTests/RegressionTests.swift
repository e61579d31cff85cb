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

/// One test per parser bug found while testing and fuzzing, named after the behaviour it
/// pins down. Fuzzer reproducers land here too (docs/fuzzing.md).
@Suite struct RegressionTests {
    @Test func fragmentParametersIndexFromZero() throws {
        // Facebook appends #_=_ after a query. `fragmentParameters` used the shared
        // array's indices (starting after the query's), so `fragmentParameters[0]` trapped
        // with "Index out of bounds", or read a query parameter.
        let url = try CallbackURL(parsing: "https://app.example/cb?code=c&state=s#_=_")
        let fragment = url.fragmentParameters
        #expect(fragment.startIndex == 0 && fragment.count == 1)
        #expect(fragment[0] == Parameter(name: "_", value: "_"))
        #expect(fragment.offset(at: 0) == 38)
        #expect(Array(url.queryParameters.indices) == [0, 1])
        #expect(url.queryParameters[1] == Parameter(name: "state", value: "s"))
    }

    @Test func hugeLimitsCannotOverflowStoredOffsets() {
        // Offsets are stored as Int32: a limit past Int32.max would let a > 2 GiB input
        // reach `Int32(offset)` and trap. The limit is clamped instead.
        let limits = ParsingLimits(maxLength: .max, maxParameters: .max, maxValueLength: .max)
        #expect(limits.maxLength <= Int(Int32.max))
        #expect(limits.maxValueLength <= Int(Int32.max))
        #expect(parse("x:?a=b", limits: limits).value != nil)
    }

    @Test func limitsSetAfterInitAreStillBounded() {
        var limits = ParsingLimits.default
        limits.maxLength = .max // bypasses init's clamp: the parser clamps again
        limits.maxValueLength = -1
        #expect(parse("x:?a=b", limits: limits).error?.reason == .tooLong, "a negative value limit refuses any value")
        limits.maxLength = -7
        let error = parse("x:", limits: limits).error
        #expect(error?.reason == .tooLong)
        #expect(error?.offset == 0)
    }

    @Test func dumpOfParametersShowsNoValue() throws {
        // `dump(url.queryParameters)` printed the stored input (every value), and
        // `dump(parameter)` the value: neither type had a redacting mirror.
        let url = try CallbackURL(parsing: "myapp://cb?code=S3cr3tV4lu3&state=S3cr3tV4lu3#id=S3cr3tV4lu3")
        for value in [url.queryParameters, url.fragmentParameters] as [Any] + url.queryParameters.map({ $0 as Any }) {
            var dumped = ""
            dump(value, to: &dumped)
            #expect(!dumped.contains("S3cr3t"), "\(dumped)")
            #expect(!String(reflecting: value).contains("S3cr3t"))
        }
        var dumped = ""
        dump(url.queryParameters, to: &dumped)
        #expect(dumped.contains("code: <redacted, 11 bytes>"))
    }
}

extension RegressionTests {
    @Test(arguments: ["myapp://cb?code=S3cr3tV4lu3", "http://127.0.0.1:1/?state=S3cr3tV4lu3", "x://u:S3cr3tV4lu3@[::1]/#t=S3cr3tV4lu3"])
    func dumpOfHostShowsNoValue(_ text: String) throws {
        // Since the zero-copy Host (d0005b7) keeps the whole URL to read its text from,
        // `dump(url.host)` printed that URL, secrets included: Host had no mirror.
        let host = try #require(try CallbackURL(parsing: text).host)
        var dumped = ""
        dump(host, to: &dumped)
        #expect(!dumped.contains("S3cr3t"), "\(dumped)")
        #expect(dumped.contains(host.text))
        #expect(!String(reflecting: host).contains("S3cr3t"))
    }
}
