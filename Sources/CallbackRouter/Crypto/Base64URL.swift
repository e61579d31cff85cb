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

/// The URL- and filename-safe base64 alphabet (RFC 4648 §5: `-` and `_` instead of `+` and
/// `/`), without `=` padding, as RFC 7636 Appendix A requires for PKCE and as states and
/// nonces are written. Every output character is RFC 3986 unreserved, so the values need
/// no percent-encoding in a URL.
///
/// ```swift
/// Base64URL.encode([0xFB, 0xFF])      // "-_8"
/// Base64URL.decode("-_8")             // [0xFB, 0xFF]
/// Base64URL.decode("-_8=")            // nil: padding is refused
/// ```
public enum Base64URL {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 256 entries: the 6-bit value of each alphabet byte, 0xFF for every other byte.
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// Whether `byte` is one of the 64 characters of the alphabet.
    static func isAlphabet(_ byte: UInt8) -> Bool { values[Int(byte)] != 0xFF }

    /// The encoding of `bytes`, unpadded: 4 characters per 3 bytes, 2 or 3 for a tail.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        encode(bytes, alphabet: alphabet, padded: false)
    }

    /// The one base64 encoder (RFC 4648 §4 and §5 differ only in the alphabet and the `=`
    /// padding): `Base64` (HTTP Basic credentials) uses it with the standard alphabet.
    package static func encode(_ bytes: some Collection<UInt8>, alphabet: [UInt8], padded: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 0x3F)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            if second != nil {
                out.append(alphabet[Int(group >> 6 & 0x3F)])
            } else if padded {
                out.append(UInt8(ascii: "="))
            }
            if third != nil {
                out.append(alphabet[Int(group & 0x3F)])
            } else if padded {
                out.append(UInt8(ascii: "="))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil unless it is the canonical unpadded encoding of
    /// some bytes: only the alphabet above (no `=`, `+`, `/`, whitespace), not a length
    /// of 1 mod 4, and the unused low bits of the last character zero (so each byte
    /// string has exactly one accepted text).
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        for byte in utf8 {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                out.append(UInt8(truncatingIfNeeded: group >> 16))
                out.append(UInt8(truncatingIfNeeded: group >> 8))
                out.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        switch count {
        case 2: // 12 bits: one byte and 4 unused bits
            guard group & 0xF == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3: // 18 bits: two bytes and 2 unused bits
            guard group & 0x3 == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: group >> 10))
            out.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return out
    }
}
