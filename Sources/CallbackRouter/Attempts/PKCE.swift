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

/// A PKCE code verifier and its S256 code challenge (RFC 7636).
///
/// The verifier stays with the app and goes only to the token endpoint; the challenge
/// goes in the authorization request. An attacker who intercepts the callback's `code`
/// cannot redeem it without the verifier (RFC 7636 §1).
///
/// ```swift
/// let pkce = PKCE()                      // 32 random bytes → a 43-character verifier
/// pkce.challenge                         // BASE64URL(SHA256(ASCII(verifier)))
/// PKCE.method                            // "S256"
///
/// try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge
///                                        // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
/// ✅ 43–128 characters of A–Z a–z 0–9 - . _ ~
/// ❌ "short" (fewer than 43), "has space…" or "…=" (outside the alphabet): invalid_configuration
/// ```
///
/// `plain` is not offered: RFC 7636 §4.2 allows it only when S256 is impossible, which it
/// never is here. `description`, `debugDescription` and `dump` show the verifier's length,
/// never its value; read ``verifier`` explicitly to send it.
public struct PKCE: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The code verifier: 43–128 unreserved characters. A secret.
    public let verifier: String
    /// `BASE64URL-ENCODE(SHA256(ASCII(verifier)))`, 43 characters.
    public let challenge: String
    /// The `code_challenge_method`: always `S256`.
    public static let method = "S256"

    /// The shortest and longest verifier RFC 7636 §4.1 allows.
    public static let verifierLengths = 43 ... 128
    /// How many random bytes a fresh verifier carries (256 bits, as RFC 7636 §4.1
    /// recommends), giving 43 characters.
    public static let defaultVerifierByteCount = 32

    /// A fresh verifier from ``SecureRandom``: 32 bytes, base64url-encoded (43 characters).
    public init() {
        self.init(unchecked: Base64URL.encode(SecureRandom.bytes(PKCE.defaultVerifierByteCount)))
    }

    /// Takes an existing verifier (one restored from storage, or a test vector). Throws
    /// `invalid_configuration` unless it is 43–128 characters of `A–Z a–z 0–9 - . _ ~`
    /// (RFC 7636 §4.1). The error's detail gives the length, never the value.
    public init(verifier: String) throws(CallbackError) {
        let bytes = verifier.utf8
        guard PKCE.verifierLengths.contains(bytes.count) else {
            throw CallbackError(
                .invalidConfiguration,
                "a PKCE code verifier must be 43 to 128 characters long (RFC 7636 §4.1); this one has \(bytes.count) bytes")
        }
        if let bad = bytes.firstIndex(where: { !PercentEncoding.isUnreserved($0) }) {
            let position = bytes.distance(from: bytes.startIndex, to: bad)
            throw CallbackError(
                .invalidConfiguration,
                "a PKCE code verifier may contain only A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1); byte \(position) is outside that set")
        }
        self.init(unchecked: verifier)
    }

    init(unchecked verifier: String) {
        self.verifier = verifier
        self.challenge = PKCE.challenge(for: verifier)
    }

    /// The S256 challenge of any verifier: `BASE64URL(SHA256(UTF-8 bytes))`. For a valid
    /// verifier the UTF-8 bytes are its ASCII bytes, as RFC 7636 §4.2 specifies.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(verifier.utf8))
    }

    /// `PKCE(method: S256, verifier: <redacted, 43 bytes>, challenge: <redacted, 43 bytes>)`.
    ///
    /// The challenge is not secret (it travels in the authorization URL), but logs have
    /// no use for it and it identifies the login attempt, so it is redacted too.
    public var description: String {
        "PKCE(method: \(PKCE.method), verifier: <redacted, \(verifier.utf8.count) bytes>, challenge: <redacted, \(challenge.utf8.count) bytes>)"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the verifier.
    public var customMirror: Mirror { Mirror(self, children: ["pkce": description], displayStyle: .struct) }
}
