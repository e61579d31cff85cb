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
import CallbackTestSupport
import Testing

/// What each accepted shape parses to, component by component. `nil` means absent, which
/// is different from empty (`x:/p` has no host; `x:///p` has the empty host).
@Suite struct ComponentTests {
    struct Shape: CustomTestStringConvertible, Sendable {
        let url: String
        let scheme: String
        var userinfo: String? = nil
        var host: String? = nil
        var hostKind: Host.Kind? = nil
        var port: Int? = nil
        var path = ""
        var query: String? = nil
        var fragment: String? = nil
        var testDescription: String { url }
    }

    static let shapes: [Shape] = [
        // The three hier-part shapes callbacks use.
        Shape(
            url: "myapp://oauth-callback?challenge_token=\(preludeToken("t"))", scheme: "myapp", host: "oauth-callback",
            hostKind: .registeredName, query: "challenge_token=\(preludeToken("t"))"),
        Shape(url: "com.example.app:/oauth2redirect?code=c", scheme: "com.example.app", path: "/oauth2redirect", query: "code=c"),
        Shape(url: "myapp:callback?code=c", scheme: "myapp", path: "callback", query: "code=c"),
        // Absent versus empty.
        Shape(url: "x:", scheme: "x"),
        Shape(url: "x:/p", scheme: "x", path: "/p"),
        Shape(url: "x:///p", scheme: "x", host: "", hostKind: .registeredName, path: "/p"),
        Shape(url: "x://", scheme: "x", host: "", hostKind: .registeredName),
        Shape(url: "x://h?", scheme: "x", host: "h", hostKind: .registeredName, query: ""),
        Shape(url: "x://h#", scheme: "x", host: "h", hostKind: .registeredName, fragment: ""),
        Shape(url: "x://h?#", scheme: "x", host: "h", hostKind: .registeredName, query: "", fragment: ""),
        Shape(url: "x:?", scheme: "x", query: ""),
        Shape(url: "x:#", scheme: "x", fragment: ""),
        // Case: scheme and registered names are lowercased, everything else kept.
        Shape(
            url: "HTTP://Example.COM/Path?Q=V#F", scheme: "http", host: "example.com", hostKind: .registeredName,
            path: "/Path", query: "Q=V", fragment: "F"),
        Shape(url: "Auth0.Test-2+x://H/", scheme: "auth0.test-2+x", host: "h", hostKind: .registeredName, path: "/"),
        // Ports: empty means none; leading zeros read as decimal.
        Shape(url: "x://h:/", scheme: "x", host: "h", hostKind: .registeredName, path: "/"),
        Shape(url: "x://h:0/", scheme: "x", host: "h", hostKind: .registeredName, port: 0, path: "/"),
        Shape(url: "x://h:65535", scheme: "x", host: "h", hostKind: .registeredName, port: 65535),
        Shape(url: "x://h:0080/", scheme: "x", host: "h", hostKind: .registeredName, port: 80, path: "/"),
        Shape(url: "x://:8080/", scheme: "x", host: "", hostKind: .registeredName, port: 8080, path: "/"),
        // Userinfo is exposed (as written) so that policy can refuse it.
        Shape(url: "x://user:p%40ss@h/", scheme: "x", userinfo: "user:p%40ss", host: "h", hostKind: .registeredName, path: "/"),
        Shape(url: "x://@h", scheme: "x", userinfo: "", host: "h", hostKind: .registeredName),
        // IP addresses.
        Shape(url: "http://127.0.0.1:49152/callback", scheme: "http", host: "127.0.0.1", hostKind: .ipv4, port: 49152, path: "/callback"),
        Shape(url: "x://0.0.0.0", scheme: "x", host: "0.0.0.0", hostKind: .ipv4),
        Shape(url: "x://255.255.255.255", scheme: "x", host: "255.255.255.255", hostKind: .ipv4),
        Shape(url: "http://[::1]:8080/", scheme: "http", host: "[::1]", hostKind: .ipv6, port: 8080, path: "/"),
        Shape(url: "x://[::]", scheme: "x", host: "[::]", hostKind: .ipv6),
        Shape(url: "x://[::ffff:1.2.3.4]/", scheme: "x", host: "[::ffff:1.2.3.4]", hostKind: .ipv6, path: "/"),
        Shape(url: "x://[2001:DB8::1]", scheme: "x", host: "[2001:DB8::1]", hostKind: .ipv6),
        Shape(url: "x://[1:2:3:4:5:6:7:8]", scheme: "x", host: "[1:2:3:4:5:6:7:8]", hostKind: .ipv6),
        Shape(url: "x://[1:2:3:4:5:6:7::]", scheme: "x", host: "[1:2:3:4:5:6:7::]", hostKind: .ipv6),
        Shape(url: "x://[::2:3:4:5:6:7:8]", scheme: "x", host: "[::2:3:4:5:6:7:8]", hostKind: .ipv6),
        Shape(url: "x://[1:2:3:4:5:6:1.2.3.4]", scheme: "x", host: "[1:2:3:4:5:6:1.2.3.4]", hostKind: .ipv6),
        // A host whose last label is not a number stays a registered name.
        Shape(url: "x://1.2.3.4.example", scheme: "x", host: "1.2.3.4.example", hostKind: .registeredName),
        Shape(url: "x://0xg", scheme: "x", host: "0xg", hostKind: .registeredName),
        Shape(url: "x://a..b", scheme: "x", host: "a..b", hostKind: .registeredName),
        // Paths: pchar, '/', and what browsers leave raw ('[', ']', '|').
        Shape(url: "x:/a:b@c;d=e,f!$&'()*+~-._", scheme: "x", path: "/a:b@c;d=e,f!$&'()*+~-._"),
        Shape(url: "x:/a[b]|c/%20", scheme: "x", path: "/a[b]|c/%20"),
        Shape(url: "x:a:b", scheme: "x", path: "a:b"),
        Shape(url: "x:////p", scheme: "x", host: "", hostKind: .registeredName, path: "//p"),
        // Queries and fragments: raw characters browsers leave alone.
        Shape(
            url: "x://h?a=[]{}|^\\`'?/:@!$()*+,;", scheme: "x", host: "h", hostKind: .registeredName,
            query: "a=[]{}|^\\`'?/:@!$()*+,;"),
        Shape(url: "x://h#a#b?c{}|^\\[]", scheme: "x", host: "h", hostKind: .registeredName, fragment: "a#b?c{}|^\\[]"),
        Shape(url: "x://h?q#f?g", scheme: "x", host: "h", hostKind: .registeredName, query: "q", fragment: "f?g"),
    ]

    @Test(arguments: shapes)
    func parsesTheShape(_ shape: Shape) throws {
        let url = try CallbackURL(parsing: shape.url)
        #expect(url.scheme == shape.scheme)
        #expect(url.userinfo == shape.userinfo)
        #expect(url.host?.text == shape.host)
        #expect(url.host?.kind == shape.hostKind)
        #expect(url.hasAuthority == (shape.host != nil))
        #expect(url.port == shape.port)
        #expect(url.path == shape.path)
        #expect(url.query == shape.query)
        #expect(url.fragment == shape.fragment)
    }

    @Test(arguments: [
        ("x://127.0.0.1", [127, 0, 0, 1] as [UInt8]),
        ("x://10.200.3.40", [10, 200, 3, 40]),
        ("x://[::1]", [UInt8](repeating: 0, count: 15) + [1]),
        ("x://[::ffff:1.2.3.4]", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]),
        ("x://[1:2:3:4:5:6:7::]", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0]),
        ("x://[fEdC::bA98]", [0xfe, 0xdc] + [UInt8](repeating: 0, count: 12) + [0xba, 0x98]),
    ])
    func ipAddressesHaveTheirBytes(_ url: String, _ bytes: [UInt8]) throws {
        #expect(try CallbackURL(parsing: url).host?.addressBytes == bytes)
    }

    @Test(arguments: [
        ("x://127.0.0.1", true), ("x://127.255.0.9", true), ("x://[::1]", true), ("x://[0:0:0:0:0:0:0:1]", true),
        ("x://128.0.0.1", false), ("x://localhost", false), ("x://[::2]", false), ("x://[::ffff:127.0.0.1]", false),
    ])
    func loopbackIsAnIPLiteralProperty(_ url: String, _ loopback: Bool) throws {
        #expect(try CallbackURL(parsing: url).host?.isLoopbackAddress == loopback)
    }

    @Test func hostsCompareByWhatTheyName() throws {
        #expect(try Host(parsing: "[::1]") == Host(parsing: "[0:0:0:0:0:0:0:1]"))
        #expect(try Host(parsing: "Example.COM") == Host(parsing: "example.com"))
        #expect(try Host(parsing: "127.0.0.1") != Host(parsing: "[::ffff:127.0.0.1]"))
        #expect(try Set([Host(parsing: "[::1]"), Host(parsing: "[0::1]")]).count == 1)
    }

    @Test func bytesAndStringsParseAlike() throws {
        let text = "com.example.app:/oauth2redirect?code=abc&state=xyz#frag"
        let fromString = try CallbackURL(parsing: text)
        let fromArray = try CallbackURL(parsing: Array(text.utf8))
        let fromSlice = try CallbackURL(parsing: Array(("??" + text).utf8)[2...])
        let fromLazy = try CallbackURL(parsing: text.utf8.lazy.map { $0 }) // not contiguous
        for url in [fromArray, fromSlice, fromLazy] {
            #expect(Components(url) == Components(fromString))
        }
    }

    @Test func parametersAreDecodedInOrder() throws {
        let url = try CallbackURL(parsing: "x:?b=2&a=1&c&=v&%61+b=%F0%9F%98%80+x%2B#_=_")
        #expect(pairs(url.queryParameters) == [["b", "2"], ["a", "1"], ["c", ""], ["", "v"], ["a b", "😀 x+"]])
        #expect(pairs(url.fragmentParameters) == [["_", "_"]])
        #expect(url.queryParameters.names == ["b", "a", "c", "", "a b"])
    }

    @Test func decodedControlsReachTheDialectLayer() throws {
        // Azure AD puts CR LF in error_description; whether to show it is the dialect's call.
        let url = try CallbackURL(parsing: "myapp://cb?error=server_error&error_description=AADSTS1%0D%0ATrace+ID:+x%00")
        #expect(try url.queryParameters.value(named: "error_description") == "AADSTS1\r\nTrace ID: x\u{0}")
    }

    @Test func decodedPathKeepsPlusAndRefusesBadUTF8() throws {
        #expect(try CallbackURL(parsing: "x:/a+b%20c/%C3%A9").decodedPath() == "/a+b c/é")
        #expect(try CallbackURL(parsing: "x:#a+b%20c").decodedFragment() == "a+b c")
        #expect(try CallbackURL(parsing: "x:/p").decodedFragment() == nil)
        let url = try CallbackURL(parsing: "x:/ok/%FF")
        #expect(throws: ParseError(.invalidUTF8, at: 6, "the decoded path is not valid UTF-8")) { try url.decodedPath() }
    }
}
