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

import Foundation
import Testing
import CallbackRouterFoundation

/// The strict JSON reader against Foundation's `JSONSerialization` (`.fragmentsAllowed`),
/// over one table of documents: valid documents read to equal values; documents Foundation
/// refuses we refuse too; and each class of disagreement pinned on both sides (Foundation's
/// as observed with the Swift 6.3 toolchain on Linux), with why ours is the contract
/// (docs/tokens.md, "The JSON reader").
@Suite struct JSONFoundationDifferentialTests {
    static let valid: [String] = [
        #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"Bearer","expires_in":3600}"#,
        #"{"issuer":"https://op.example.com","code_challenge_methods_supported":["S256","plain"],"x":true}"#,
        #"[1,-2,0.5,-0.25e-2,1E+2,1e2,-0,0,9223372036854775807,-9223372036854775808]"#,
        #"["\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t","€","","\u0000"]"#,
        #"{"a":{"b":{"c":[null,true,false,{}]}},"":[]}"#,
        " \t\r\n{ \"a\" : [ 1 , 2 ] } \n",
        "\"fragment\"", "0", "true", "null", "[]", "{}",
    ]

    static let refusedByBoth: [String] = [
        "", " ", "01", "-", "1.", ".5", "+1", "NaN", "Infinity", "tru", "[1] x", "{} {}", "{'a':1}",
        "{\"a\" 1}", "[1 2]", "\"a\tb\"", "\"\\x\"", "\"\\u12G4\"", "\"abc", "{\"a\":1", "/* c */ {}",
        "\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800\\u0041\"",
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xFF, 0x22], [0x22, 0x80, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
    ]

    @Test(arguments: valid)
    func validDocumentsReadToEqualValues(_ text: String) throws {
        let ours = try JSONReader.parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.equal(ours, theirs), "\(text): ours \(ours), Foundation \(theirs)")
    }

    @Test(arguments: refusedByBoth)
    func documentsFoundationRefusesWeRefuseToo(_ text: String) {
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) == nil)
        #expect((try? JSONReader.parse(text)) == nil)
    }

    @Test(arguments: invalidUTF8)
    func bytesThatAreNotUTF8AreRefusedByBoth(_ bytes: [UInt8]) {
        #expect((try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) == nil)
        #expect(throws: CallbackError.self) { try JSONReader.parse(bytes) }
    }

    /// Where Foundation accepts and we refuse, each on purpose: a repeated member (two
    /// readers that pick different values are an attack surface; Foundation keeps the last),
    /// a trailing comma and a byte order mark (outside RFC 8259's grammar; §8.1), nesting
    /// past our depth limit.
    @Test(arguments: [
        (#"{"a":1,"a":2}"#, ReasonCode.duplicateParameter),
        (#"{"iss":"https://a","iss":"https://b"}"#, .duplicateParameter),
        ("[1,]", .invalidCharacter),
        (#"{"a":1,}"#, .invalidCharacter),
        ("\u{FEFF}{}", .invalidCharacter),
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), .tooLong),
    ])
    func foundationAcceptsWhatWeRefuseOnPurpose(_ text: String, _ reason: ReasonCode) {
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil)
        #expect(throws: CallbackError.self) { try JSONReader.parse(text) }
        do {
            _ = try JSONReader.parse(text)
        } catch {
            #expect(error.reason == reason)
        }
    }

    /// Where we accept and Foundation refuses: a number outside `Double`'s range. We keep
    /// every number as its text; a field that needs an integer reads it with `int64`, which
    /// refuses it.
    @Test func aNumberPastDoubleIsKeptAsTextAndIsNoInteger() throws {
        #expect((try? JSONSerialization.jsonObject(with: Data("1e400".utf8), options: [.fragmentsAllowed])) == nil)
        let number = try #require(try JSONReader.parse("1e400").number)
        #expect(number.text == "1e400")
        #expect(number.int64 == nil)
    }

    /// Class `foundation-drops-bom` (found twice by fuzz-json-foundation): Foundation drops a
    /// raw U+FEFF at the start of each unescaped run of a string or member name (the string's
    /// start, or right after an escape); an escaped `\uFEFF`, and a raw one elsewhere, it
    /// keeps. We keep every character: a string means what its bytes say.
    @Test func foundationDropsARawBOMStartingARunWeKeepIt() throws {
        let raw = "[\"\u{FEFF}aud\",\"a\u{FEFF}\",\"\\uFEFFb\",\"\\u00e4\u{FEFF}c\"]"
        let ours = try JSONReader.parse(raw)
        #expect(ours == .array([.string("\u{FEFF}aud"), .string("a\u{FEFF}"), .string("\u{FEFF}b"), .string("ä\u{FEFF}c")]))
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String])
        #expect(theirs.map { Array($0.unicodeScalars) } == ["aud", "a\u{FEFF}", "\u{FEFF}b", "äc"].map { Array($0.unicodeScalars) })
    }

    /// The same class for member names (found by fuzz-json-foundation in CI): two names that
    /// differ only by a raw U+FEFF starting the name are two members for us and one for
    /// Foundation, which keeps the last value. A response that names `access_token` twice
    /// this way reads as one token to Foundation; for us the BOM-prefixed name is another
    /// name, which no field reads.
    @Test func namesDifferingOnlyByADroppedBOMAreTwoMembersForUsOneForFoundation() throws {
        let raw = "{\"\u{FEFF}access_token\":\"a\",\"access_token\":\"b\"}"
        let ours = try JSONReader.parse(raw)
        #expect(ours.object?.members.map(\.name) == ["\u{FEFF}access_token", "access_token"])
        #expect(ours.object?["access_token"]?.string == "b")
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: String])
        #expect(theirs == ["access_token": "b"])
    }

    static func equal(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours.storage {
        case .null:
            return theirs is NSNull
        case .bool(let value):
            return (theirs as? Bool) == value
        case .number(let number):
            guard let other = theirs as? NSNumber else { return false }
            if let exact = number.int64 { return other.int64Value == exact }
            return other.doubleValue == Double(number.text)
        case .string(let text):
            return (theirs as? String) == text
        case .array(let elements):
            guard let others = theirs as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { equal($0, $1) }
        case .object(let members):
            guard let others = theirs as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { name, value in others[name].map { equal(value, $0) } ?? false }
        }
    }
}
