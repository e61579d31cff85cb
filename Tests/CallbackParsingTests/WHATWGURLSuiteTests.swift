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
import TestVectorSupport

/// The web-platform-tests URL parser table (WPT `url/resources/urltestdata.json`), every
/// entry, as data in Vectors/whatwg-urltestdata.json with its provenance. Each input is
/// parsed alone (a WPT `base` is never resolved against) and must end in a `CallbackURL` or
/// a typed refusal, as recorded in the file. Against WHATWG's own result:
/// - an input without a scheme (WPT resolves it against its base) must be refused;
/// - an absolute input WHATWG fails must be refused, or carry a `why`;
/// - an absolute input WHATWG parses must be accepted, or carry a `why`;
/// - when both accept, WHATWG's eight components are compared with ours, except those
///   listed in the case's `differs` (WHATWG normalizes special URLs: default ports, empty
///   paths, dot segments, file hosts), each with its `why`; a listed one must really differ.
@Suite struct WHATWGURLSuiteTests {
    enum Kind: String {
        case relative
        case baseDependent = "base-dependent"
        case absolute
    }

    /// Our components, as the file records them.
    struct Accepted: Equatable, CustomStringConvertible {
        var scheme: String
        var userinfo: String?
        var host: String?
        var port: Int?
        var path: String
        var query: String?
        var fragment: String?

        init(scheme: String, userinfo: String?, host: String?, port: Int?, path: String, query: String?, fragment: String?) {
            (self.scheme, self.userinfo, self.host, self.port) = (scheme, userinfo, host, port)
            (self.path, self.query, self.fragment) = (path, query, fragment)
        }

        init(_ url: CallbackURL) {
            self.init(
                scheme: url.scheme, userinfo: url.userinfo, host: url.host?.text, port: url.port,
                path: url.path, query: url.query, fragment: url.fragment)
        }

        var description: String {
            "\(scheme) userinfo=\(userinfo ?? "nil") host=\(host ?? "nil") port=\(port.map(String.init) ?? "nil") "
                + "path=\(path) query=\(query ?? "nil") fragment=\(fragment ?? "nil")"
        }
    }

    enum Expected {
        case refused(reason: String, offset: Int?)
        case accepted(Accepted)
    }

    struct Case: CustomStringConvertible {
        let index: Int
        let input: String
        let kind: Kind
        /// WHATWG's components by WPT's names, nil when WHATWG fails.
        let whatwg: [String: String]?
        let expected: Expected
        let why: String?
        let differs: [String: String]
        /// Our refusal of WHATWG's href (the form a browser delivers), if we refuse it.
        let hrefRefusal: (reason: String, offset: Int?, why: String)?
        /// The components of the parsed href that differ from WHATWG's, with why.
        let hrefDiffers: [String: String]

        var refused: Bool { if case .refused = expected { return true } else { return false } }
        /// The input with its controls spelled out, for failure messages.
        var description: String {
            let spelled = input.unicodeScalars.map { scalar in
                scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : "\(scalar)"
            }
            return "case #\(index) " + spelled.joined()
        }
    }

    /// WPT's component names, in its order; `href` is kept in the file for reading only.
    static let components = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"]

    static func load() throws -> (cases: [Case], whys: [String: String]) {
        let whys = try TestVectors.strings("whys", in: "whatwg-urltestdata.json")
        let cases = try TestVectors.cases(in: "whatwg-urltestdata.json") { entry in
            guard let kind = Kind(rawValue: try entry.string("kind")) else { throw entry.error("unknown kind") }
            var whatwg: [String: String]?
            if entry["whatwg"]?.string != "failure" {
                guard case .object(let members)? = entry["whatwg"] else { throw entry.error("whatwg is neither failure nor components") }
                whatwg = [:]
                for (name, value) in members { whatwg?[name] = value.string }
                guard Self.components.allSatisfy({ whatwg?[$0] != nil }) else { throw entry.error("whatwg lacks a component") }
            }
            let expected: Expected
            if let refused = entry["refused"] {
                guard let reason = refused["reason"]?.string else { throw entry.error("refused without reason") }
                var offset: Int?
                if case .number(let number)? = refused["offset"] { offset = Int(number) }
                expected = .refused(reason: reason, offset: offset)
            } else if let accepted = entry["accepted"] {
                var port: Int?
                if case .number(let number)? = accepted["port"] { port = Int(number) }
                guard let scheme = accepted["scheme"]?.string, let path = accepted["path"]?.string else {
                    throw entry.error("accepted without scheme or path")
                }
                expected = .accepted(
                    Accepted(
                        scheme: scheme, userinfo: accepted["userinfo"]?.string, host: accepted["host"]?.string, port: port,
                        path: path, query: accepted["query"]?.string, fragment: accepted["fragment"]?.string))
            } else {
                throw entry.error("neither refused nor accepted")
            }
            var differs: [String: String] = [:]
            if case .object(let members)? = entry["differs"] {
                for (name, why) in members { differs[name] = why.string }
            }
            var hrefDiffers: [String: String] = [:]
            if case .object(let members)? = entry["href_differs"] {
                for (name, why) in members { hrefDiffers[name] = why.string }
            }
            var hrefRefusal: (String, Int?, String)?
            if let refused = entry["href_refused"] {
                guard let reason = refused["reason"]?.string, let why = refused["why"]?.string else {
                    throw entry.error("href_refused without reason or why")
                }
                var offset: Int?
                if case .number(let number)? = refused["offset"] { offset = Int(number) }
                hrefRefusal = (reason, offset, why)
            }
            return Case(
                index: entry.index, input: try entry.string("input"), kind: kind, whatwg: whatwg, expected: expected,
                why: entry["why"]?.string, differs: differs, hrefRefusal: hrefRefusal, hrefDiffers: hrefDiffers)
        }
        return (cases, whys)
    }

    @Test func theFileHoldsEveryWPTEntry() throws {
        let cases = try Self.load().cases
        #expect(cases.count == 866)
        #expect(cases.filter { $0.kind == .relative }.count == 167)
        #expect(cases.filter { $0.kind == .baseDependent }.count == 15)
        let absolute = cases.filter { $0.kind == .absolute }
        #expect(absolute.filter { $0.whatwg == nil && $0.refused }.count == 220, "both refuse")
        #expect(absolute.filter { $0.whatwg == nil && !$0.refused }.count == 35, "WHATWG fails, we accept")
        #expect(absolute.filter { $0.whatwg != nil && $0.refused }.count == 143, "WHATWG parses, we refuse")
        #expect(absolute.filter { $0.whatwg != nil && !$0.refused && $0.differs.isEmpty }.count == 165, "both parse, alike")
        #expect(absolute.filter { !$0.differs.isEmpty }.count == 121, "both parse, some component normalized")
    }

    /// No input traps: each ends in a URL with the recorded components or in the recorded
    /// reason at the recorded byte.
    @Test func everyInputGivesTheRecordedOutcome() throws {
        var ran = 0
        for entry in try Self.load().cases {
            let result = parse(entry.input)
            switch entry.expected {
            case .refused(let reason, let offset):
                let error = try #require(result.error, "\(entry) accepted")
                #expect(error.reason.rawValue == reason, "\(entry): \(error)")
                #expect(error.offset == offset, "\(entry): \(error)")
            case .accepted(let components):
                let url = try #require(result.value, "\(entry) refused: \(result.error.map(String.init(describing:)) ?? "")")
                #expect(Accepted(url) == components, "\(entry)")
            }
            ran += 1
        }
        #expect(ran == 866)
    }

    /// What we accept from WPT prints back to a string that parses to the same components.
    @Test func acceptedInputsRoundTrip() throws {
        var accepted = 0
        for entry in try Self.load().cases {
            guard let url = parse(entry.input).value else { continue }
            let reparsed = try #require(parse(url.serialized).value, "\(entry): \(url.serialized) refused")
            #expect(Components(reparsed) == Components(url), "\(entry)")
            accepted += 1
        }
        #expect(accepted == 333)
    }

    /// WPT resolves these against a base; a callback is never relative, so all are refused,
    /// mostly as relative references (the others start with `:` or a non-letter before a
    /// `:`, are empty, or start with a tab).
    @Test func inputsWithoutASchemeAreRefused() throws {
        var reasons: [String: Int] = [:]
        for entry in try Self.load().cases where entry.kind == .relative {
            let error = try #require(parse(entry.input).error, "\(entry) accepted")
            reasons[error.reason.rawValue, default: 0] += 1
        }
        #expect(reasons == ["relative_reference": 147, "invalid_scheme": 14, "empty_input": 5, "invalid_character": 1])
    }

    /// Where WHATWG and we part ways on accepting at all, the case says why; where we agree,
    /// it carries no why. Base-dependent cases are never compared.
    @Test func everyDisagreementOnAcceptanceIsExplained() throws {
        let (cases, whys) = try Self.load()
        var explained: [String: Int] = [:]
        for entry in cases {
            let disagrees: Bool
            switch entry.kind {
            case .relative: disagrees = false
            case .baseDependent: disagrees = true
            case .absolute: disagrees = (entry.whatwg == nil) != entry.refused
            }
            if disagrees {
                let why = try #require(entry.why, "\(entry): WHATWG \(entry.whatwg == nil ? "fails" : "parses"), we differ, no why")
                #expect(whys[why] != nil, "\(entry): unknown why \(why)")
                explained[why, default: 0] += 1
            } else {
                #expect(entry.why == nil, "\(entry): a why where we agree")
            }
        }
        // By why (docs/parsing.md, "Against WHATWG's URL test suite"). WHATWG fails, we accept:
        // special-scheme-without-slashes, empty-host-with-userinfo-or-port, no-idna,
        // empty-special-host, file-port; base-dependent is not compared; the rest WHATWG
        // parses and we refuse.
        #expect(
            explained == [
                "control-or-space": 40, "raw-non-ascii": 28, "base-dependent": 15, "empty-host-with-userinfo-or-port": 14,
                "opaque-path-byte": 12, "backslash-in-path": 11, "non-canonical-ipv4": 10,
                "special-scheme-without-slashes": 10, "percent-in-host": 10, "malformed-escape": 9,
                "byte-browsers-encode": 9, "no-idna": 8, "backslash-in-host": 4, "two-at-signs": 3,
                "host-byte-whatwg-keeps": 3, "userinfo-byte": 2, "empty-special-host": 2, "file-port": 1,
                "file-drive-letter": 1, "invalid-utf8-parameter": 1,
            ])
    }

    /// Where both accept, every WHATWG component not listed in `differs` equals ours; every
    /// listed one really differs (a stale `differs` entry fails).
    @Test func componentsAgreeWhereWHATWGDoesNotNormalize() throws {
        let (cases, whys) = try Self.load()
        var compared = 0
        var normalized: [String: Int] = [:]
        for entry in cases where entry.kind == .absolute {
            guard let whatwg = entry.whatwg, let url = parse(entry.input).value else { continue }
            let ours = Self.whatwgView(of: url)
            for name in Self.components {
                let theirs = whatwg[name] ?? ""
                let same = name == "hostname" ? Self.sameHost(theirs, url.host) : theirs == ours[name]
                if let why = entry.differs[name] {
                    #expect(whys[why] != nil, "\(entry): unknown why \(why)")
                    #expect(!same, "\(entry): \(name) is listed as differing but agrees")
                    normalized[why, default: 0] += 1
                } else {
                    #expect(same, "\(entry): \(name) WHATWG \(theirs), ours \(ours[name] ?? "")")
                    compared += 1
                }
            }
        }
        #expect(compared == 286 * 8 - 160)
        #expect(
            normalized == [
                "special-scheme-without-slashes": 60, "dot-segments": 34, "file-scheme-rules": 32,
                "special-empty-path": 26, "default-port": 7, "special-query-apostrophe": 1,
            ])
    }

    /// WHATWG's href is what a browser serializes, so what it delivers to a redirect URI: we
    /// accept it and read WHATWG's own components from it, except where the case says why
    /// (malformed escapes and `%` in opaque hosts a browser passes through, bytes of opaque
    /// paths, `\` in non-special paths; WHATWG's `/.` before a host-less `//` path).
    @Test func browserSerializedFormsParseToWHATWGsComponents() throws {
        let (cases, whys) = try Self.load()
        var accepted = 0
        var refused: [String: Int] = [:]
        for entry in cases {
            guard let whatwg = entry.whatwg, let href = whatwg["href"] else { continue }
            let result = parse(href)
            if let refusal = entry.hrefRefusal {
                let error = try #require(result.error, "\(entry): href \(href) accepted")
                #expect(error.reason.rawValue == refusal.reason, "\(entry): href \(href): \(error)")
                #expect(error.offset == refusal.offset, "\(entry): href \(href): \(error)")
                #expect(whys[refusal.why] != nil, "\(entry): unknown why \(refusal.why)")
                refused[refusal.why, default: 0] += 1
                continue
            }
            let url = try #require(result.value, "\(entry): href \(href) refused: \(result.error.map(String.init(describing:)) ?? "")")
            let ours = Self.whatwgView(of: url)
            for name in Self.components {
                let theirs = whatwg[name] ?? ""
                let same = name == "hostname" ? Self.sameHost(theirs, url.host) : theirs == ours[name]
                let listed = entry.hrefDiffers[name] != nil
                #expect(same != listed, "\(entry): href \(href): \(name) WHATWG \(theirs), ours \(ours[name] ?? "")")
            }
            accepted += 1
        }
        #expect(accepted == 545)
        #expect(cases.filter { !$0.hrefDiffers.isEmpty }.count == 12, "WHATWG's /.// serialization of a host-less // path")
        #expect(
            refused == [
                "malformed-escape": 19, "percent-in-host": 13, "opaque-path-byte": 10, "host-byte-whatwg-keeps": 3,
                "backslash-in-path": 2, "invalid-utf8-parameter": 1,
            ])
    }

    @Test func everyWhyIsUsed() throws {
        let (cases, whys) = try Self.load()
        let used = Set(
            cases.compactMap(\.why) + cases.flatMap(\.differs.values) + cases.compactMap(\.hrefRefusal?.why)
                + cases.flatMap(\.hrefDiffers.values))
        #expect(used == Set(whys.keys))
    }

    /// Our components under WPT's names: userinfo split at its first `:`, `""` for what is
    /// absent, `?`/`#` before a non-empty query or fragment (WHATWG shows a bare `?` as `""`).
    static func whatwgView(of url: CallbackURL) -> [String: String] {
        let userinfo = url.userinfo ?? ""
        let colon = userinfo.firstIndex(of: ":")
        return [
            "protocol": url.scheme + ":",
            "username": String(userinfo[..<(colon ?? userinfo.endIndex)]),
            "password": colon.map { String(userinfo[userinfo.index(after: $0)...]) } ?? "",
            "port": url.port.map(String.init) ?? "",
            "pathname": url.path,
            "search": url.query.map { $0.isEmpty ? "" : "?" + $0 } ?? "",
            "hash": url.fragment.map { $0.isEmpty ? "" : "#" + $0 } ?? "",
        ]
    }

    /// Hosts compare by what they name (`Host`'s `==`): case and IPv6 spelling (`[1::]`,
    /// `[1:0::]`) do not count.
    static func sameHost(_ whatwg: String, _ ours: Host?) -> Bool {
        guard let ours else { return whatwg.isEmpty }
        if whatwg.isEmpty || ours.text.isEmpty { return whatwg == ours.text }
        if let theirs = try? Host(parsing: whatwg) { return theirs == ours }
        return whatwg.lowercased() == ours.text
    }
}
