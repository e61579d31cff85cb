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

/// Authorities the WPT table lacks (every alternative of RFC 3986's IPv6address, zone ids,
/// ports, userinfo, percent-encoded hosts), as data in Vectors/rfc3986-authority.json: Go's
/// net/url test tables with Go's verdicts, and our examples of RFC 3986 §3.2. Each input
/// gives the recorded outcome; we agree with RFC 3986's verdict and with Go's, except where
/// the case says why.
@Suite struct RFC3986AuthorityVectorTests {
    struct Accepted: Equatable, CustomStringConvertible {
        var userinfo: String?
        var host: String?
        var kind: Host.Kind?
        var address: [UInt8]
        var port: Int?
        var path: String

        var description: String {
            "userinfo=\(userinfo ?? "nil") host=\(host ?? "nil") \(kind.map { "\($0)" } ?? "") \(address) "
                + "port=\(port.map(String.init) ?? "nil") path=\(path)"
        }
    }

    struct Case: CustomStringConvertible {
        let index: Int
        let input: String
        let source: String
        /// `valid`, `invalid`, or `relative` (not an absolute URI).
        let rfc3986: String
        let goValid: Bool?
        let goHostname: String?
        let goPort: String?
        let accepted: Accepted?
        let refusal: (reason: String, offset: Int?)?
        let why: String?

        var description: String { "case #\(index) \(input)" }
    }

    static func load() throws -> (cases: [Case], whys: [String: String]) {
        let whys = try TestVectors.strings("whys", in: "rfc3986-authority.json")
        let cases = try TestVectors.cases(in: "rfc3986-authority.json") { entry in
            var accepted: Accepted?
            if let fields = entry["accepted"] {
                let kinds: [String: Host.Kind] = ["registeredName": .registeredName, "ipv4": .ipv4, "ipv6": .ipv6]
                var port: Int?
                if case .number(let number)? = fields["port"] { port = Int(number) }
                var address: [UInt8] = []
                for byte in fields["address"]?.array ?? [] {
                    guard case .number(let number) = byte else { throw entry.error("address holds a non-number") }
                    address.append(UInt8(number))
                }
                guard let path = fields["path"]?.string else { throw entry.error("accepted without path") }
                accepted = Accepted(
                    userinfo: fields["userinfo"]?.string, host: fields["host"]?.string,
                    kind: fields["kind"]?.string.flatMap { kinds[$0] }, address: address, port: port, path: path)
            }
            var refusal: (String, Int?)?
            if let refused = entry["refused"], let reason = refused["reason"]?.string {
                var offset: Int?
                if case .number(let number)? = refused["offset"] { offset = Int(number) }
                refusal = (reason, offset)
            }
            guard (accepted == nil) != (refusal == nil) else { throw entry.error("needs exactly one of accepted/refused") }
            var goValid: Bool?
            if case .bool(let valid)? = entry["go_valid"] { goValid = valid }
            return Case(
                index: entry.index, input: try entry.string("input"), source: try entry.string("source"),
                rfc3986: try entry.string("rfc3986"), goValid: goValid, goHostname: entry["go_hostname"]?.string,
                goPort: entry["go_port"]?.string, accepted: accepted, refusal: refusal, why: entry["why"]?.string)
        }
        return (cases, whys)
    }

    @Test func theFileHoldsEveryCase() throws {
        let cases = try Self.load().cases
        #expect(cases.count == 133)
        #expect(cases.filter { $0.source.hasPrefix("golang/go") }.count == 73)
        #expect(cases.filter { $0.rfc3986 == "valid" }.count == 69)
        #expect(cases.filter { $0.rfc3986 == "invalid" }.count == 57)
        #expect(cases.filter { $0.rfc3986 == "relative" }.count == 7)
        #expect(cases.filter { $0.accepted != nil }.count == 60)
    }

    @Test func everyInputGivesTheRecordedOutcome() throws {
        for entry in try Self.load().cases {
            let result = parse(entry.input)
            if let expected = entry.accepted {
                let url = try #require(result.value, "\(entry) refused: \(result.error.map(String.init(describing:)) ?? "")")
                let host = url.host
                let ours = Accepted(
                    userinfo: url.userinfo, host: host?.text, kind: host?.kind, address: host?.addressBytes ?? [],
                    port: url.port, path: url.path)
                #expect(ours == expected, "\(entry)")
            } else if let refusal = entry.refusal {
                let error = try #require(result.error, "\(entry) accepted")
                #expect(error.reason.rawValue == refusal.reason, "\(entry): \(error)")
                #expect(error.offset == refusal.offset, "\(entry): \(error)")
            }
        }
    }

    /// What RFC 3986 refuses we refuse, always; what it accepts we accept unless the case
    /// says why; a relative reference is refused as one.
    @Test func weAgreeWithRFC3986OrSayWhy() throws {
        let (cases, whys) = try Self.load()
        var differences: [String: Int] = [:]
        for entry in cases {
            switch entry.rfc3986 {
            case "invalid":
                #expect(entry.accepted == nil, "\(entry): RFC 3986 refuses it, we accept it")
            case "relative":
                #expect(entry.refusal?.reason == "relative_reference", "\(entry)")
            default:
                if entry.accepted == nil {
                    let why = try #require(entry.why, "\(entry): RFC 3986 accepts it, we refuse it, no why")
                    #expect(whys[why] != nil, "\(entry)")
                    differences[why, default: 0] += 1
                }
            }
        }
        #expect(differences == ["percent-in-host": 5, "numeric-reg-name": 3, "port-above-65535": 1])
    }

    /// Go accepts IPv6 zone ids (RFC 6874) and request paths; nothing else it accepts do we
    /// refuse, and nothing it refuses do we accept.
    @Test func weAgreeWithGoOrSayWhy() throws {
        var differences: [String: Int] = [:]
        for entry in try Self.load().cases {
            guard let goValid = entry.goValid, goValid != (entry.accepted != nil) else { continue }
            #expect(goValid, "\(entry): Go refuses it, we accept it")
            differences[entry.why ?? "none", default: 0] += 1
        }
        #expect(differences == ["zone-id": 6, "relative": 5])
    }

    /// Where Go splits a host and port and we accept, we read the same ones.
    @Test func hostAndPortAgreeWithGo() throws {
        var compared = 0
        for entry in try Self.load().cases {
            guard let goHostname = entry.goHostname, let url = parse(entry.input).value else { continue }
            let expected = goHostname.contains(":") ? "[\(goHostname)]" : goHostname
            let theirs = try Host(parsing: expected)
            #expect(url.host == theirs, "\(entry)")
            #expect(url.port.map(String.init) ?? "" == entry.goPort, "\(entry)")
            compared += 1
        }
        #expect(compared == 14)
    }
}
