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

/// The syntax each known response parameter must follow, and what happens when it doesn't.
///
/// Token-like values are machine data: a value that breaks its syntax refuses the whole
/// callback (`invalid_parameter`). Human text is only informative: a value that breaks its
/// syntax is withheld (never passed through), and the outcome stands with the field flagged.
enum ParameterSyntax: Sendable {
    /// RFC 6749 Appendix A `1*VSCHAR` (%x20-7E): `code`, tokens, ids, `iss`.
    case token
    /// The client's own opaque value echoed back (`state`): any non-empty value. It is
    /// already valid UTF-8 (the parser refuses bad percent-encoding and bad UTF-8), and it
    /// is judged by equality with what the client sent, never by its characters: a real
    /// server echoes a non-ASCII state (`état-✓-東京`) exactly as it was sent.
    case opaque
    /// RFC 6749 Appendix A.7 `error`: `1*NQSCHAR` (%x20-21 / %x23-5B / %x5D-7E).
    case errorCode
    /// RFC 6749 Appendix A.8 `error_description`: `NQSCHAR` text; withheld when it breaks it
    /// (Azure AD's CR LF, quotes, non-ASCII).
    case errorDescription
    /// RFC 6749 Appendix A.9 `error_uri`: %x21 / %x23-5B / %x5D-7E (no space); withheld
    /// when it breaks it.
    case errorURI
    /// Free human text of a provider that defines no syntax (Zephr `message`, `identifier`):
    /// any Unicode but controls (C0, DEL, C1), bidirectional formatting and line separators,
    /// which forge or reorder what a person reads. Withheld when it holds one.
    case humanText
    /// A JWS in its compact serialization (RFC 7515 §7.1): three base64url segments (no
    /// padding), none empty, joined by `.`: Prelude's `challenge_token`, which both Prelude
    /// SDKs decode before finalizing (`invalidChallengeToken` otherwise). The shape only: the
    /// signature is Prelude's backend's to check.
    case compactJWS
    /// A UUID in its canonical text form, lowercase (RFC 9562 §4: 8-4-4-4-12 hex digits), as
    /// Kratos writes a flow's id (`flow`).
    case uuid

    /// Whether a bad value is withheld (outcome stands) rather than refused.
    var isWithheldWhenInvalid: Bool {
        switch self {
        case .token, .opaque, .errorCode, .compactJWS, .uuid: return false
        case .errorDescription, .errorURI, .humanText: return true
        }
    }

    /// Whether the value is well formed. Token-like values must not be empty.
    func accepts(_ value: String) -> Bool {
        if case .humanText = self { return value.unicodeScalars.allSatisfy(ParameterSyntax.isReadableScalar) }
        // The byte classes run over the contiguous UTF-8 (a String's byte iterator is slow).
        var value = value
        return value.withUTF8 { bytes in
            switch self {
            case .token:
                return !bytes.isEmpty && bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
            case .opaque:
                return !bytes.isEmpty
            case .errorCode:
                return !bytes.isEmpty && bytes.allSatisfy(ParameterSyntax.isNQSChar)
            case .errorDescription:
                return bytes.allSatisfy(ParameterSyntax.isNQSChar)
            case .errorURI:
                return !bytes.isEmpty && bytes.allSatisfy { $0 != 0x20 && ParameterSyntax.isNQSChar($0) }
            case .compactJWS:
                return ParameterSyntax.isCompactJWS(bytes)
            case .uuid:
                return ParameterSyntax.isLowercaseUUID(bytes)
            case .humanText:
                return false // handled above
            }
        }
    }

    /// Three non-empty base64url segments (`A-Z a-z 0-9 - _`, no padding) joined by two `.`;
    /// no segment one character past a multiple of four (no base64 text has that length).
    /// One table lookup a byte (a range switch a byte cost ~15 instructions: 1,700 for a token).
    static func isCompactJWS(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        jwsByteClass.withUnsafeBufferPointer { table in
            var dots = 0
            var start = 0
            for index in 0 ..< bytes.count {
                let byteClass = table[Int(bytes[index])]
                if byteClass == 1 { continue }
                let length = index &- start
                guard byteClass == 2, length != 0, length & 3 != 1, dots < 2 else { return false }
                dots &+= 1
                start = index &+ 1
            }
            let length = bytes.count &- start
            return dots == 2 && length != 0 && length & 3 != 1
        }
    }

    /// Every byte's class for ``isCompactJWS(_:)``: 1 base64url, 2 `.`, 0 anything else.
    private static let jwsByteClass: [UInt8] = (0 ... 255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
            UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return 1
        case UInt8(ascii: "."): return 2
        default: return 0
        }
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase hex digits.
    static func isLowercaseUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                switch byte {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "a") ... UInt8(ascii: "f"): continue
                default: return false
                }
            }
        }
        return true
    }

    /// %x20-21 / %x23-5B / %x5D-7E: printable ASCII but `"` and `\`.
    static func isNQSChar(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != 0x22 && byte != 0x5C
    }

    static func isReadableScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: return false // C0, DEL, C1 controls
        case 0x061C, 0x200E, 0x200F: return false // bidi marks
        case 0x202A ... 0x202E, 0x2066 ... 0x2069: return false // bidi embeddings, overrides, isolates
        case 0x2028, 0x2029: return false // line and paragraph separators
        case 0xFEFF: return false // byte order mark / zero-width no-break space
        default: return true
        }
    }
}
