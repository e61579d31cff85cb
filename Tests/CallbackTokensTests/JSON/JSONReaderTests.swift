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
@testable import CallbackTokens

/// The strict JSON reader (RFC 8259) the token, ID token and discovery readers stand on.
@Suite struct JSONReaderTests {
    struct Refusal: CustomTestStringConvertible, Sendable {
        let input: String
        let reason: ReasonCode
        let offset: Int
        var testDescription: String { input }
        init(_ input: String, _ reason: ReasonCode, at offset: Int) {
            self.input = input
            self.reason = reason
            self.offset = offset
        }
    }

    static let refusals: [Refusal] = [
        Refusal("", .emptyInput, at: 0),
        Refusal(" \n\t", .emptyInput, at: 3),
        Refusal("\u{FEFF}{}", .invalidCharacter, at: 0),
        Refusal("{\"a\":1,}", .invalidCharacter, at: 7),
        Refusal("[1,]", .invalidCharacter, at: 3),
        Refusal("{'a':1}", .invalidCharacter, at: 1),
        Refusal("{\"a\":1} x", .invalidCharacter, at: 8),
        Refusal("{} {}", .invalidCharacter, at: 3),
        Refusal("01", .invalidCharacter, at: 1),
        Refusal("-", .invalidCharacter, at: 1),
        Refusal("1.", .invalidCharacter, at: 2),
        Refusal("1e", .invalidCharacter, at: 2),
        Refusal(".5", .invalidCharacter, at: 0),
        Refusal("+1", .invalidCharacter, at: 0),
        Refusal("NaN", .invalidCharacter, at: 0),
        Refusal("Infinity", .invalidCharacter, at: 0),
        Refusal("tru", .invalidCharacter, at: 3),
        Refusal("trUe", .invalidCharacter, at: 2),
        Refusal("{\"a\" 1}", .invalidCharacter, at: 5),
        Refusal("{\"a\":1 \"b\":2}", .invalidCharacter, at: 7),
        Refusal("[1 2]", .invalidCharacter, at: 3),
        Refusal("\"a\tb\"", .invalidCharacter, at: 2),
        Refusal("\"\\x\"", .invalidCharacter, at: 1),
        Refusal("\"\\u12G4\"", .invalidCharacter, at: 5),
        Refusal("\"abc", .invalidCharacter, at: 4),
        Refusal("{\"a\":1", .invalidCharacter, at: 6),
        Refusal("/* c */ {}", .invalidCharacter, at: 0),
        Refusal("\"\\uD800\"", .invalidUTF8, at: 1),
        Refusal("\"\\uDC00\"", .invalidUTF8, at: 1),
        Refusal("\"\\uD800\\u0041\"", .invalidUTF8, at: 1),
        Refusal("{\"a\":1,\"a\":2}", .duplicateParameter, at: 7),
        Refusal("{\"a\":1,\"\\u0061\":2}", .duplicateParameter, at: 7),
        Refusal("[{\"x\":{\"k\":true,\"k\":false}}]", .duplicateParameter, at: 16),
    ]

    @Test(arguments: refusals)
    func refusesWhatRFC8259DoesNotDefine(_ refusal: Refusal) {
        let error = refusalOf(Array(refusal.input.utf8))
        #expect(error?.reason == refusal.reason, "\(String(describing: error))")
        #expect(error?.offset == refusal.offset, "\(String(describing: error))")
    }

    @Test(arguments: [
        [0x22, 0xC0, 0xAF, 0x22] as [UInt8], // overlong '/'
        [0x22, 0xED, 0xA0, 0x80, 0x22], // an encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // past U+10FFFF
        [0x22, 0xFF, 0x22],
        [0x22, 0x80, 0x22], // a lone continuation byte
        [0x22, 0xE2, 0x82, 0x22], // truncated sequence
    ])
    func refusesBytesThatAreNotUTF8(_ bytes: [UInt8]) {
        let error = refusalOf(bytes)
        #expect(error?.reason == .invalidUTF8, "\(String(describing: error))")
        #expect(error?.offset == 1)
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try JSONReader.parse(
            #" { "s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00€", "n": -12.5e+3, "i": 0, "t": true, "f": false, "z": null, "a": [1, [], {}] } "#
        )
        let object = try #require(value.object)
        #expect(object.names == ["s", "n", "i", "t", "f", "z", "a"])
        #expect(object["s"]?.string == "a\"\\/\u{8}\u{C}\n\r\té😀€")
        #expect(object["n"]?.number?.text == "-12.5e+3")
        #expect(object["n"]?.number?.int64 == nil)
        #expect(object["i"]?.number?.int64 == 0)
        #expect(object["t"] == .bool(true))
        #expect(object["f"] == .bool(false))
        #expect(object["z"] == .null)
        #expect(object["a"] == .array([.number(JSONNumber(uncheckedText: "1")), .array([]), .object(JSONObject(uncheckedMembers: []))]))
        #expect(object["missing"] == nil)
    }

    @Test(arguments: [
        ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min), ("-0", 0), ("3600", 3600),
    ])
    func readsIntegersExactly(_ text: String, _ expected: Int64) throws {
        #expect(try JSONReader.parse(text).number?.int64 == expected)
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "1.0", "1e2", "3600.5", "100000000000000000000000"])
    func anIntegerAccessRefusesFractionsExponentsAndOverflow(_ text: String) throws {
        let number = try #require(try JSONReader.parse(text).number)
        #expect(number.int64 == nil)
        #expect(number.text == text)
    }

    @Test func limitsAreRefusalsWithTheirOffsets() {
        var limits = JSONLimits()
        limits.maxDepth = 3
        #expect(refusalOf(Array("[[[1]]]".utf8), limits: limits) == nil)
        let deep = refusalOf(Array("[[[[1]]]]".utf8), limits: limits)
        #expect(deep?.reason == .tooLong)
        #expect(deep?.offset == 3)

        limits = JSONLimits(maxStringBytes: 4)
        #expect(refusalOf(Array(#"["abcd", "\u00e9\u00e9"]"#.utf8), limits: limits) == nil)
        #expect(refusalOf(Array(#"["abcde"]"#.utf8), limits: limits)?.reason == .tooLong)
        #expect(refusalOf(Array(#"["ab\u00e9\u00e9"]"#.utf8), limits: limits)?.reason == .tooLong)
        #expect(refusalOf(Array("123456".utf8), limits: limits)?.reason == .tooLong)

        limits = JSONLimits(maxMembers: 2)
        #expect(refusalOf(Array(#"{"a":1,"b":2}"#.utf8), limits: limits) == nil)
        let members = refusalOf(Array(#"{"a":1,"b":2,"c":3}"#.utf8), limits: limits)
        #expect(members?.reason == .tooManyParameters)
        #expect(members?.offset == 13)
        #expect(refusalOf(Array("[1,2,3]".utf8), limits: limits)?.reason == .tooManyParameters)

        limits = JSONLimits(maxBytes: 8)
        #expect(refusalOf(Array("[1,2,3,4]".utf8), limits: limits)?.reason == .tooLong)
    }

    @Test func deepNestingIsRefusedNotAStackOverflow() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 60_000)
        #expect(refusalOf(bytes, limits: JSONLimits(maxBytes: 100_000))?.reason == .tooLong)
    }

    /// A member name shows only when it looks like a parameter name (``ParameterName``), as
    /// in every diagnostic of the package; a value never shows.
    @Test func errorsNeverShowStringContent() {
        let secret = "s3cr3t+t0ken/value"
        for input in [
            #"{"access_token":""# + secret, #"{"access_token":""# + secret + "\u{1}\"}",
            #"{"access_token":""# + secret + #"\q"}"#, #"{""# + secret + #"":1,""# + secret + #"":2}"#,
        ] {
            let error = refusalOf(Array(input.utf8))
            #expect(error != nil)
            #expect(!(error?.detail.contains(secret) ?? true), "\(String(describing: error))")
        }
        let named = refusalOf(Array(#"{"access_token":"a","access_token":"b"}"#.utf8))
        #expect(named?.detail.contains("'access_token'") == true)
    }

    @Test(arguments: [
        #"{"a":[1,-2.5e-3,true,false,null,"x\"\\\u0001é"],"b":{}}"#, "[]", "0", #""""#, #"{"":{"":[]}}"#, #""\n\t\b\f\r\u007f""#,
    ])
    func theSerializationReadsBackToTheSameValue(_ text: String) throws {
        let value = try JSONReader.parse(text)
        let printed = value.serialized
        #expect(try JSONReader.parse(printed) == value)
        #expect(try JSONReader.parse(printed).serialized == printed)
    }

    func refusalOf(_ bytes: [UInt8], limits: JSONLimits = .default) -> CallbackError? {
        do {
            _ = try JSONReader.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }
}
