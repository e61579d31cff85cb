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

// fuzz-foundation-differential: our parser against Foundation's `URLComponents(string:)`.
// The only fuzzer that imports Foundation (it is the comparison side, never the product).
//
// Where both accept an input, scheme, host, port, path and the decoded query must agree,
// up to the classes of disagreement docs/fuzzing.md explains (which side is right, by
// which RFC clause), each normalised below under its name and kept as a test in
// Tests/CallbackRouterFoundationTests/FoundationDifferentialTests.swift. Any other
// disagreement traps with both readings, so a new class cannot slip in unexplained.
// Where only one side accepts, nothing is checked here: we refuse much that Foundation
// takes (raw spaces, non-ASCII, `0x7f.1`…) on purpose; docs/parsing.md lists it.
import CallbackParsing
import Foundation
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFoundationDifferential(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let text = String(validating: bytes, as: UTF8.self),
        let ours = try? CallbackURL(parsing: bytes),
        let theirs = URLComponents(string: text)
    else { return 0 }
    compare(ours, theirs, text)
    return 0
}

/// Our host for comparison: lowercased, IP-literal brackets removed.
func normalizedHost(_ host: String?) -> String? {
    guard var host = host?.lowercased() else { return nil }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return host
}

/// Class `foundation-drops-leading-bom`: Foundation's decoding (`queryItems`,
/// `removingPercentEncoding`) drops one U+FEFF at the start of a decoded name or value
/// (`%EF%BB%BFb` → `b`); we keep every decoded byte (WHATWG's "UTF-8 decode without BOM").
func withoutLeadingBOM(_ text: String) -> String {
    text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
}

/// Whether a reg-name has a label in IDNA's ACE form (`xn--`, any case): class `foundation-idna`.
func isPunycodeHost(_ host: String) -> Bool {
    host.lowercased().split(separator: ".", omittingEmptySubsequences: false).contains { $0.hasPrefix("xn--") }
}

/// Class `form-urlencoding`: Foundation's query items decoded the way RFC 6749 Appendix B reads a query
/// (application/x-www-form-urlencoded: `+` is a space), a missing value as "", and
/// the empty pairs of `a&&b` dropped.
func formDecoded(_ items: [URLQueryItem]) -> [[String]]? {
    var out: [[String]] = []
    for item in items {
        if item.name.isEmpty && item.value == nil { continue }
        guard let name = item.name.replacingOccurrences(of: "+", with: "%20").removingPercentEncoding,
            let value = (item.value ?? "").replacingOccurrences(of: "+", with: "%20").removingPercentEncoding
        else { return nil }
        out.append([name, value])
    }
    return out
}

/// Bytes RFC 3986 does not allow raw in a path, query or fragment that browsers leave raw
/// and we accept as written (docs/parsing.md): Foundation's `URLComponents(string:)`
/// "repairs" a component holding one.
let repairTriggers = Set("[]|{}^\\`\"<>#".utf8)

/// `%XX` decoded to bytes (the input already passed our parser: escapes are well formed).
func percentDecoded(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
            let value = UInt8(String(decoding: bytes[i + 1 ... i + 2], as: UTF8.self), radix: 16)
        {
            out.append(value)
            i += 3
        } else {
            out.append(bytes[i])
            i += 1
        }
    }
    return out
}

/// Why our component and Foundation's differ, when the difference is one of the explained
/// classes (docs/fuzzing.md); nil when they agree; "unexplained" otherwise.
///
/// - `foundation-escapes-raw-delimiters`: Foundation percent-encodes the raw characters
///   (and, once repairing, others such as `:` in a first path segment); both decode alike.
/// - `foundation-double-encoding`: repairing, Foundation re-escapes the whole component,
///   `%XX` escapes included (`a%00b` → `a%2500b`), so it decodes to what we hold *raw*.
///   RFC 3986 §2.4: a string must not be percent-encoded twice; we decode what was sent.
func disagreement(_ ours: String?, _ theirs: String?) -> String? {
    if ours == theirs { return nil }
    guard let ours, let theirs, ours.utf8.contains(where: repairTriggers.contains) else { return "unexplained" }
    let theirsDecoded = percentDecoded(theirs)
    if theirsDecoded == percentDecoded(ours) { return "foundation-escapes-raw-delimiters" }
    if theirsDecoded == Array(ours.utf8) { return "foundation-double-encoding" }
    return "unexplained"
}

func compare(_ ours: CallbackURL, _ theirs: URLComponents, _ text: String) {
    func fail(_ component: String, _ a: Any?, _ b: Any?) -> Never {
        fatalError(
            "unexplained disagreement on \(component) for \(text.debugDescription): ours \(String(describing: a)), Foundation \(String(describing: b))"
        )
    }

    if ours.scheme != theirs.scheme?.lowercased() { fail("scheme", ours.scheme, theirs.scheme) }

    // Class `case-normalisation`: we lowercase the scheme and a reg-name host, Foundation
    // keeps them as written (RFC 3986 §3.1, §3.2.2: both case-insensitive).
    // Class `foundation-host-limit`: Foundation keeps no host past 2,048 bytes (empty or
    // nil; the other components are kept); we keep it (no RFC limits a reg-name's length).
    let hostPastFoundationsLimit = (ours.host?.text.utf8.count ?? 0) > 2048 && (theirs.percentEncodedHost ?? "").isEmpty
    // Class `foundation-idna`: Foundation decodes a host's punycode labels (`xn--…`) to
    // percent-encoded UTF-8 (`xn--ls8h.la` → `%F0%9F%92%A9.la`) and keeps no host when a
    // label is not valid punycode (`xn--`); we keep the A-labels as written.
    let punycodeHost = ours.host.map { isPunycodeHost($0.text) } ?? false
    if !hostPastFoundationsLimit && !punycodeHost && normalizedHost(ours.host?.text) != normalizedHost(theirs.percentEncodedHost) {
        fail("host", ours.host?.text, theirs.percentEncodedHost)
    }

    if ours.port != theirs.port { fail("port", ours.port, theirs.port) }
    if disagreement(ours.path, theirs.percentEncodedPath) == "unexplained" { fail("path", ours.path, theirs.percentEncodedPath) }
    if disagreement(ours.fragment, theirs.percentEncodedFragment) == "unexplained" {
        fail("fragment", ours.fragment, theirs.percentEncodedFragment)
    }
    let query = disagreement(ours.query, theirs.percentEncodedQuery)
    if query == "unexplained" { fail("raw query", ours.query, theirs.percentEncodedQuery) }
    if query != "foundation-double-encoding", let items = theirs.percentEncodedQueryItems {
        let ourPairs = ours.queryParameters.map { [$0.name, $0.value] }
        if let theirPairs = formDecoded(items), ourPairs != theirPairs, ourPairs.map({ $0.map(withoutLeadingBOM) }) != theirPairs {
            fail("decoded query", ourPairs, theirPairs)
        }
    }
}
