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
@testable import CallbackRouter

@Suite struct Base64URLTests {
    /// RFC 4648 §10 test vectors, written in the §5 alphabet without padding.
    static let rfc4648Vectors: [(plain: String, encoded: String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"),
        ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: rfc4648Vectors)
    func encodesTheRFC4648VectorsWithoutPadding(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    /// The two characters where the URL alphabet differs from the standard one (62 → `-`,
    /// 63 → `_`; standard base64 would write `+/8=` and `++++`/`////`).
    @Test(arguments: [
        ([0xFB, 0xFF] as [UInt8], "-_8"),
        ([0xFB, 0xEF, 0xBE] as [UInt8], "----"),
        ([0xFF, 0xFF, 0xFF] as [UInt8], "____"),
    ])
    func usesTheURLSafeAlphabet(bytes: [UInt8], encoded: String) {
        #expect(Base64URL.encode(bytes) == encoded)
        #expect(Base64URL.decode(encoded) == bytes)
    }

    /// RFC 7636 Appendix B: the example's 32 random octets encode to its code_verifier.
    @Test func encodesTheRFC7636AppendixBOctets() {
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
            22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]
        #expect(Base64URL.encode(octets) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    @Test(arguments: [
        "Zg==", // padding
        "Zm8=", // padding
        "Z", // a length of 1 mod 4 encodes no whole byte
        "Zm9vY", // likewise
        "+_8", // the standard alphabet's +
        "-/8", // the standard alphabet's /
        "Zm 9v", // whitespace
        "Zm9v\n", // a newline
        "Zm9vé", // non-ASCII
        "Zh", // unused low bits set: not the canonical encoding of "f"
        "Zm9", // 'm9' ends in bits that are not zero: "fo" is "Zm8"
    ])
    func refusesNonCanonicalOrForeignText(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    /// Of the 64 possible last characters of a two-character text, only those whose low
    /// four bits are zero are canonical: exactly one text per byte value.
    @Test func acceptsExactlyOneTextPerByte() {
        var accepted: [String] = []
        for last in Base64URL.alphabet {
            let text = "Q" + String(decoding: [last], as: UTF8.self)
            if let bytes = Base64URL.decode(text) {
                #expect(Base64URL.encode(bytes) == text)
                accepted.append(text)
            }
        }
        #expect(accepted == ["QA", "QQ", "Qg", "Qw"])
    }

    @Test func roundTripsEveryLengthUpTo200() {
        var generator = SplitMix64(propertyTest: "roundTripsEveryLengthUpTo200", defaultSeed: 0xB64)
        let replay = generator.replay
        print("Base64URLTests: \(replay)")
        for length in 0 ... 200 {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(text.utf8.count == (length * 4 + 2) / 3, "\(replay)")
            #expect(text.utf8.allSatisfy { Base64URL.values[Int($0)] != 0xFF }, "\(replay)")
            #expect(Base64URL.decode(text) == bytes, "\(replay)")
        }
    }
}
