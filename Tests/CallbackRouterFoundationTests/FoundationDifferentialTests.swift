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

import Foundation
import Testing
import CallbackRouterFoundation

/// Every class of disagreement fuzz-foundation-differential found between our parser and
/// Foundation's `URLComponents(string:)` where both accept an input, one test each: our
/// side pinned firmly (it is the contract), Foundation's side as observed with the Swift 6.3
/// toolchain on Linux (so a change in Foundation shows up here, not as a fuzzer crash).
/// docs/fuzzing.md says which side is right and by which RFC clause.
@Suite struct FoundationDifferentialTests {
    struct Disagreement: CustomTestStringConvertible, Sendable {
        let input: String
        /// Our decoded query pairs.
        let ours: [[String]]
        /// Foundation's `queryItems` (name, value or nil).
        let theirs: [[String?]]
        var testDescription: String { input }
    }

    /// Class `form-urlencoding`: RFC 6749 §4.1.2 and Appendix B read the callback's query as
    /// application/x-www-form-urlencoded (`+` is a space; an empty pair is skipped; a bare
    /// name has the empty value). Foundation reads RFC 3986 query items (`+` is a plus, an
    /// empty pair is an item named "", a bare name has no value). We are right for OAuth.
    static let formURLEncoding: [Disagreement] = [
        Disagreement(input: "myapp://h/p?a=b+c", ours: [["a", "b c"]], theirs: [["a", "b+c"]]),
        Disagreement(
            input: "myapp://h/p?error_description=Access+denied", ours: [["error_description", "Access denied"]],
            theirs: [["error_description", "Access+denied"]]),
        Disagreement(input: "myapp://h/p?a&&b=c", ours: [["a", ""], ["b", "c"]], theirs: [["a", nil], ["", nil], ["b", "c"]]),
        Disagreement(input: "myapp://h/p?code", ours: [["code", ""]], theirs: [["code", nil]]),
    ]

    @Test(arguments: formURLEncoding)
    func formURLEncodingOfTheQuery(_ disagreement: Disagreement) throws {
        let ours = try CallbackURL(parsing: disagreement.input)
        #expect(ours.queryParameters.map { [$0.name, $0.value] } == disagreement.ours)
        let theirs = try #require(URLComponents(string: disagreement.input))
        #expect(theirs.queryItems?.map { [$0.name, $0.value] } == disagreement.theirs)
        // Encoded '+' (%2B) is a plus for both.
        let plus = try CallbackURL(parsing: "myapp://h/p?a=%2B")
        #expect(plus.queryParameters.first?.value == "+")
        #expect(URLComponents(string: "myapp://h/p?a=%2B")?.queryItems?.first?.value == "+")
    }

    /// Class `foundation-escapes-raw-delimiters`: characters RFC 3986 §3.3–3.5 do not allow
    /// raw in a path, query or fragment (`[ ] | { } ^ \ `` ` and a second `#`), which browsers
    /// leave raw (WHATWG's percent-encode sets) and we keep as written, Foundation
    /// percent-encodes, together with `:` in a first path segment once it is repairing.
    /// Both decode alike: only the written form differs. Matching a redirect URI compares
    /// the written form (RFC 9700 §2.1), which is why we never hand it to Foundation.
    @Test(arguments: [
        ("myapp://h/p?q=[1]", "q=[1]", "q=%5B1%5D"),
        ("myapp://h/p?q=a|b{c}^d`e", "q=a|b{c}^d`e", "q=a%7Cb%7Bc%7D%5Ed%60e"),
    ])
    func foundationEscapesRawDelimitersInTheQuery(_ input: String, _ ours: String, _ theirs: String) throws {
        let url = try CallbackURL(parsing: input)
        #expect(url.query == ours)
        let components = try #require(URLComponents(string: input))
        #expect(components.percentEncodedQuery == theirs)
        #expect(components.queryItems?.map(\.value) == url.queryParameters.map(\.value))
    }

    @Test func foundationEscapesASecondHashInTheFragment() throws {
        let url = try CallbackURL(parsing: "myapp://h/p#a#b")
        #expect(url.fragment == "a#b")
        #expect(URLComponents(string: "myapp://h/p#a#b")?.percentEncodedFragment == "a%23b")
    }

    @Test func foundationEscapesColonsOnceItRepairsAFirstPathSegment() throws {
        let input = "ht:0080[fe80::1]/x"
        let url = try CallbackURL(parsing: input)
        #expect(url.host == nil && url.path == "0080[fe80::1]/x")
        #expect(URLComponents(string: input)?.percentEncodedPath == "0080%5Bfe80%3A%3A1%5D/x")
    }

    /// Class `foundation-double-encoding`: once Foundation repairs a component, it escapes
    /// the `%` of escapes already there, so `a=%41` decodes to `%41` instead of `A`.
    /// RFC 3986 §2.4: "implementations must not percent-encode or decode the same string
    /// more than once". We decode what the sender wrote; Foundation is wrong here. This is
    /// the concrete case for design principle 3: never re-parse our input with Foundation.
    @Test func foundationDoubleEncodesEscapesOnceItRepairsAComponent() throws {
        let input = "myapp://h/p?a=%41&b=["
        let url = try CallbackURL(parsing: input)
        #expect(url.queryParameters.map(\.value) == ["A", "["])
        let components = try #require(URLComponents(string: input))
        #expect(components.percentEncodedQuery == "a=%2541&b=%5B")
        #expect(components.queryItems?.map(\.value) == ["%41", "["])
        // A callback whose code carries an escape and whose state a raw '[' would hand a
        // Foundation reader a different code than the one the provider issued.
        let callback = "com.example.app:/cb?code=abc%2Fdef&state=x[1]"
        #expect(try CallbackURL(parsing: callback).queryParameters.first?.value == "abc/def")
        #expect(URLComponents(string: callback)?.queryItems?.first?.value == "abc%2Fdef")
    }

    /// Class `case-normalisation`: we lowercase the scheme (RFC 3986 §3.1) and a reg-name
    /// host (§3.2.2: case-insensitive) when printing them; Foundation keeps them as written.
    /// Equal once lowercased; the fuzzer compares them so.
    @Test func schemeAndHostCase() throws {
        let input = "HTTP://EXAMPLE.com/"
        let url = try CallbackURL(parsing: input)
        #expect(url.scheme == "http" && url.host?.text == "example.com")
        let components = try #require(URLComponents(string: input))
        #expect(components.scheme == "HTTP" && components.percentEncodedHost == "EXAMPLE.com")
    }

    /// Class `foundation-host-limit` (found by the fuzzer): Foundation keeps no host longer
    /// than 2,048 bytes and reads the rest of the URL as usual; we keep the host (RFC 3986
    /// sets no length; the whole URL is bounded by `ParsingLimits.maxLength`). `URL(_:)`
    /// then refuses to build a Foundation URL, since the two would read different hosts.
    @Test func foundationDropsAHostLongerThan2048Bytes() throws {
        for (length, foundationKeepsIt) in [(2048, true), (2049, false)] {
            let host = String(repeating: "g", count: length)
            let input = "x://\(host):8080/p?q=1"
            let url = try CallbackURL(parsing: input)
            #expect(url.host?.text == host)
            let components = try #require(URLComponents(string: input))
            #expect((components.percentEncodedHost == host) == foundationKeepsIt)
            if !foundationKeepsIt { #expect((components.percentEncodedHost ?? "").isEmpty) }
            #expect(components.port == 8080 && components.percentEncodedPath == "/p" && components.percentEncodedQuery == "q=1")
            #expect((URL(url) != nil) == foundationKeepsIt)
        }
    }

    /// Class `foundation-idna` (found by the fuzzer, from WPT's `https://xn--/`): Foundation
    /// decodes a host's punycode labels to percent-encoded UTF-8 and keeps no host when a
    /// label is not valid punycode; we keep the A-labels as written (RFC 3986 §3.2.2 asks
    /// producers for the IDNA form; redirect URIs are compared as written). `URL(_:)` gives
    /// no Foundation URL for such a callback rather than one whose host reads otherwise.
    @Test(arguments: ["https://xn--ls8h.la/cb?code=c", "https://xn--/cb", "myapp://XN--abc/cb"])
    func foundationDecodesPunycodeHosts(_ input: String) throws {
        let url = try CallbackURL(parsing: input)
        let written = String(input.split(separator: "/")[1])
        #expect(url.host?.text == written.lowercased())
        let components = try #require(URLComponents(string: input))
        #if os(Linux)
        // swift-foundation, as measured here: decoded, or dropped when not punycode.
        #expect(
            components.percentEncodedHost
                == (input.hasPrefix("https://xn--ls8h") ? "%F0%9F%92%A9.la" : nil))
        #endif
        let foundationReadsItAsWritten = components.percentEncodedHost?.lowercased() == written.lowercased()
        #expect((URL(url) != nil) == foundationReadsItAsWritten)
        #expect(components.percentEncodedPath == url.path)
    }

    /// Class `foundation-drops-leading-bom` (found by the fuzzer, from the WPT inputs): the
    /// query items Foundation decodes lose one U+FEFF (`%EF%BB%BF`) at the start of a name
    /// or value; we keep every decoded byte, as WHATWG's form-urlencoded parser does ("UTF-8
    /// decode without BOM": no BOM is sniffed or stripped). A state that starts with U+FEFF
    /// is compared with what the client sent, not with a shortened one.
    @Test func foundationDropsALeadingByteOrderMarkWhenDecoding() throws {
        let input = "x://h?%EF%BB%BF=1&a=%EF%BB%BF%EF%BB%BFb&c=b%EF%BB%BF"
        let url = try CallbackURL(parsing: input)
        #expect(url.queryParameters.map(\.name) == ["\u{FEFF}", "a", "c"])
        #expect(url.queryParameters.map(\.value) == ["1", "\u{FEFF}\u{FEFF}b", "b\u{FEFF}"])
        let items = try #require(URLComponents(string: input)?.queryItems)
        #if os(Linux)
        // swift-foundation, as measured here: one leading U+FEFF dropped, a later one kept.
        #expect(items.map(\.name) == ["", "a", "c"])
        #expect(items.map(\.value) == ["1", "\u{FEFF}b", "b\u{FEFF}"])
        #endif
        #expect(items.map(\.name).last == "c" && items.last?.value == "b\u{FEFF}")
    }

    /// Where the readings agree (an empty authority, an empty query, IP literals), they
    /// stay agreed: the fuzzer's normalisations must not hide a difference here.
    @Test(arguments: ["x:///p", "x:/p", "x://h?", "http://[::1]:80/cb", "myapp://h/p?=x&y="])
    func agreesOnTheRest(_ input: String) throws {
        let url = try CallbackURL(parsing: input)
        let components = try #require(URLComponents(string: input))
        #expect(url.host?.text == components.percentEncodedHost)
        #expect(url.port == components.port)
        #expect(url.path == components.percentEncodedPath)
        #expect(url.query == components.percentEncodedQuery)
        #expect(url.queryParameters.map(\.value) == (components.queryItems ?? []).map { $0.value ?? "" })
    }
}
