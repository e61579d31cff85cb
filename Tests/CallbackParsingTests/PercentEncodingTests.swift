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
@testable import CallbackParsing

@Suite struct PercentEncodingTests {
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// Uppercase `%XX`, as RFC 3986 §2.1 recommends; written independently of the encoder.
    static func escape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    @Test func leavesExactlyTheUnreservedASCIIRaw() {
        var raw = 0
        for byte in UInt8(0) ... 0x7F {
            let text = String(decoding: [byte], as: UTF8.self)
            let encoded = PercentEncoding.encode(text)
            if Self.unreserved.contains(byte) {
                #expect(encoded == text)
                #expect(PercentEncoding.isUnreserved(byte))
                raw += 1
            } else {
                #expect(encoded == Self.escape(byte), "byte \(byte)")
                #expect(!PercentEncoding.isUnreserved(byte))
            }
        }
        #expect(raw == 66) // 26 + 26 + 10 + 4
        for byte in UInt8(0x80) ... 0xFF { #expect(!PercentEncoding.isUnreserved(byte)) }
    }

    @Test(arguments: [
        ("", ""),
        ("openid profile", "openid%20profile"), // a space is %20, never +
        ("a+b", "a%2Bb"), // + must not become a space
        ("a+b&c=d#e", "a%2Bb%26c%3Dd%23e"),
        ("100%", "100%25"),
        ("%20", "%2520"), // already-encoded text is encoded again
        ("https://api.example.com/v1?x=1", "https%3A%2F%2Fapi.example.com%2Fv1%3Fx%3D1"),
        ("é", "%C3%A9"),
        ("😀", "%F0%9F%98%80"),
        ("e\u{301}", "e%CC%81"), // no Unicode normalisation
        ("\u{0}\r\n", "%00%0D%0A"),
        ("-._~", "-._~"),
    ])
    func encodesEverythingOutsideTheUnreservedSet(plain: String, encoded: String) {
        #expect(PercentEncoding.encode(plain) == encoded)
    }

    /// The printer/parser round trip: whatever a value holds, our own parser decodes its
    /// encoding back to it exactly, as a query value, a fragment value and a path.
    @Test func ourParserDecodesEveryEncodingBackExactly() throws {
        var generator = SplitMix64(propertyTest: "ourParserDecodesEveryEncodingBackExactly", defaultSeed: 0x3986)
        let replay = generator.replay
        print("PercentEncodingTests: \(replay)")
        let pieces = [
            " ", "+", "&", "=", "#", "%", "%20", "%2B", "?", "/", ";", ",", "@", "!", "$", "'", "(", ")",
            "*", ":", "[", "]", "{", "}", "|", "\\", "^", "`", "\"", "<", ">", "\u{0}", "\t", "\n",
            "a", "Z", "0", "-", ".", "_", "~", "é", "ü", "中", "😀", "👩‍👩‍👧", "e\u{301}", "\u{200B}", "\u{FEFF}",
        ]
        var checked = 0
        for _ in 0 ..< 500 {
            let count = Int.random(in: 0 ... 12, using: &generator)
            let value = (0 ..< count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let encoded = PercentEncoding.encode(value)
            #expect(encoded.utf8.allSatisfy { Self.unreserved.contains($0) || $0 == UInt8(ascii: "%") }, "\(replay)")

            let url = try #require(
                try? CallbackURL(parsing: "x://h/" + encoded + "?n=" + encoded + "#f=" + encoded),
                "\(replay)")
            #expect(try url.queryParameters.value(named: "n") == value, "\(replay)")
            #expect(try url.fragmentParameters.value(named: "f") == value, "\(replay)")
            #expect(try url.decodedPath() == "/" + value, "\(replay)")
            checked += 1
        }
        #expect(checked == 500)
    }
}
