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

/// A pending attempt written down, so that a process that never began it can take its
/// callback: the app seals the attempt when it begins it, keeps the record in the
/// platform's secret store (Keychain, Secret Service), and after a relaunch hands it to
/// ``CallbackRouter/restore(_:key:)-(SealedAttempt,_)`` before it handles the callback.
///
/// The record is versioned text (docs/sealed-attempts.md has the grammar), one
/// `name value` line each, values base64url:
///
/// ```
/// callback-router-sealed-attempt 1
/// purpose login
/// route Z29vZ2xl
/// redirect-uri Y29tLmV4YW1wbGUuYXBwOi9vYXV0aDJyZWRpcmVjdA
/// dialect oauth2
/// issuer -
/// state …
/// code-verifier …
/// nonce …
/// expires 1767226200000000000
/// lifetime 600000000000
/// check …
/// ```
///
/// A Clerk magic-link attempt bound to its flow (``CallbackRouter/beginLogin(on:flowID:lifetime:)``)
/// has one more line, `flow-id` and the flow id in base64url, between `lifetime` and
/// `check`; a record without it restores an attempt without a flow id:
///
/// ```
/// lifetime 600000000000
/// flow-id c2lhXzJhYmM
/// check …
/// ```
///
/// `check` is the first 16 bytes of SHA-256 over every byte before it: a truncated or
/// edited record is refused, not misread. It is no protection against someone who can
/// write the store (they can recompute it): seal with a key (`sealed(key:)`, HMAC-SHA-256,
/// line `hmac-sha256`) when the store is not trusted for integrity.
///
/// The record holds the PKCE verifier, the state and the nonce: whoever reads it can
/// redeem an authorization code stolen for that login. `description`, `debugDescription`
/// and `dump` show its length only.
public struct SealedAttempt: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The record's text, to store as it is (it is ASCII, ends with a newline).
    public let text: String

    /// Wraps a stored record. Nothing is checked here: ``CallbackRouter/restore(_:key:)-(SealedAttempt,_)``
    /// parses and checks it.
    public init(_ text: String) { self.text = text }

    /// The record's format version this library writes and reads.
    public static let version = 1
    /// The longest record restore reads: far above any real one (about 500 bytes).
    public static let maximumLength = 8192
    /// The longest lifetime a record may carry: 30 days (a login lasts minutes; a record
    /// claiming more is not one this library wrote for a real login).
    public static let maximumLifetime = Duration.seconds(30 * 24 * 3600)

    /// The lifetime in nanoseconds when an attempt may have it: more than zero (at least one
    /// nanosecond) and at most ``maximumLifetime``, so that every attempt `begin` makes seals
    /// and restores. Anything else (zero, negative, `.seconds(Int64.max)` for "forever") is
    /// `invalid_configuration`, refused before an attempt exists.
    static func checkLifetime(_ lifetime: Duration, of what: String) throws(CallbackError) -> Int64 {
        let nanoseconds = lifetime.nanosecondsSaturated
        guard nanoseconds > 0, nanoseconds <= maximumLifetime.nanosecondsSaturated else {
            throw CallbackError(
                .invalidConfiguration,
                "\(what) must be more than zero and at most 30 days (SealedAttempt.maximumLifetime); it was \(lifetime)")
        }
        return nanoseconds
    }
    /// The fewest bytes a sealing key may have: 32 (HMAC-SHA-256's output size, RFC 2104 §3).
    public static let minimumKeyLength = 32

    static func checkKey(_ key: [UInt8]) throws(CallbackError) {
        guard key.count >= minimumKeyLength else {
            throw CallbackError(
                .invalidConfiguration,
                "a sealing key needs at least \(minimumKeyLength) bytes (it has \(key.count)); draw it from SecureRandom and keep it in the secret store"
            )
        }
    }

    /// `SealedAttempt(<redacted, N bytes>)`.
    public var description: String { "SealedAttempt(<redacted, \(text.utf8.count) bytes>)" }
    /// The same redacted text as `description`.
    public var debugDescription: String { description }
    /// `dump()` shows the redacted description only.
    public var customMirror: Mirror { Mirror(self, children: ["record": description], displayStyle: .struct) }

    static let magic = "callback-router-sealed-attempt"
    static let fieldNames = [
        "purpose", "route", "redirect-uri", "dialect", "issuer", "state", "code-verifier", "nonce", "expires", "lifetime",
    ]
    /// The optional line of a magic-link attempt's flow id (``LoginAttempt/flowID``).
    static let flowIDName = "flow-id"
    static let checkName = "check"
    static let hmacName = "hmac-sha256"
}

extension LoginAttempt {
    /// This attempt as a record for the platform's secret store (see ``SealedAttempt``).
    /// Seal it right after `begin`, before the browser opens; delete the stored record once
    /// the callback is handled or the attempt ends.
    public func sealed() -> SealedAttempt { SealedAttempt(Self.record(of: self, key: nil)) }

    /// The same record, authenticated with HMAC-SHA-256 under `key` (keep the key in the
    /// secret store too, or derive it from one): restoring it needs the same key, and a
    /// record edited by anyone without the key is refused. Throws `invalid_configuration`
    /// for a key shorter than 32 bytes.
    public func sealed(key: [UInt8]) throws(CallbackError) -> SealedAttempt {
        try SealedAttempt.checkKey(key)
        return SealedAttempt(Self.record(of: self, key: key))
    }

    static func record(of attempt: LoginAttempt, key: [UInt8]?) -> String {
        func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }
        let lifetime = attempt.expiresAt.nanoseconds &- attempt.createdAt.nanoseconds
        var text = SealedAttempt.magic + " \(SealedAttempt.version)\n"
        let values = [
            attempt.purpose.rawValue, b64(attempt.route.rawValue), b64(attempt.redirectURI.url.string),
            attempt.dialect.rawValue, attempt.expectedIssuer.map(b64) ?? "-", b64(attempt.state),
            b64(attempt.pkce.verifier), b64(attempt.nonce), String(attempt.expiresAtWallClock), String(lifetime),
        ]
        for (name, value) in zip(SealedAttempt.fieldNames, values) { text += name + " " + value + "\n" }
        // Optional, after the fixed lines: a record without a flow id is byte for byte what
        // the library wrote before flow ids existed.
        if let flowID = attempt.flowID { text += SealedAttempt.flowIDName + " " + b64(flowID) + "\n" }
        if let key {
            text += SealedAttempt.hmacName + " " + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(text.utf8), key: key)) + "\n"
        } else {
            text += SealedAttempt.checkName + " " + Base64URL.encode(SHA256.hash(text.utf8).prefix(16)) + "\n"
        }
        return text
    }
}
