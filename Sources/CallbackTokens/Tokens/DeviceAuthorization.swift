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

/// The device and user codes of a device authorization response (RFC 8628 §3.2). Made only
/// by reading a response (``DeviceAuthorizationResponse``).
///
/// Read strictly:
/// - `device_code` and `user_code` are required (`missing_parameter`) non-empty strings of
///   visible ASCII (RFC 6749 VSCHAR, `invalid_parameter`); a user code longer than
///   ``maxUserCodeBytes`` is `too_long` (a person types it);
/// - `verification_uri` is required, an absolute `https` URL with a host, no userinfo (a
///   `https://provider@attacker` cannot pass for the provider's page) and no fragment
///   (`invalid_parameter`; `scheme_not_allowed` for another scheme, `http` to a loopback IP
///   literal only when allowed). Google's `verification_url` is read when
///   `verification_uri` is absent; `verification_uri_complete` is checked the same way;
/// - `expires_in` is a required positive JSON integer, `interval` an optional non-negative
///   one (5 when absent, RFC 8628 §3.2).
///
/// `description`, `debugDescription` and `dump` show the verification URI, the lifetime and
/// the interval; the device code never, the user code only by its length (it is shown to
/// the person who types it, through ``userCode``, not to logs).
public struct DeviceAuthorization: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The code the client polls with (RFC 8628 §3.4): a secret.
    public let deviceCode: String
    /// The code the user enters on the verification page.
    public let userCode: String
    /// Where the user enters the user code.
    public let verificationURI: String
    /// The verification page with the user code in it, when the provider gives one (for a
    /// QR code or a link that needs no typing).
    public let verificationURIComplete: String?
    /// How long the codes live, in seconds.
    public let expiresIn: Int64
    /// The least number of seconds between two polls, as the provider said (5 by default).
    public let interval: Int64
    /// The names of the members this package does not read, in document order.
    public let otherMemberNames: [String]

    /// The longest user code accepted: 64 bytes (RFC 8628 §6.1's examples are 8 characters).
    public static let maxUserCodeBytes = 64

    /// The polling interval when the provider names none (RFC 8628 §3.2).
    public static let defaultInterval: Int64 = 5

    /// The wait before the first poll: ``interval`` seconds, at least one (an interval of
    /// 0 would poll without pause).
    public var pollingInterval: Duration { .seconds(Swift.max(interval, 1)) }

    init(_ object: JSONObject, allowingLoopbackHTTP: Bool) throws(CallbackError) {
        func code(_ name: String) throws(CallbackError) -> String {
            guard let value = object[name] else {
                throw CallbackError(.missingParameter, "the device authorization response has no \(name)")
            }
            guard let text = value.string, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                throw CallbackError(
                    .invalidParameter, "the device authorization response's \(name) is not a non-empty string of visible ASCII")
            }
            return text
        }
        func page(_ name: String) throws(CallbackError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.string, let url = try? CallbackURL(parsing: text), let host = url.host, !host.text.isEmpty,
                url.userinfo == nil, url.fragment == nil
            else {
                throw CallbackError(
                    .invalidParameter,
                    "the device authorization response's \(name) is not an absolute URL with a host, no userinfo and no fragment")
            }
            guard url.scheme == "https" || (url.scheme == "http" && allowingLoopbackHTTP && host.isLoopbackAddress) else {
                throw CallbackError(
                    .schemeNotAllowed,
                    "the device authorization response's \(name) is not https\(allowingLoopbackHTTP ? " (or http to a loopback IP literal)" : "")"
                )
            }
            return text
        }
        func integer(_ name: String) throws(CallbackError) -> Int64? {
            guard let value = object[name] else { return nil }
            guard let number = value.number?.int64, number >= 0 else {
                throw CallbackError(.invalidParameter, "the device authorization response's \(name) is not a non-negative integer")
            }
            return number
        }
        self.deviceCode = try code("device_code")
        self.userCode = try code("user_code")
        guard userCode.utf8.count <= DeviceAuthorization.maxUserCodeBytes else {
            throw CallbackError(
                .tooLong, "the user code is \(userCode.utf8.count) bytes long; at most \(DeviceAuthorization.maxUserCodeBytes) are accepted"
            )
        }
        let readsGoogleName = object["verification_uri"] == nil && object["verification_url"] != nil
        guard let verification = try page(readsGoogleName ? "verification_url" : "verification_uri") else {
            throw CallbackError(.missingParameter, "the device authorization response has no verification_uri")
        }
        self.verificationURI = verification
        self.verificationURIComplete = try page("verification_uri_complete")
        guard let expiresIn = try integer("expires_in") else {
            throw CallbackError(.missingParameter, "the device authorization response has no expires_in")
        }
        guard expiresIn > 0 else {
            throw CallbackError(.invalidParameter, "the device authorization response's expires_in is 0: the codes are already expired")
        }
        self.expiresIn = expiresIn
        self.interval = try integer("interval") ?? DeviceAuthorization.defaultInterval
        let known: Set<String> = [
            "device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval",
            readsGoogleName ? "verification_url" : "verification_uri",
        ]
        self.otherMemberNames = object.names.filter { !known.contains($0) }
    }

    /// The verification URI, the lifetime, the interval and the user code's length.
    public var description: String {
        "DeviceAuthorization(verification_uri: \(verificationURI), user_code: <redacted, \(userCode.utf8.count) bytes>, "
            + "device_code: <redacted>, expires_in: \(expiresIn), interval: \(interval))"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never a code.
    public var customMirror: Mirror { Mirror(self, children: ["authorization": description], displayStyle: .struct) }
}
