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

extension CallbackClassifier {
    /// Known response parameters by number: `KnownField.classic`'s index, then the tokens of
    /// the implicit grant. (``KnownField/added`` fields have no number: see ``read``.)
    enum FieldID {
        static let code = 0, state = 1, iss = 2, challengeToken = 3, action = 4, status = 5, sessionID = 6
        static let trackingID = 7, stateKey = 8, identifier = 9, message = 10, rotatingTokenNonce = 11
        static let createdSessionID = 12, error = 13, errorDescription = 14, errorURI = 15
        static let accessToken = 16, idToken = 17
        static let unknown = 31

        /// The wire names, in ID order (the same order as `KnownField.classic`).
        static let names: [String] = KnownField.classic + KnownField.implicitGrantTokens

        @inline(__always)
        static func bit(_ id: Int) -> UInt32 { 1 << UInt32(id) }

        /// The ID of a field name given as a string; ``unknown`` for any other name.
        static func of(_ name: String) -> Int {
            // Comparisons with literals, by length first: no copy of the name to read its bytes.
            switch name.utf8.count {
            case 3: return name == "iss" ? iss : unknown
            case 4: return name == "code" ? code : unknown
            case 5: return name == "state" ? state : name == "error" ? error : unknown
            default:
                var name = name
                return name.withUTF8 { of($0) }
            }
        }

        /// The ID of a decoded name; ``unknown`` for any other name.
        @inline(__always)
        static func of(_ name: UnsafeBufferPointer<UInt8>) -> Int {
            // `name.count` is `expected`'s length (the switch below): compared as words, the
            // first four or eight bytes and the last (overlapping), not byte by byte.
            @inline(__always)
            func matches(_ expected: StaticString) -> Bool {
                let a = UnsafeRawPointer(name.baseAddress.unsafelyUnwrapped), b = UnsafeRawPointer(expected.utf8Start)
                let count = name.count
                if count >= 8 {
                    var i = 0
                    while i &+ 8 < count {
                        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                            return false
                        }
                        i &+= 8
                    }
                    return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                }
                if count >= 4 {
                    return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                        && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                            == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                }
                for i in 0 ..< count where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) {
                    return false
                }
                return true
            }
            switch name.count {
            case 3: return matches("iss") ? iss : unknown
            case 4: return matches("code") ? code : unknown
            case 5: return matches("state") ? state : matches("error") ? error : unknown
            case 6: return matches("status") ? status : matches("action") ? action : unknown
            case 7: return matches("message") ? message : unknown
            case 8: return matches("id_token") ? idToken : unknown
            case 9: return matches("state_key") ? stateKey : matches("error_uri") ? errorURI : unknown
            case 10: return matches("session_id") ? sessionID : matches("identifier") ? identifier : unknown
            case 11: return matches("tracking_id") ? trackingID : unknown
            case 12: return matches("access_token") ? accessToken : unknown
            case 15: return matches("challenge_token") ? challengeToken : unknown
            case 17: return matches("error_description") ? errorDescription : unknown
            case 18: return matches("created_session_id") ? createdSessionID : unknown
            case 20: return matches("rotating_token_nonce") ? rotatingTokenNonce : unknown
            default: return unknown
            }
        }

        /// ``accepts(_:_:)`` for a value as the URL writes it, without `%XX` or `+`: the parser
        /// lets only %x21-7E into a query, all VSCHAR and printable, so only emptiness and the
        /// error fields' excluded `"` and `\` remain to check.
        @inline(__always)
        static func acceptsAsWritten(_ id: Int, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
            switch id {
            case error, errorDescription, errorURI: return accepts(id, value)
            case message, identifier: return true
            default: return !value.isEmpty
            }
        }

        /// Whether `value` is well formed for field `id` by the rules of ``ParameterSyntax``,
        /// judged on ASCII only: a non-ASCII human text is left to the full path.
        @inline(__always)
        static func accepts(_ id: Int, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
            switch id {
            case state:
                return !value.isEmpty
            case error:
                guard !value.isEmpty else { return false }
                for byte in value where !ParameterSyntax.isNQSChar(byte) { return false }
                return true
            case errorDescription:
                for byte in value where !ParameterSyntax.isNQSChar(byte) { return false }
                return true
            case errorURI:
                guard !value.isEmpty else { return false }
                for byte in value where byte == 0x20 || !ParameterSyntax.isNQSChar(byte) { return false }
                return true
            case message, identifier:
                // Printable ASCII is readable text; anything else goes to the full path.
                for byte in value where byte < 0x20 || byte > 0x7E { return false }
                return true
            default:
                guard !value.isEmpty else { return false }
                for byte in value where byte < 0x20 || byte > 0x7E { return false }
                return true
            }
        }
    }
}
