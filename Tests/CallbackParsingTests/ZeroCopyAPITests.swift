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

/// The allocation-free reading paths must say exactly what the `String` ones say.
@Suite struct ZeroCopyAPITests {
    static let urls = [
        "com.example.app:/oauth2redirect?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj",
        "x://h?a+b=c+d&%61=%62&n&=v&&e=&f=%F0%9F%98%80&g=a%2Bb%25c",
        "x://h?q=1#f=2&g=%20&_=_",
        "x:/p?" + (0 ..< 20).map { "k\($0)=v%2\($0 % 10)+x" }.joined(separator: "&"),
    ]

    @Test(arguments: urls)
    func decodedBytesEqualTheDecodedStrings(_ text: String) throws {
        let url = try CallbackURL(parsing: text)
        for parameters in [url.queryParameters, url.fragmentParameters] {
            var seen: [Parameter] = []
            parameters.forEachDecodedUTF8 { name, value in
                seen.append(Parameter(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            }
            #expect(seen == Array(parameters))
        }
        var direct: [Parameter] = []
        url.forEachQueryParameterUTF8 { name, value in
            direct.append(Parameter(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        #expect(direct == Array(url.queryParameters))
        #expect(String(url.pathSlice) == url.path)
        #expect(url.string == text)
    }

    /// The zero-copy decoder copies eight bytes at a time between escapes: random names and
    /// values with escapes at every offset and of every length (0…40 bytes, so runs end on
    /// and across word boundaries) must decode as a byte-at-a-time reference does.
    @Test func wordAtATimeDecodingMatchesAByteAtATimeReference() throws {
        var random = SplitMix64(propertyTest: "wordAtATimeDecodingMatchesAByteAtATimeReference", defaultSeed: 0x5EED_DEC0DE)
        let replay = random.replay
        print("ZeroCopyAPITests: \(replay)")
        let plain = Array("abcXYZ019-._~!$'()*,;:@/?".utf8)
        func piece(_ length: Int) -> (raw: String, decoded: [UInt8]) {
            var raw = "", decoded: [UInt8] = []
            while decoded.count < length {
                switch random.next() % 6 {
                case 0:
                    let byte = UInt8(random.next() % 0x80)
                    raw += "%" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16, uppercase: true)
                    decoded.append(byte)
                case 1:
                    raw += "+"
                    decoded.append(0x20)
                default:
                    let byte = plain[Int(random.next() % UInt64(plain.count))]
                    raw += String(UnicodeScalar(byte))
                    decoded.append(byte)
                }
            }
            return (raw, decoded)
        }
        for round in 0 ..< 400 {
            var query: [String] = [], expected: [[UInt8]] = []
            for _ in 0 ..< 1 + round % 4 {
                let name = piece(1 + Int(random.next() % 12)), value = piece(Int(random.next() % 41))
                query.append(name.raw + "=" + value.raw)
                expected.append(name.decoded)
                expected.append(value.decoded)
            }
            let url = try #require(try? CallbackURL(parsing: "x:/p?" + query.joined(separator: "&")), "\(replay)")
            var seen: [[UInt8]] = [], direct: [[UInt8]] = []
            url.queryParameters.forEachDecodedUTF8 { name, value in
                seen.append(Array(name))
                seen.append(Array(value))
            }
            url.forEachQueryParameterUTF8 { name, value in
                direct.append(Array(name))
                direct.append(Array(value))
            }
            #expect(seen == expected, "\(replay): \(query)")
            #expect(direct == expected, "\(replay): \(query)")
        }
    }

    /// The byte-collection entry point refuses raw non-ASCII exactly where and why the
    /// parser would, naming the real byte, even when the bytes are not valid UTF-8.
    @Test(arguments: [
        ([UInt8]("x://h/p?a=".utf8) + [0xFF], 10, ReasonCode.invalidCharacter),
        ([UInt8]("x://".utf8) + [0xC3, 0xA9] + [UInt8]("/p".utf8), 4, ReasonCode.invalidCharacter),
        ([0xE2, 0x80] + [UInt8](":x".utf8), 0, ReasonCode.invalidCharacter),
        // The authority is checked for raw bytes before its port is read.
        ([UInt8]("x://h:9x".utf8) + [0x80], 8, ReasonCode.invalidCharacter),
        ([UInt8]("x://h:9x/".utf8) + [0x80], 7, ReasonCode.invalidPort),
        ([UInt8]("x://h/%zz".utf8) + [0x80], 6, ReasonCode.invalidPercentEncoding),
    ])
    func refusesNonASCIIBytesAsTheStringParserDoes(_ bytes: [UInt8], _ offset: Int, _ reason: ReasonCode) {
        do {
            _ = try CallbackURL(parsing: bytes)
            Issue.record("accepted \(bytes)")
        } catch {
            #expect(error.reason == reason)
            #expect(error.offset == offset)
            if reason == .invalidCharacter { #expect(error.detail.contains("non-ASCII")) }
        }
    }
}

@Suite struct ComponentComparisonTests {
    @Test(arguments: [
        ("MyApp://h/p", "myapp://H/p", true, true),
        ("myapp://h/p", "myapp2://h/p", false, true),
        ("a+b.c-d:/x", "A+B.C-D:/x", true, true),
        ("x:/Callback", "x:/callback", true, false),
        ("x:/a%2Fb", "x:/a/b", true, false),
        ("x://h", "x://h/", true, false),
    ])
    func comparesSchemesAndPathsWithoutStrings(_ a: String, _ b: String, sameScheme: Bool, samePath: Bool) throws {
        let x = try CallbackURL(parsing: a), y = try CallbackURL(parsing: b)
        #expect(x.hasSameScheme(as: y) == sameScheme)
        #expect(x.hasSameScheme(as: y) == (x.scheme == y.scheme))
        #expect(x.hasSamePath(as: y) == samePath)
        #expect(x.hasSamePath(as: y) == (x.path == y.path))
        #expect(x.hasScheme(x.scheme))
        #expect(!x.hasScheme(x.scheme + "x"))
    }
}
