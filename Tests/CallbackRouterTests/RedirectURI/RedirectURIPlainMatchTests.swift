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

import Testing
@testable import CallbackRouter

/// The one-reading match of a redirect URI without port or query whose host, if any, is a
/// registered name (`com.example.app:/oauth2redirect`, `myapp://oauth-callback`) against the
/// component-by-component rules it stands in for (scheme and host case-insensitively, port,
/// path byte for byte, no userinfo).
@Suite struct RedirectURIPlainMatchTests {
    static let registered = [
        "com.example.app:/oauth2redirect", "Com.Example.App:/oauth2redirect", "myapp:/cb", "a:", "a:/",
        "x-y.z+w:/p/q/%2F/r", "com.example.app:/a-path-longer-than-sixteen-bytes/and/more",
        "myapp://oauth-callback", "myapp://Oauth-Callback/x", "com.example.app://callback", "myapp://h",
        "myapp://", "https://app.example.com/cb", "https://app.example.com", "http://127.0.0.1/callback",
        "com.example.app://example.us.auth0.com/ios/com.example.app/callback",
    ]

    /// Every one-byte change of each registered URI (each position, a few replacement
    /// bytes), shortened and lengthened copies, and the same with an authority: the answer is
    /// the one the scheme, authority and path rules give, and `check` agrees with `matches`.
    @Test func everyOneByteChangeIsJudgedAsTheComponentRulesJudgeIt() throws {
        var compared = 0
        for text in Self.registered {
            let redirect = try RedirectURI(text)
            let registered = redirect.url
            var candidates = [text, text + "x", text + "/", String(text.dropLast()), text.uppercased(), text.lowercased()]
            candidates.append(text.replacingFirst(":", with: "://host"))
            candidates.append(text.replacingFirst("/", with: "/u@"))
            for port in [":", ":443", ":80", ":5000"] {
                candidates.append(registered.hasAuthority ? text.insertingAfterHost(port) : text)
            }
            let bytes = Array(text.utf8)
            for position in bytes.indices {
                for replacement in Array("aAzZ0:/.%-".utf8) where replacement != bytes[position] {
                    var changed = bytes
                    changed[position] = replacement
                    candidates.append(String(decoding: changed, as: UTF8.self))
                }
            }
            for candidate in candidates {
                guard let callback = try? CallbackURL(parsing: candidate + "?code=c&state=s") else { continue }
                let expected = callback.userinfo == nil && redirect.locationDifference(from: callback) == nil
                #expect(redirect.matches(callback) == expected, "\(text) against \(candidate)")
                #expect(((try? redirect.check(callback)) != nil) == expected, "\(text) against \(candidate)")
                compared += 1
            }
        }
        #expect(compared > 500)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }

    /// `scheme://host` + `text` + the rest.
    fileprivate func insertingAfterHost(_ text: String) -> String {
        let bytes = Array(utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes.count >= colon + 3 else { return self }
        let hostStart = colon + 3
        let end = bytes[hostStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self) + text + String(decoding: bytes[end...], as: UTF8.self)
    }
}
