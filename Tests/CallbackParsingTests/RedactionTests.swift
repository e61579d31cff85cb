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

import CallbackParsing
import Testing

/// Values, userinfo and secret-looking names never appear in description, debugDescription,
/// dump or error messages; only the explicit accessors show them.
@Suite struct RedactionTests {
    static let secret = "S3cr3tV4lu3xyz"

    static func printed(_ value: some Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    @Test(arguments: [
        "myapp://cb?code=\(secret)&state=\(secret)",
        "myapp://cb?challenge_token=\(secret)#session_id=\(secret)",
        "myapp://cb?\(secret)\(secret)\(secret)", // a bare token-length name (42 bytes)
        "myapp://cb?\(secret)", // a bare name that looks like a name (14 bytes)
        "myapp://cb?code=x&\(secret)=", // a name with an empty value
        "myapp://cb?code=x#\(secret)", // a bare name in the fragment
        "myapp://cb?x=1&\(secret)%21=", // a name that does not look like one
        "myapp://cb?a=%53%33cr%33tV4lu%33xyz", // the secret, percent-encoded
        "myapp://user:\(secret)@cb/",
        "myapp://\(secret)@cb/",
        "myapp://cb?error=access_denied&error_description=\(secret)+is+wrong",
    ])
    func successfulParseNeverShowsASecret(_ text: String) throws {
        let url = try CallbackURL(parsing: text)
        for output in Self.printed(url) + Self.printed(url.queryParameters) + Self.printed(url.fragmentParameters)
            + url.queryParameters.flatMap(Self.printed)
        {
            #expect(!output.contains(Self.secret), "\(output)")
            #expect(!output.contains("V4lu"), "\(output)")
        }
        // …while the explicit accessors do.
        let all =
            (url.queryParameters.map { $0.name + "=" + $0.value } + url.fragmentParameters.map { $0.name + "=" + $0.value }).joined()
            + (url.userinfo ?? "")
        #expect(all.contains(Self.secret))
    }

    @Test func descriptionShowsStructureAndLengths() throws {
        let url = try CallbackURL(parsing: "com.example.app:/oauth2redirect?code=abc&state=%41%42#_=_")
        #expect(
            url.description
                == "CallbackURL(com.example.app:/oauth2redirect, query: [code: <redacted, 3 bytes>, state: <redacted, 2 bytes>], fragment: [_: <redacted, 1 bytes>])"
        )
        let withUser = try CallbackURL(parsing: "x://us:er@h:8/p")
        #expect(withUser.description == "CallbackURL(x://<redacted userinfo, 5 bytes>@h:8/p)")
    }

    @Test(arguments: [
        "myapp://cb?code=\(secret)%ZZ",
        "myapp://cb?code=\(secret)%C3",
        "myapp://cb?code=\(secret) ",
        "myapp://cb?code=\(secret)\"",
        "myapp://cb?code=\(secret)&state=\(secret)#\(secret)<",
        "myapp://user:\(secret)@a@b/",
        "myapp://user:\(secret)[@b/",
        "myapp://\(secret)%41/",
        "myapp://\(secret)^/",
        "myapp://h:\(secret)/",
        "myapp://[\(secret)]/",
        "\(secret)_:x",
        "\(secret)",
        "myapp://cb?code=" + String(repeating: secret, count: 700),
        "myapp://cb?" + String(repeating: "\(secret)&", count: 65),
    ])
    func refusalsNeverEchoTheInput(_ text: String) throws {
        let error = try #require(parse(text).error)
        for output in Self.printed(error) + [error.detail] {
            #expect(!output.contains("V4lu"), "\(output)")
        }
    }

    @Test func aNameWithoutAValueIsRedactedHoweverNameLike() throws {
        // A bare `?TOKEN` (or `?TOKEN=`) may put a secret in the name: such names are
        // redacted; a name with a value is shown when it looks like one.
        let bare = try CallbackURL(parsing: "myapp://cb?Short_Name-1.x")
        #expect(!bare.description.contains("Short_Name"))
        #expect(bare.description.contains("<redacted name, 14 bytes>"))
        let empty = try CallbackURL(parsing: "myapp://cb?Short_Name-1.x=")
        #expect(!empty.description.contains("Short_Name"))
        let named = try CallbackURL(parsing: "myapp://cb?Short_Name-1.x=v")
        #expect(named.description.contains("Short_Name-1.x: <redacted, 1 bytes>"))
        let long = try CallbackURL(parsing: "myapp://cb?" + String(repeating: "a", count: 33) + "=v")
        #expect(!long.description.contains(String(repeating: "a", count: 33)))
    }

    @Test func duplicateErrorNamesAPlainNameButNotASecretOne() throws {
        let plain = try CallbackURL(parsing: "x:?state=\(Self.secret)&state=2").queryParameters
        let error = try #require(throws: ParseError.self) { try plain.value(named: "state") }
        #expect(error.detail.contains("'state'"))
        #expect(!error.detail.contains("V4lu"))

        let secretName = "\(Self.secret)%21"
        let odd = try CallbackURL(parsing: "x:?\(secretName)&\(secretName)").queryParameters
        let oddError = try #require(throws: ParseError.self) { try odd.value(named: "\(Self.secret)!") }
        #expect(!oddError.detail.contains("V4lu"), "\(oddError.detail)")
    }
}
