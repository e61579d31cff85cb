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

/// The example URIs of RFC 3986 §1.1.2 and §3, with the components the RFC's grammar gives.
@Suite struct RFC3986ExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let uri: String
        let scheme: String
        let host: String?
        let hostKind: Host.Kind?
        let port: Int?
        let path: String
        let query: String?
        let fragment: String?
        var testDescription: String { uri }
    }

    static let examples: [Example] = [
        // §1.1.2
        Example(
            uri: "ftp://ftp.is.co.za/rfc/rfc1808.txt", scheme: "ftp", host: "ftp.is.co.za", hostKind: .registeredName,
            port: nil, path: "/rfc/rfc1808.txt", query: nil, fragment: nil),
        Example(
            uri: "http://www.ietf.org/rfc/rfc2396.txt", scheme: "http", host: "www.ietf.org", hostKind: .registeredName,
            port: nil, path: "/rfc/rfc2396.txt", query: nil, fragment: nil),
        Example(
            uri: "ldap://[2001:db8::7]/c=GB?objectClass?one", scheme: "ldap", host: "[2001:db8::7]", hostKind: .ipv6,
            port: nil, path: "/c=GB", query: "objectClass?one", fragment: nil),
        Example(
            uri: "mailto:John.Doe@example.com", scheme: "mailto", host: nil, hostKind: nil,
            port: nil, path: "John.Doe@example.com", query: nil, fragment: nil),
        Example(
            uri: "news:comp.infosystems.www.servers.unix", scheme: "news", host: nil, hostKind: nil,
            port: nil, path: "comp.infosystems.www.servers.unix", query: nil, fragment: nil),
        Example(
            uri: "tel:+1-816-555-1212", scheme: "tel", host: nil, hostKind: nil,
            port: nil, path: "+1-816-555-1212", query: nil, fragment: nil),
        Example(
            uri: "telnet://192.0.2.16:80/", scheme: "telnet", host: "192.0.2.16", hostKind: .ipv4,
            port: 80, path: "/", query: nil, fragment: nil),
        Example(
            uri: "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", scheme: "urn", host: nil, hostKind: nil,
            port: nil, path: "oasis:names:specification:docbook:dtd:xml:4.1.2", query: nil, fragment: nil),
        // §3
        Example(
            uri: "foo://example.com:8042/over/there?name=ferret#nose", scheme: "foo", host: "example.com",
            hostKind: .registeredName, port: 8042, path: "/over/there", query: "name=ferret", fragment: "nose"),
        Example(
            uri: "urn:example:animal:ferret:nose", scheme: "urn", host: nil, hostKind: nil,
            port: nil, path: "example:animal:ferret:nose", query: nil, fragment: nil),
    ]

    @Test(arguments: examples)
    func parsesTheRFCExample(_ example: Example) throws {
        let url = try CallbackURL(parsing: example.uri)
        #expect(url.scheme == example.scheme)
        #expect(url.userinfo == nil)
        #expect(url.host?.text == example.host)
        #expect(url.host?.kind == example.hostKind)
        #expect(url.hasAuthority == (example.host != nil))
        #expect(url.port == example.port)
        #expect(url.path == example.path)
        #expect(url.query == example.query)
        #expect(url.fragment == example.fragment)
        #expect(url.serialized == example.uri, "every example is already in the printer's normal form")
    }

    @Test func theRFCExamplesAreAllHere() {
        #expect(Self.examples.count == 10)
    }

    @Test func ipv6ExampleHasItsAddressBytes() throws {
        let url = try CallbackURL(parsing: "ldap://[2001:db8::7]/c=GB?objectClass?one")
        #expect(url.host?.addressBytes == [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7])
        #expect(pairs(url.queryParameters) == [["objectClass?one", ""]])
    }
}
