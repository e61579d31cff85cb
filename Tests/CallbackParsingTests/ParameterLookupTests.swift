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

/// The parser keeps duplicated names; the lookup API makes them visible instead of
/// silently picking the first or the last (RFC 6749 §3.1).
@Suite struct ParameterLookupTests {
    @Test(arguments: [
        ("myapp://cb?state=a&state=b", 19),
        ("myapp://cb?state=a&st%61te=b", 19),
        ("myapp://cb?state=a&state=a", 19),
        ("myapp://cb?state&state=b", 17),
        ("myapp://cb?state=&state=", 18),
    ])
    func rejectsDuplicatedState(_ text: String, secondAt offset: Int) throws {
        let parameters = try CallbackURL(parsing: text).queryParameters
        let error = try #require(throws: ParseError.self) { try parameters.value(named: "state") }
        #expect(error.reason == .duplicateParameter)
        #expect(error.offset == offset)
        #expect(parameters.count(named: "state") == 2)
        #expect(parameters.values(named: "state").count == 2)
        #expect(parameters.firstDuplicate()?.name == "state")
        #expect(parameters.firstDuplicate()?.offset == offset)
    }

    @Test func duplicateOffsetPointsAtTheSecondName() throws {
        let text = "myapp://cb?code=1&state=a&code=2"
        let parameters = try CallbackURL(parsing: text).queryParameters
        let error = try #require(throws: ParseError.self) { try parameters.value(named: "code") }
        #expect(error.offset == 26)
        #expect(try parameters.value(named: "state") == "a", "a single name still reads")
    }

    @Test func lookupsDecodeNames() throws {
        let parameters = try CallbackURL(parsing: "x:?st%61te=1&a+b=2&%E2%9C%93=3").queryParameters
        #expect(try parameters.value(named: "state") == "1")
        #expect(try parameters.value(named: "a b") == "2")
        #expect(try parameters.value(named: "✓") == "3")
        #expect(try parameters.value(named: "st%61te") == nil, "names are compared decoded, not as written")
        #expect(parameters.contains(named: "a b"))
        #expect(!parameters.contains(named: "a+b"))
        #expect(parameters.valueOffset(named: "a b") == 17)
    }

    @Test func absentAndEmptyAreDifferent() throws {
        let parameters = try CallbackURL(parsing: "x:?a&b=&c=v").queryParameters
        #expect(try parameters.value(named: "a") == "")
        #expect(try parameters.value(named: "b") == "")
        #expect(try parameters.value(named: "z") == nil)
        #expect(parameters.values(named: "z") == [])
        #expect(parameters.count(named: "z") == 0)
        #expect(parameters.firstDuplicate() == nil)
        #expect(parameters.valueOffset(named: "z") == nil)
    }

    @Test func prefixesAndLongerNamesDoNotMatch() throws {
        let parameters = try CallbackURL(parsing: "x:?stat=1&states=2&%73tate%73=3&STATE=4").queryParameters
        #expect(try parameters.value(named: "state") == nil)
        #expect(parameters.count(named: "state") == 0)
        #expect(try parameters.value(named: "STATE") == "4", "names are case-sensitive")
    }

    @Test func queryAndFragmentAreSeparateLists() throws {
        let url = try CallbackURL(parsing: "x:?code=q#code=f")
        #expect(try url.queryParameters.value(named: "code") == "q")
        #expect(try url.fragmentParameters.value(named: "code") == "f")
        #expect(url.queryParameters.firstDuplicate() == nil)
    }
}
