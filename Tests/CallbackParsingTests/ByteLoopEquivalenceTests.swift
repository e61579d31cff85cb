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

/// The parser's byte loops (issue 17) must decide exactly what the plain definitions decide:
/// each faster loop is compared here with a slow reference, over seeded random inputs built
/// from the bytes that matter to it.
@Suite struct ByteLoopEquivalenceTests {
    /// The reference for a pair's UTF-8: the decoded name, then the decoded value, each run
    /// through the streaming validator on its own (the parser's second pass before issue 17).
    /// Returns the offset the parser must refuse with `invalid_utf8`, or nil.
    static func referenceFirstInvalidUTF8(_ url: [UInt8], component: Range<Int>) -> Int? {
        var start = component.lowerBound
        while start <= component.upperBound {
            var end = start
            while end < component.upperBound && url[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                let equals = url[start ..< end].firstIndex(of: UInt8(ascii: "=")) ?? end
                for part in [start ..< equals, min(equals + 1, end) ..< end] {
                    let bad = url.withUnsafeBufferPointer {
                        PercentDecoding.firstInvalidUTF8(UnsafeBufferPointer(rebasing: $0[part]), plusIsSpace: true)
                    }
                    if let bad { return part.lowerBound + bad }
                }
            }
            start = end + 1
        }
        return nil
    }

    /// Escapes that start, continue, or break UTF-8 sequences (every row of Unicode's Table
    /// 3-7 and its edges), ASCII escapes, raw bytes, `+`, `=` and `&`.
    static let pieces = [
        "%C2", "%C3", "%DF", "%C0", "%C1", "%E0", "%E1", "%ED", "%EE", "%EF", "%F0", "%F1", "%F4", "%F5", "%FF",
        "%80", "%8F", "%90", "%9F", "%A0", "%A9", "%BF", "%82", "%AC", "%98", "%c3", "%a9", "%41", "%2B", "%7F",
        "a", "Z", "+", "=", "&", "-", "~",
    ]
    /// Whole sequences at the edges of each row, and ASCII: most rounds stay valid for a while.
    static let valid = [
        "%C2%80", "%C3%A9", "%DF%BF", "%E0%A0%80", "%E2%82%AC", "%ED%9F%BF", "%EE%80%80", "%EF%BF%BF",
        "%F0%90%80%80", "%F0%9F%98%80", "%F3%BF%BF%BF", "%F4%8F%BF%BF", "a", "%41", "+", "=", "&", "~",
    ]

    @Test func escapedUTF8IsRefusedWhereAPassOverTheDecodedPairWouldRefuseIt() throws {
        var random = SplitMix64(propertyTest: "escapedUTF8IsRefusedWhereAPassOverTheDecodedPairWouldRefuseIt", defaultSeed: 0x0007_F8)
        var refused = 0
        var accepted = 0
        for round in 0 ..< 20_000 {
            let count = Int.random(in: 1 ... 16, using: &random)
            let body = (0 ..< count).map { _ in
                (Int.random(in: 0 ..< 12, using: &random) == 0 ? Self.pieces : Self.valid).randomElement(using: &random)!
            }.joined()
            let inFragment = round % 3 == 2
            let text = (inFragment ? "x:/p?q=1#" : "x:/p?") + body + (inFragment ? "" : "#f")
            let bytes = Array(text.utf8)
            let start = inFragment ? 9 : 5
            let component = start ..< (inFragment ? bytes.count : bytes.count - 2)
            let expected = Self.referenceFirstInvalidUTF8(bytes, component: component)
            do {
                _ = try CallbackURL(parsing: text)
                #expect(expected == nil, "\(text): accepted, the reference refuses at \(expected ?? -1); \(random.replay)")
                accepted += 1
            } catch {
                #expect(error.reason == .invalidUTF8 && error.offset == expected, "\(text): \(error); \(random.replay)")
                refused += 1
            }
        }
        // Both outcomes are exercised, not just one.
        #expect(refused > 1_000 && accepted > 1_000, "refused \(refused), accepted \(accepted)")
    }

    /// A syntax error or a limit later in the same pair is still the refusal, as when the pair
    /// was checked whole after the scan: the UTF-8 refusal waits for the pair's end.
    @Test(arguments: [
        ("x:/p?a=%C3x%zz", ReasonCode.invalidPercentEncoding, 11),
        ("x:/p?a=%C3\u{7F}", .invalidCharacter, 10),
        ("x:/p?a=%C3&b=%zz", .invalidUTF8, 7),
        ("x:/p?%E2%82=%AC", .invalidUTF8, 5),
        ("x:/p?a=%E2%82%AC%AC", .invalidUTF8, 16),
    ])
    func aLaterErrorInThePairComesFirst(_ text: String, _ reason: ReasonCode, _ offset: Int) {
        #expect(throws: ParseError.self) { try CallbackURL(parsing: text) }
        do {
            _ = try CallbackURL(parsing: text)
        } catch {
            #expect(error.reason == reason && error.offset == offset, "\(error)")
        }
    }

    /// The vector filter flags every byte the table does not call plain, in every lane, and
    /// of the plain bytes only the few it documents (`! $ ' ( ) * ?`, and `#` in the
    /// fragment: the false positives the loop steps past after a table look-up).
    @Test(arguments: [false, true])
    func theVectorFilterFlagsEveryStopByteInEveryLane(fragment: Bool) {
        let plain: CharacterClass = fragment ? .fragmentPlain : .queryPlain
        let falsePositives = Set(("!$'()*?" + (fragment ? "#" : "")).utf8)
        func flagged(_ bytes: [UInt8]) -> [Bool] {
            let mask = bytes.withUnsafeBytes { PlainRun.candidates($0.baseAddress!, fragment: fragment) }
            return (0 ..< 16).map { mask[$0] == 0xFF }
        }
        for lane in 0 ..< 16 {
            for byte in 0 ... 255 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
                bytes[lane] = UInt8(byte)
                let expected = !plain.contains(UInt8(byte)) || falsePositives.contains(UInt8(byte))
                var lanes = [Bool](repeating: false, count: 16)
                lanes[lane] = expected
                #expect(flagged(bytes) == lanes, "byte \(byte) in lane \(lane)")
            }
        }
    }

    /// The 64- and 16-byte loop stops at the first stop byte, past any false positive of the
    /// filter, or where fewer than sixteen bytes remain (the table takes the tail), from any
    /// start in runs of any length, with stops and false positives in any lane of any block.
    @Test(arguments: [false, true])
    func sixtyFourBytesAtATimeStopWhereTheTableWould(fragment: Bool) {
        let plain: CharacterClass = fragment ? .fragmentPlain : .queryPlain
        var random = SplitMix64(propertyTest: "sixtyFourBytesAtATimeStopWhereTheTableWould", defaultSeed: 0x32_3216)
        // Stops of the query or the fragment, the filter's false positives, `{ }` (plain).
        let specials = Array("%&+=#`<>\" !$'()*?{}".utf8) + [0x20, 0x00, 0x7F, 0x80, 0xFF]
        for _ in 0 ..< 20_000 {
            let count = Int.random(in: 0 ... 200, using: &random)
            var bytes = (0 ..< count).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0 ..< 26, using: &random) }
            if count > 0 {
                for _ in 0 ..< Int.random(in: 0 ... 4, using: &random) {
                    bytes[Int.random(in: 0 ..< count, using: &random)] = specials.randomElement(using: &random)!
                }
            }
            let start = Int.random(in: 0 ... count, using: &random)
            let firstStop = bytes[start...].firstIndex { !plain.contains($0) }
            let got = bytes.withUnsafeBufferPointer {
                PlainRun.skip(
                    $0.baseAddress!, from: start, count: count, fragment: fragment, table: CharacterClass.lookup,
                    plain: plain.rawValue)
            }
            if let firstStop, firstStop + 16 <= count || firstStop < got {
                #expect(got == firstStop, "\(bytes) from \(start); \(random.replay)")
            } else {
                #expect(got <= count && count - got < 16 && got >= start, "\(bytes) from \(start); \(random.replay)")
                #expect(bytes[start ..< got].allSatisfy { plain.contains($0) })
            }
        }
    }

    /// Sixteen bytes of an escape run at once accept what a byte-at-a-time walk accepts: a
    /// `%` with a first digit 0–7 and a hex second digit, `+`, and any byte the plain-run
    /// filter does not flag; the walk stops at anything else, or once it has passed 16 bytes.
    @Test(arguments: [false, true])
    func sixteenBytesOfLowEscapesAtOnceAcceptWhatTheScalarRunAccepts(fragment: Bool) {
        let plain: CharacterClass = fragment ? .fragmentPlain : .queryPlain
        let falsePositives = Set(("!$'()*?" + (fragment ? "#" : "")).utf8)
        func isHex(_ byte: UInt8) -> Bool { CharacterClass.hexDigit.contains(byte) }
        func reference(_ bytes: [UInt8]) -> Int {
            var i = 0
            while i < 16 {
                let byte = bytes[i]
                if byte == UInt8(ascii: "%") {
                    guard (0x30 ... 0x37).contains(bytes[i + 1]), isHex(bytes[i + 2]) else { return i }
                    i += 3
                } else if byte == UInt8(ascii: "+") || (plain.contains(byte) && !falsePositives.contains(byte)) {
                    i += 1
                } else {
                    return i
                }
            }
            return i
        }
        let extraStop = SIMD16<UInt8>(repeating: fragment ? 0x60 : 0x2B)
        var random = SplitMix64(propertyTest: "sixteenBytesOfLowEscapesAtOnceAcceptWhatTheScalarRunAccepts", defaultSeed: 0x10E5_CA9E)
        let pieces = [
            "%41", "%2B", "%7f", "%00", "%80", "%C3", "%FF", "%4g", "%G1", "%%", "%", "+", "a", "Z", "0", "~", "!", "#", "`",
            "&", "=", "<", "?", " ", "\u{7F}", "{",
        ]
        for _ in 0 ..< 20_000 {
            var bytes = [UInt8](
                ("%" + (Bool.random(using: &random) ? "2F" : "")
                    + (0 ..< 12).map { _ in
                        pieces.randomElement(using: &random)!
                    }.joined()).utf8)
            while bytes.count < 18 { bytes.append(UInt8(ascii: "a")) }
            let got = bytes.withUnsafeBytes { LowEscapes.accepted($0.baseAddress!, extraStop: extraStop) }
            #expect(got == reference(bytes), "\(String(decoding: bytes, as: UTF8.self)); \(random.replay)")
        }
    }

    /// `%XY` read from the table's top bits is the byte the arithmetic gives, for every pair
    /// of hex digits; no other byte carries a value there.
    @Test func escapesDecodedThroughTheTableEqualTheArithmetic() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for x in digits {
            for y in digits {
                #expect(hexPair(x, y, in: CharacterClass.lookup) == hexValue(x) << 4 | hexValue(y), "%\(x)\(y)")
            }
        }
        for byte in 0 ... 255 where !digits.contains(UInt8(byte)) {
            #expect(CharacterClass.lookup[byte] >> CharacterClass.hexValueShift == 0, "\(byte)")
        }
    }
}
