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

/// The redirect URI shapes providers' SDKs document, built and validated in one call.
extension RedirectURI {
    /// Clerk's default, `{bundle_id}://callback` ("By default, the Clerk iOS SDK expects a
    /// redirect URL of `{your_bundle_id}://callback`"), under the custom-scheme-only policy.
    ///
    /// ```swift
    /// try RedirectURI.clerk(bundleID: "com.example.app")   // com.example.app://callback
    /// ```
    public static func clerk(bundleID: String) throws(CallbackError) -> RedirectURI {
        try checkBundleID(bundleID)
        return try RedirectURI(bundleID + "://callback", policy: .customSchemeOnly)
    }

    /// Auth0.swift's callback, `{bundle}://{domain}/ios/{bundle}/callback`, or with
    /// `https: true` its universal-link form `https://{domain}/ios/{bundle}/callback`.
    ///
    /// ```swift
    /// try RedirectURI.auth0(bundleID: "com.example.app", domain: "example.us.auth0.com")
    /// // com.example.app://example.us.auth0.com/ios/com.example.app/callback
    /// ```
    public static func auth0(bundleID: String, domain: String, https: Bool = false) throws(CallbackError) -> RedirectURI {
        try checkBundleID(bundleID)
        try checkDomain(domain)
        let path = "/ios/" + bundleID + "/callback"
        return try RedirectURI((https ? "https" : bundleID) + "://" + domain + path, policy: .native)
    }

    /// An iOS bundle identifier is alphanumerics, `-` and `.` (Apple's
    /// CFBundleIdentifier); as a URL scheme it must also start with a letter.
    private static func checkBundleID(_ bundleID: String) throws(CallbackError) {
        let bytes = Array(bundleID.utf8)
        let isAlpha: (UInt8) -> Bool = { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
        let isValid =
            bytes.first.map(isAlpha) == true
            && bytes.allSatisfy {
                isAlpha($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        if !isValid {
            throw CallbackError(
                .invalidConfiguration, at: nil,
                RuleViolation(
                    rule: .invalidBundleID,
                    explanation: "a bundle identifier used as a scheme starts with a letter and has only letters, digits, '-' and '.'"
                ).detail)
        }
    }

    private static func checkDomain(_ domain: String) throws(CallbackError) {
        let host = try? Host(parsing: domain)
        if host?.kind != .registeredName || domain.isEmpty {
            throw CallbackError(
                .invalidConfiguration, at: nil,
                RuleViolation(
                    rule: .invalidDomain,
                    explanation: "the domain must be a host name such as example.us.auth0.com, without scheme, port or path"
                ).detail)
        }
    }
}
