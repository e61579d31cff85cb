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

/// The secrets one login attempt owns: the `state` that ties the callback to the attempt,
/// the PKCE verifier/challenge that ties the code to this app, and the OIDC `nonce` that
/// ties the ID token to this attempt.
///
/// ```swift
/// let secrets = AttemptSecrets()        // state, verifier and nonce, each 32 random bytes
/// secrets.state                         // 43 base64url characters (256 bits)
/// secrets.pkce.challenge                // for the authorization request
/// secrets.nonce                         // 43 base64url characters
/// ```
///
/// Sizes: 32 bytes (256 bits) each. RFC 6749 §10.10 requires a guessing probability of at
/// most 2^-128 for generated credentials (and recommends 2^-160); this project asks ≥128 bits
/// of state. Base64url without padding, so every value is
/// RFC 3986 unreserved and VSCHAR. Drawn from ``SecureRandom`` (the system CSPRNG).
///
/// `description`, `debugDescription` and `dump` show lengths only.
public struct AttemptSecrets: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The `state` sent in the authorization request and expected back in the callback.
    public let state: String
    /// The PKCE pair: the challenge goes in the request, the verifier to the token endpoint.
    public let pkce: PKCE
    /// The OIDC `nonce`, echoed inside the ID token.
    public let nonce: String

    /// The fewest random bytes a generated token may carry: 128 bits.
    public static let minimumTokenByteCount = 16
    /// How many random bytes the state and the nonce carry by default: 256 bits.
    public static let defaultTokenByteCount = 32

    /// Fresh random state, PKCE verifier and nonce.
    public init() {
        self.state = AttemptSecrets.randomToken()
        self.pkce = PKCE()
        self.nonce = AttemptSecrets.randomToken()
    }

    /// Secrets restored from storage. Throws `invalid_configuration` when `state` or
    /// `nonce` is empty or longer than 512 bytes, or when the nonce is not RFC 6749 VSCHAR
    /// (%x20-7E). The state is the client's opaque value (RFC 6749 §4.1.1): any characters
    /// travel, percent-encoded as UTF-8, and come back byte for byte. (Whether they are
    /// random enough cannot be checked; generate them with ``init()`` unless a provider or
    /// an app's own protocol dictates otherwise.)
    public init(state: String, pkce: PKCE, nonce: String) throws(CallbackError) {
        try AttemptSecrets.checkState(state)
        try AttemptSecrets.checkToken(nonce, name: "nonce")
        self.state = state
        self.pkce = pkce
        self.nonce = nonce
    }

    /// `bytes` random bytes from ``SecureRandom``, base64url-encoded without padding
    /// (32 bytes → 43 characters).
    ///
    /// `bytes` is clamped, never trapped on: fewer than ``minimumTokenByteCount`` (16
    /// bytes, 128 bits; zero and negative counts included) gives 16, since a token is
    /// never made weaker than that; more than 4096 gives 4096 (a 5,462-character token,
    /// ten times the 512 bytes a state or nonce may have), so no count allocates without
    /// bound.
    public static func randomToken(bytes: Int = defaultTokenByteCount) -> String {
        Base64URL.encode(SecureRandom.bytes(min(max(bytes, minimumTokenByteCount), 4096)))
    }

    /// Refuses an empty or over-long state; never one for its characters. The detail
    /// gives the length, never the content.
    static func checkState(_ value: String) throws(CallbackError) {
        try checkLength(value, name: "state")
    }

    /// Refuses an empty, over-long or non-VSCHAR token (the nonce); the detail names the
    /// value and its length, never its content.
    static func checkToken(_ value: String, name: String) throws(CallbackError) {
        try checkLength(value, name: name)
        guard value.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            throw CallbackError(
                .invalidConfiguration,
                "the \(name) contains a byte outside VSCHAR (%x20-7E, RFC 6749 Appendix A)")
        }
    }

    private static func checkLength(_ value: String, name: String) throws(CallbackError) {
        let bytes = value.utf8
        guard !bytes.isEmpty else {
            throw CallbackError(.invalidConfiguration, "the \(name) is empty")
        }
        guard bytes.count <= 512 else {
            throw CallbackError(.invalidConfiguration, "the \(name) is \(bytes.count) bytes long; at most 512 are accepted")
        }
    }

    /// Names the secrets and their lengths, never their values.
    public var description: String {
        "AttemptSecrets(state: <redacted, \(state.utf8.count) bytes>, pkce: \(pkce), nonce: <redacted, \(nonce.utf8.count) bytes>)"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the stored secrets.
    public var customMirror: Mirror { Mirror(self, children: ["secrets": description], displayStyle: .struct) }
}
