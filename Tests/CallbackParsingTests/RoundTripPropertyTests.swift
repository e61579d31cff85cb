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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackParsing
import Testing
import TestVectorSupport

/// parse → serialized → parse gives identical components and parameters, over thousands
/// of URLs from a grammar-biased generator (mostly valid shapes, some mutated bytes).
///
/// The seed is random per run and printed; set CALLBACK_ROUTER_TEST_SEED=N to replay one.
@Suite struct RoundTripPropertyTests {
    struct Generator {
        var random: SplitMix64

        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0 ..< 100, using: &random) < percent }
        mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
        mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

        mutating func string(from alphabet: String, _ length: ClosedRange<Int>, escapes: Bool = false) -> String {
            let characters = Array(alphabet)
            var out = ""
            for _ in 0 ..< count(length) {
                if escapes && chance(10) {
                    out += pick(["%41", "%20", "%2B", "%26", "%3D", "%25", "%C3%A9", "%F0%9F%98%80", "%0D%0A", "%00", "%e2%9c%93", "+"])
                } else {
                    out.append(pick(characters))
                }
            }
            return out
        }

        static let alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        static let unreserved = alnum + "-._~"
        static let subDelims = "!$&'()*+,;="

        mutating func host() -> String {
            switch count(0 ... 9) {
            case 0: return ""
            case 1: return "\(count(0 ... 255)).\(count(0 ... 255)).\(count(0 ... 255)).\(count(0 ... 255))"
            case 2: return pick(["[::1]", "[::]", "[2001:DB8::7]", "[::ffff:1.2.3.4]", "[1:2:3:4:5:6:7:8]", "[fe80::a:B:c]", "[1::]"])
            case 3: return pick(["localhost", "LocalHost", "127.0.0.1", "oauth-callback", "callback", "xn--bcher-kva.example"])
            case 4: return pick(["0x7f.1", "127.1", "[v1.x]", "[::1%25lo]", "h%41", "1.2.3.04", "a.b.9"]) // refused
            default:
                return (0 ..< count(1 ... 3)).map { _ in string(from: Self.unreserved + Self.subDelims, 1 ... 8) }
                    .joined(separator: ".")
            }
        }

        mutating func parameters() -> String {
            (0 ..< count(0 ... 8)).map { _ -> String in
                let name =
                    pick(["code", "state", "iss", "error", "error_description", "_", "", "st%61te", "a+b"])
                    + (chance(20) ? string(from: Self.alnum, 1 ... 3) : "")
                if chance(15) { return name }
                return name + "="
                    + string(from: Self.unreserved + Self.subDelims.replacingAmpersand + ":/?@[]{}|^\\`'", 0 ... 24, escapes: true)
            }.joined(separator: chance(10) ? "&&" : "&")
        }

        mutating func url() -> String {
            var out = pick(["myapp", "com.example.app", "http", "HTTPS", "x", "Auth0.Test-2", "a+b.c-d"]) + ":"
            let shape = count(0 ... 3)
            if shape <= 1 {
                out += "//"
                if chance(10) { out += string(from: Self.unreserved + Self.subDelims + ":", 0 ... 6, escapes: true) + "@" }
                out += host()
                if chance(30) { out += ":" + (chance(10) ? "" : pick(["0", "80", "0080", "49152", "65535", "65536"])) }
                if chance(80) { out += "/" + string(from: Self.unreserved + Self.subDelims + ":@/[]|", 0 ... 20, escapes: true) }
            } else if shape == 2 {
                out += "/" + string(from: Self.unreserved + Self.subDelims + ":@/[]|", 0 ... 20, escapes: true)
            } else {
                out += string(from: Self.unreserved + Self.subDelims + ":@", 0 ... 20, escapes: true)
            }
            if chance(80) { out += "?" + parameters() }
            if chance(30) { out += "#" + (chance(50) ? parameters() : pick(["_=_", "", "a#b", "x?y", "{}"])) }
            return out
        }

        /// Flips, inserts or deletes a few bytes to reach the refusal paths too.
        mutating func mutate(_ text: String) -> [UInt8] {
            var bytes = Array(text.utf8)
            for _ in 0 ..< count(1 ... 3) {
                let noise: UInt8 = pick([
                    0x00, 0x09, 0x20, 0x22, 0x23, 0x25, 0x2F, 0x3A, 0x3F, 0x40, 0x5B, 0x5D, 0x7F, 0xC3, 0xFF,
                    UInt8(count(0x21 ... 0x7E)),
                ])
                let at = count(0 ... bytes.count)
                switch count(0 ... 2) {
                case 0: bytes.insert(noise, at: at)
                case 1 where at < bytes.count: bytes[at] = noise
                default: if at < bytes.count { bytes.remove(at: at) }
                }
            }
            return bytes
        }
    }

    @Test func serializedURLsParseToIdenticalComponents() throws {
        let random = SplitMix64(propertyTest: "serializedURLsParseToIdenticalComponents", defaultSeed: nil)
        let seed = random.replay
        print("RoundTripPropertyTests: \(seed)")
        var generator = Generator(random: random)
        var accepted = 0, refused = 0
        for index in 0 ..< 6000 {
            let bytes = index % 4 == 3 ? generator.mutate(generator.url()) : Array(generator.url().utf8)
            var holds = true
            switch parse(bytes: bytes) {
            case .failure(let error):
                refused += 1
                holds = error.offset.map { $0 >= 0 && $0 < bytes.count } ?? (error.reason == .emptyInput)
                #expect(holds, "\(seed), case \(index): \(error)")
            case .success(let url):
                accepted += 1
                let printed = url.serialized
                let again = try #require(parse(printed).value, "\(seed), case \(index): \(printed) does not reparse")
                holds = Components(again) == Components(url) && again == url && again.serialized == printed
                #expect(Components(again) == Components(url), "\(seed), case \(index)")
                #expect(again.serialized == printed, "\(seed), case \(index): printing is not a fixed point")
            }
            if !holds { break } // one reported counterexample, not thousands
        }
        // Both sides of the property got exercised: the generator is not all-valid or all-broken.
        #expect(accepted > 3000, "accepted \(accepted)")
        #expect(refused > 500, "refused \(refused)")
    }

    @Test func printerNormalizesOnlyCaseAndPort() throws {
        let url = try CallbackURL(parsing: "MyApp://User@Example.COM:0080/P%41th?Q=%41#F")
        #expect(url.serialized == "myapp://User@example.com:80/P%41th?Q=%41#F")
        #expect(try CallbackURL(parsing: "x://h:/p").serialized == "x://h/p")
        #expect(try CallbackURL(parsing: "x://[::FFFF:1.2.3.4]/").serialized == "x://[::FFFF:1.2.3.4]/")
    }
}

extension String {
    fileprivate var replacingAmpersand: String { String(filter { $0 != "&" && $0 != "=" }) }
}
