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

/// Percent-encoding (RFC 3986 §2.1) for building URLs whose every value our own parser
/// reads back exactly: the printer side of ``Parameters``' decoding.
///
/// Only the RFC 3986 *unreserved* characters (`A–Z a–z 0–9 - . _ ~`) are written raw;
/// every other byte of the UTF-8 encoding becomes `%XX` with uppercase hex (§2.1 "should
/// use uppercase"). A space is `%20`, never `+`.
///
/// Why not `+` for a space: in a query, `+` means a space only to a reader that applies
/// `application/x-www-form-urlencoded` rules, and means a literal `+` to every other
/// reader (RFC 3986 gives `+` no special meaning). `%20` is a space to both, and a
/// literal `+` written as `%2B` is a plus to both; the raw forms are the ones readers
/// disagree on. (The counter-example: Foundation's `URLQueryItem` leaves `+` raw, so a
/// server decoding the form way turns `a+b` into `a b`.) Encoding everything outside the
/// unreserved set costs a few bytes and removes every such disagreement: `&`, `=`, `#`,
/// `?`, `/`, `%` and `+` can never be read as structure.
///
/// ```swift
/// PercentEncoding.encode("openid profile")   // "openid%20profile"
/// PercentEncoding.encode("a+b&c=d#e")        // "a%2Bb%26c%3Dd%23e"
/// PercentEncoding.encode("é")                // "%C3%A9"
/// ```
public enum PercentEncoding {
    /// The ASCII characters an encoding leaves raw. Only ``unreserved`` exists today; a
    /// set that keeps, say, `/` for a path can be added without changing callers.
    public struct AllowedCharacters: Sendable, Hashable {
        /// Bit `n` of `low` is ASCII `n` (0–63), of `high` ASCII `n + 64` (64–127).
        let low: UInt64
        let high: UInt64

        init(ascii: some Sequence<UInt8>) {
            var low: UInt64 = 0
            var high: UInt64 = 0
            for byte in ascii where byte < 0x80 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
            self.low = low
            self.high = high
        }

        /// RFC 3986 §2.3 `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
        public static let unreserved = AllowedCharacters(
            ascii: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

        /// Whether `byte` is written raw.
        @inline(__always)
        public func contains(_ byte: UInt8) -> Bool {
            if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
            if byte < 128 { return high & (1 << UInt64(byte &- 64)) != 0 }
            return false
        }
    }

    /// Whether `byte` is an RFC 3986 unreserved character (`A–Z a–z 0–9 - . _ ~`), the
    /// alphabet of PKCE verifiers (RFC 7636 §4.1).
    @inline(__always)
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        AllowedCharacters.unreserved.contains(byte)
    }

    /// `string`'s UTF-8 bytes with every byte outside `allowing` written as `%XX`.
    public static func encode(_ string: String, allowing allowed: AllowedCharacters = .unreserved) -> String {
        let utf8 = string.utf8
        var escapes = 0
        for byte in utf8 where !allowed.contains(byte) { escapes += 1 }
        if escapes == 0 { return string }
        let hex: StaticString = "0123456789ABCDEF"
        return String(unsafeUninitializedCapacity: utf8.count + 2 * escapes) { out in
            hex.withUTF8Buffer { hex in
                var count = 0
                for byte in utf8 {
                    if allowed.contains(byte) {
                        out[count] = byte
                        count += 1
                    } else {
                        out[count] = UInt8(ascii: "%")
                        out[count + 1] = hex[Int(byte >> 4)]
                        out[count + 2] = hex[Int(byte & 0x0F)]
                        count += 3
                    }
                }
                return count
            }
        }
    }
}
