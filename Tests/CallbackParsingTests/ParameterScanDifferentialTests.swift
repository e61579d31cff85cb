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

/// The query's and the fragment's scan (plain runs sixteen and sixty-four bytes a test,
/// escape runs out of line, escaped UTF-8 checked from its lead) and the decoder against a
/// byte-by-byte model written here: the same refusal (reason and offset) or the same decoded
/// parameters, over seeded random mixes of plain runs of any length, the vector filter's
/// false positives, `%XX` valid, malformed, high and in UTF-8 sequences valid or not, `& = +
/// #`, and refused bytes, so that every kind of byte lands at every offset of a 16-, 32- and
/// 64-byte block and near the end.
@Suite struct ParameterScanDifferentialTests {
    enum Outcome: Equatable {
        case refused(ReasonCode, Int)
        case parsed(query: [[UInt8]], fragment: [[UInt8]])
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (0x30 ... 0x39).contains(byte) || (0x41 ... 0x46).contains(byte) || (0x61 ... 0x66).contains(byte)
    }

    static func hex(_ byte: UInt8) -> UInt8 {
        byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10
    }

    /// Form decoding, a byte at a time.
    static func decoded(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = raw.startIndex
        while i < raw.endIndex {
            if raw[i] == UInt8(ascii: "%") {
                out.append(hex(raw[i + 1]) << 4 | hex(raw[i + 2]))
                i += 3
            } else {
                out.append(raw[i] == UInt8(ascii: "+") ? 0x20 : raw[i])
                i += 1
            }
        }
        return out
    }

    /// Where the first invalid UTF-8 sequence of `raw`'s decoded bytes starts, as an offset
    /// into `raw` (of the escape that begins it); nil when they are UTF-8. Unicode's Table
    /// 3-7 by rows: a sequence is refused at its lead when the lead is not one, or when a
    /// continuation is missing or out of its row's range.
    static func firstInvalidUTF8(_ raw: ArraySlice<UInt8>) -> Int? {
        var starts: [Int] = [] // the raw offset of each decoded byte
        var i = raw.startIndex
        while i < raw.endIndex {
            starts.append(i)
            i += raw[i] == UInt8(ascii: "%") ? 3 : 1
        }
        let bytes = decoded(raw)
        var k = 0
        while k < bytes.count {
            let lead = bytes[k]
            let rows: [(ClosedRange<UInt8>, Int, ClosedRange<UInt8>)] = [
                (0x00 ... 0x7F, 0, 0x80 ... 0xBF), (0xC2 ... 0xDF, 1, 0x80 ... 0xBF), (0xE0 ... 0xE0, 2, 0xA0 ... 0xBF),
                (0xE1 ... 0xEC, 2, 0x80 ... 0xBF), (0xED ... 0xED, 2, 0x80 ... 0x9F), (0xEE ... 0xEF, 2, 0x80 ... 0xBF),
                (0xF0 ... 0xF0, 3, 0x90 ... 0xBF), (0xF1 ... 0xF3, 3, 0x80 ... 0xBF), (0xF4 ... 0xF4, 3, 0x80 ... 0x8F),
            ]
            guard let row = rows.first(where: { $0.0.contains(lead) }) else { return starts[k] }
            for j in 0 ..< row.1 {
                guard k + 1 + j < bytes.count, (j == 0 ? row.2 : 0x80 ... 0xBF).contains(bytes[k + 1 + j]) else {
                    return starts[k]
                }
            }
            k += 1 + row.1
        }
        return nil
    }

    /// The model: the query from after `?` to `#` or the end, the fragment after `#` to the
    /// end; each byte in order: `%` must start `%XX`, `&` ends a pair, `=` (the first)
    /// splits it, `#` ends the query, any other byte must be in the component's set. At a
    /// pair's end: the parameter count, the name's and the value's length, then UTF-8.
    static func model(_ url: [UInt8], queryStart: Int, limits: ParsingLimits) -> Outcome {
        var lists: [[[UInt8]]] = [[], []]
        var total = 0
        var start = queryStart
        for (component, allowed) in [(0, CharacterClass.query), (1, CharacterClass.fragment)] {
            if component == 1 {
                guard start < url.count, url[start] == UInt8(ascii: "#") else { break }
                start += 1
            }
            var i = start
            var pairStart = start
            var equals: Int? = nil
            func endPair() -> Outcome? {
                defer {
                    pairStart = i + 1
                    equals = nil
                }
                guard i > pairStart else { return nil }
                let nameEnd = equals ?? i
                let valueStart = equals.map { $0 + 1 } ?? i
                if total >= limits.maxParameters { return .refused(.tooManyParameters, pairStart) }
                if nameEnd - pairStart > limits.maxValueLength { return .refused(.tooLong, pairStart) }
                if i - valueStart > limits.maxValueLength { return .refused(.tooLong, valueStart) }
                for part in [pairStart ..< nameEnd, valueStart ..< i] {
                    if let bad = firstInvalidUTF8(url[part]) { return .refused(.invalidUTF8, bad) }
                }
                lists[component].append(decoded(url[pairStart ..< nameEnd]))
                lists[component].append(decoded(url[valueStart ..< i]))
                total += 1
                return nil
            }
            while i < url.count {
                let byte = url[i]
                if byte == UInt8(ascii: "#") && component == 0 { break }
                if byte == UInt8(ascii: "%") {
                    guard i + 2 < url.count, isHex(url[i + 1]), isHex(url[i + 2]) else {
                        return .refused(.invalidPercentEncoding, i)
                    }
                    i += 3
                    continue
                }
                if byte == UInt8(ascii: "&") {
                    if let refusal = endPair() { return refusal }
                } else if byte == UInt8(ascii: "=") {
                    if equals == nil { equals = i }
                } else if !allowed.contains(byte) {
                    return .refused(.invalidCharacter, i)
                }
                i += 1
            }
            if let refusal = endPair() { return refusal }
            start = i
        }
        return .parsed(query: lists[0], fragment: lists[1])
    }

    static func parsed(_ text: [UInt8], limits: ParsingLimits) -> Outcome {
        do {
            let url = try CallbackURL(parsing: String(decoding: text, as: UTF8.self), limits: limits)
            var query: [[UInt8]] = [], fragment: [[UInt8]] = []
            url.forEachQueryParameterUTF8 { name, value in query += [Array(name), Array(value)] }
            url.fragmentParameters.forEachDecodedUTF8 { name, value in fragment += [Array(name), Array(value)] }
            return .parsed(query: query, fragment: fragment)
        } catch {
            return .refused(error.reason, error.offset ?? -1)
        }
    }

    /// Pieces of a query or a fragment: plain runs of every length (the vector loops), the
    /// filter's false positives, escapes of every kind, structure, and refused bytes.
    static let plainBytes = Array("abcXYZ0189-._~:@/?!$'()*,;[]{}|^\\".utf8)
    static let escapes = [
        "%41", "%2B", "%2f", "%7E", "%00", "%20", "%25", "%C3%A9", "%E2%82%AC", "%F0%9F%98%80", "%E6%9D%B1",
        "%C2%80", "%DF%BF", "%E0%A0%80", "%ED%9F%BF", "%EE%80%80", "%F4%8F%BF%BF",
    ]
    static let brokenUTF8 = ["%C3", "%80", "%C0%80", "%E0%80%80", "%ED%A0%80", "%F4%90%80%80", "%FF", "%E2%82", "%F0%9F%98"]
    static let malformed = ["%", "%4", "%G1", "%zz", "%4g"]
    static let refused = [" ", "\"", "<", ">", "`", "\u{7F}", "\u{01}", "\t"]

    static func body(_ random: inout SplitMix64) -> String {
        var text = ""
        let pieces = Int.random(in: 0 ... 24, using: &random)
        for _ in 0 ..< pieces {
            switch Int.random(in: 0 ..< 100, using: &random) {
            case 0 ..< 30:
                // Plain runs up to 150 bytes: across 16-, 32- and 64-byte blocks.
                let length = Int.random(in: 0 ... (Bool.random(using: &random) ? 150 : 12), using: &random)
                text += String(decoding: (0 ..< length).map { _ in plainBytes.randomElement(using: &random)! }, as: UTF8.self)
            case 30 ..< 55: text += escapes.randomElement(using: &random)!
            case 55 ..< 62: text += ["a", "b"].randomElement(using: &random)! + escapes.randomElement(using: &random)!
            case 62 ..< 70: text += "&"
            case 70 ..< 77: text += "="
            case 77 ..< 84: text += "+"
            case 84 ..< 87: text += "#"
            case 87 ..< 92: text += brokenUTF8.randomElement(using: &random)!
            case 92 ..< 95: text += malformed.randomElement(using: &random)!
            default: text += refused.randomElement(using: &random)!
            }
        }
        return text
    }

    @Test func theScanAndTheDecoderDecideAsTheByteByByteModel() {
        var random = SplitMix64(propertyTest: "theScanAndTheDecoderDecideAsTheByteByByteModel", defaultSeed: 0x5CA1_AB1E)
        var refusals: [ReasonCode: Int] = [:]
        var accepted = 0
        for round in 0 ..< 30_000 {
            let text = Array(("x:/p?" + Self.body(&random)).utf8)
            // Mostly the default limits; now and then small ones, so that a limit and a later
            // refusal in the same pair meet.
            let limits =
                round % 8 == 0
                ? ParsingLimits(
                    maxParameters: Int.random(in: 0 ... 6, using: &random), maxValueLength: Int.random(in: 0 ... 40, using: &random))
                : ParsingLimits()
            let expected = Self.model(text, queryStart: 5, limits: limits)
            let got = Self.parsed(text, limits: limits)
            #expect(got == expected, "\(String(decoding: text, as: UTF8.self)); \(random.replay)")
            switch expected {
            case .refused(let reason, _): refusals[reason, default: 0] += 1
            case .parsed: accepted += 1
            }
        }
        // Every outcome is exercised, not just one.
        #expect(accepted > 2_000, "accepted \(accepted)")
        for reason in [ReasonCode.invalidCharacter, .invalidPercentEncoding, .invalidUTF8, .tooManyParameters, .tooLong] {
            #expect(refusals[reason, default: 0] > 200, "\(reason): \(refusals[reason, default: 0])")
        }
    }
}
