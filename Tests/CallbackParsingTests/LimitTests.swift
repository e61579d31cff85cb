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

/// Limits hold exactly at the boundary and refuse one past it, defaults and custom alike.
@Suite struct LimitTests {
    /// A URL of exactly `length` bytes.
    static func url(length: Int) -> String {
        "x:/" + String(repeating: "a", count: length - 3)
    }

    @Test func defaultsAreTheDesignedOnes() {
        #expect(ParsingLimits.default.maxLength == 16 * 1024)
        #expect(ParsingLimits.default.maxParameters == 64)
        #expect(ParsingLimits.default.maxValueLength == 8 * 1024)
    }

    @Test(arguments: [(16 * 1024, ParsingLimits.default), (100, ParsingLimits(maxLength: 100)), (3, ParsingLimits(maxLength: 3))])
    func wholeURLAtTheLimitParsesAndOnePastIsTooLong(_ limit: Int, _ limits: ParsingLimits) {
        #expect(parse(Self.url(length: limit), limits: limits).value != nil)
        let error = parse(Self.url(length: limit + 1), limits: limits).error
        #expect(error?.reason == .tooLong)
        #expect(error?.offset == limit)
    }

    @Test(arguments: [64, 1, 0])
    func parameterCountAtTheLimitParsesAndOnePastIsRefused(_ limit: Int) {
        let limits = ParsingLimits(maxParameters: limit)
        let atLimit = "x:?" + (0 ..< limit).map { "p\($0)" }.joined(separator: "&")
        #expect(parse(atLimit, limits: limits).value?.queryParameters.count == limit)
        let pastLimit = "x:?" + (0 ... limit).map { "p\($0)" }.joined(separator: "&")
        #expect(parse(pastLimit, limits: limits).error?.reason == .tooManyParameters)
    }

    @Test func emptyPairsDoNotCount() {
        let limits = ParsingLimits(maxParameters: 2)
        #expect(parse("x:?&&&a&&&b&&&#&&", limits: limits).value != nil)
        #expect(parse("x:?a#b&c", limits: limits).error?.reason == .tooManyParameters)
    }

    @Test(arguments: [8 * 1024, 10, 1])
    func valueAndNameAtTheLimitParseAndOnePastIsTooLong(_ limit: Int) {
        let limits = ParsingLimits(maxValueLength: limit)
        let atLimit = String(repeating: "v", count: limit)
        #expect(parse("x:?n=" + atLimit, limits: limits).value != nil)
        #expect(parse("x:?" + atLimit + "=v", limits: limits).value != nil)
        let longValue = parse("x:?n=" + atLimit + "v", limits: limits).error
        #expect(longValue?.reason == .tooLong)
        #expect(longValue?.offset == 5)
        let longName = parse("x:#" + atLimit + "n=v", limits: limits).error
        #expect(longName?.reason == .tooLong)
        #expect(longName?.offset == 3)
    }

    @Test func zeroValueLengthAllowsOnlyEmptyParts() {
        let limits = ParsingLimits(maxValueLength: 0)
        #expect(parse("x:?=&=", limits: limits).value?.queryParameters.count == 2)
        #expect(parse("x:?a", limits: limits).error?.reason == .tooLong)
    }

    @Test func valueLimitCountsBytesAsWritten() {
        // "%41" is 3 bytes as written, 1 decoded: the limit applies to what was written.
        let limits = ParsingLimits(maxValueLength: 6)
        #expect(parse("x:?n=%41%42", limits: limits).value != nil)
        #expect(parse("x:?n=%41%42%43", limits: limits).error?.reason == .tooLong)
    }

    @Test func negativeLimitsAreClampedToZero() {
        let limits = ParsingLimits(maxLength: -1, maxParameters: -5, maxValueLength: -9)
        #expect(limits == ParsingLimits(maxLength: 0, maxParameters: 0, maxValueLength: 0))
        #expect(parse("x:", limits: limits).error?.reason == .tooLong)
    }
}
