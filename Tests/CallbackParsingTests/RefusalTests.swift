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

/// Every reason the parser gives, with the exact byte offset it reports.
@Suite struct RefusalTests {
    struct Refusal: CustomTestStringConvertible, Sendable {
        let input: String
        let reason: ReasonCode
        let offset: Int?
        init(_ input: String, _ reason: ReasonCode, _ offset: Int?) {
            self.input = input
            self.reason = reason
            self.offset = offset
        }
        var testDescription: String { "\(reason.rawValue): \(input.debugDescription)" }
    }

    static let refusals: [Refusal] = [
        Refusal("", .emptyInput, nil),
        // invalid_character: controls, space, DEL, non-ASCII anywhere; and per component.
        Refusal(" myapp://cb", .invalidCharacter, 0),
        Refusal("myapp://cb ", .invalidCharacter, 10),
        Refusal("myapp://cb/ ", .invalidCharacter, 11),
        Refusal("myapp://cb?code=a b", .invalidCharacter, 17),
        Refusal("myapp://cb?code=a\tb", .invalidCharacter, 17),
        Refusal("myapp://cb?code=a\nb", .invalidCharacter, 17),
        Refusal("myapp://cb?code=a\u{0}b", .invalidCharacter, 17),
        Refusal("myapp://cb?code=a\u{7F}b", .invalidCharacter, 17),
        Refusal("myapp://cb?code=é", .invalidCharacter, 16),
        Refusal("myapp://cb#\u{1F}", .invalidCharacter, 11),
        Refusal("my\u{0}app://cb", .invalidCharacter, 2),
        Refusal("myapp://c b/", .invalidCharacter, 9),
        Refusal("myapp://ü/", .invalidCharacter, 8),
        Refusal("myapp://u\u{7F}@h/", .invalidCharacter, 9),
        Refusal("x:/a\"b", .invalidCharacter, 4),
        Refusal("x:/a<b", .invalidCharacter, 4),
        Refusal("x:/a>b", .invalidCharacter, 4),
        Refusal("x:/a{b", .invalidCharacter, 4),
        Refusal("x:/a}b", .invalidCharacter, 4),
        Refusal("x:/a^b", .invalidCharacter, 4),
        Refusal("x:/a`b", .invalidCharacter, 4),
        Refusal("x:/a\\b", .invalidCharacter, 4),
        Refusal("x:?a\"b", .invalidCharacter, 4),
        Refusal("x:?a<b", .invalidCharacter, 4),
        Refusal("x:?a>b", .invalidCharacter, 4),
        Refusal("x:#a\"b", .invalidCharacter, 4),
        Refusal("x:#a<b", .invalidCharacter, 4),
        Refusal("x:#a>b", .invalidCharacter, 4),
        Refusal("x:#a`b", .invalidCharacter, 4),
        // invalid_scheme
        Refusal(":x", .invalidScheme, 0),
        Refusal("1app:/x", .invalidScheme, 0),
        Refusal("+app:/x", .invalidScheme, 0),
        Refusal("my_app:/x", .invalidScheme, 2),
        Refusal("my%41pp:/x", .invalidScheme, 2),
        Refusal("my!app:/x", .invalidScheme, 2),
        Refusal("a@b:c", .invalidScheme, 1),
        // relative_reference
        Refusal("oauth-callback", .relativeReference, 0),
        Refusal("/callback?code=x", .relativeReference, 0),
        Refusal("//host/callback", .relativeReference, 0),
        Refusal("?code=x", .relativeReference, 0),
        Refusal("#code=x", .relativeReference, 0),
        Refusal("cb/x:y", .relativeReference, 0),
        Refusal("cb?x:y", .relativeReference, 0),
        Refusal("cb#x:y", .relativeReference, 0),
        // invalid_authority
        Refusal("x://a@b@c/", .invalidAuthority, 7),
        Refusal("x://u[@h/", .invalidAuthority, 5),
        Refusal("x://u\\@h/", .invalidAuthority, 5),
        Refusal("x://u^@h/", .invalidAuthority, 5),
        Refusal("x://[::1]:80@h/", .invalidAuthority, 4),
        // invalid_host
        Refusal("x://h%41/", .invalidHost, 5),
        Refusal("x://h\\x/", .invalidHost, 5),
        Refusal("x://h^/", .invalidHost, 5),
        Refusal("x://h|/", .invalidHost, 5),
        Refusal("x://h{/", .invalidHost, 5),
        Refusal("x://a[b/", .invalidHost, 5),
        Refusal("x://h]/", .invalidHost, 5),
        Refusal("x://0x7f.1/", .invalidHost, 4),
        Refusal("x://127.1/", .invalidHost, 4),
        Refusal("x://2130706433/", .invalidHost, 4),
        Refusal("x://127.000.0.1/", .invalidHost, 4),
        Refusal("x://01.2.3.4/", .invalidHost, 4),
        Refusal("x://1.2.3.256/", .invalidHost, 4),
        Refusal("x://1.2.3.4.5/", .invalidHost, 4),
        Refusal("x://127.0.0.1./", .invalidHost, 4),
        Refusal("x://example.0x1/", .invalidHost, 4),
        Refusal("x://example.123/", .invalidHost, 4),
        Refusal("x://0X/", .invalidHost, 4),
        Refusal("x://[::1/", .invalidHost, 4),
        Refusal("x://[::1]x/", .invalidHost, 9),
        Refusal("x://[]/", .invalidHost, 5),
        Refusal("x://[v1.x]/", .invalidHost, 5),
        Refusal("x://[V1.x]/", .invalidHost, 5),
        Refusal("x://[fe80::1%25eth0]/", .invalidHost, 12),
        Refusal("x://[1.2.3.4]/", .invalidHost, 5),
        Refusal("x://[:1]/", .invalidHost, 5),
        Refusal("x://[1:]/", .invalidHost, 5),
        Refusal("x://[:::1]/", .invalidHost, 5),
        Refusal("x://[1::2::3]/", .invalidHost, 5),
        Refusal("x://[1:2:3:4:5:6:7]/", .invalidHost, 5),
        Refusal("x://[1:2:3:4:5:6:7:8:9]/", .invalidHost, 5),
        Refusal("x://[1:2:3:4:5:6:7:8::]/", .invalidHost, 5),
        Refusal("x://[12345::]/", .invalidHost, 5),
        Refusal("x://[g::]/", .invalidHost, 5),
        Refusal("x://[::1.2.3]/", .invalidHost, 5),
        Refusal("x://[::01.2.3.4]/", .invalidHost, 5),
        Refusal("x://[1:2:3:4:5:6:7:1.2.3.4]/", .invalidHost, 5),
        // invalid_port
        Refusal("x://h:65536/", .invalidPort, 6),
        Refusal("x://h:99999999999999999999999/", .invalidPort, 6),
        Refusal("x://h:8a/", .invalidPort, 7),
        Refusal("x://h:-1/", .invalidPort, 6),
        Refusal("x://h:+1/", .invalidPort, 6),
        Refusal("x://h:80:80/", .invalidPort, 8),
        Refusal("x://[::1]:a/", .invalidPort, 10),
        Refusal("x://::1/", .invalidPort, 5),
        // invalid_percent_encoding, in every component that allows escapes.
        Refusal("x:/%", .invalidPercentEncoding, 3),
        Refusal("x:/%4", .invalidPercentEncoding, 3),
        Refusal("x:/%zz", .invalidPercentEncoding, 3),
        Refusal("x:/%4g/", .invalidPercentEncoding, 3),
        Refusal("x:?code=%", .invalidPercentEncoding, 8),
        Refusal("x:?code=%4", .invalidPercentEncoding, 8),
        Refusal("x:?code=%zz", .invalidPercentEncoding, 8),
        Refusal("x:?code=%%41", .invalidPercentEncoding, 8),
        Refusal("x:#a=%G0", .invalidPercentEncoding, 5),
        Refusal("x://u%@h/", .invalidPercentEncoding, 5),
        Refusal("x://u%4@h/", .invalidPercentEncoding, 5),
        // invalid_utf8: decoded parameters must be UTF-8; the offset is the escape that breaks it.
        Refusal("x:?code=%FF", .invalidUTF8, 8),
        Refusal("x:?code=ok%C3", .invalidUTF8, 10),
        Refusal("x:?code=%C3%28", .invalidUTF8, 8),
        Refusal("x:?code=%C0%80", .invalidUTF8, 8),
        Refusal("x:?code=%E0%80%80", .invalidUTF8, 8),
        Refusal("x:?code=%ED%A0%80", .invalidUTF8, 8),
        Refusal("x:?code=%F4%90%80%80", .invalidUTF8, 8),
        Refusal("x:?code=%F8%88%80%80%80", .invalidUTF8, 8),
        Refusal("x:?%FE=v", .invalidUTF8, 3),
        Refusal("x:?a=%C3&b=%A9", .invalidUTF8, 5),
        Refusal("x:#a=%80", .invalidUTF8, 5),
        // too_many_parameters: the 65th parameter, query and fragment counted together.
        Refusal(
            "x:?" + (1 ... 65).map { "p\($0)=v" }.joined(separator: "&"),
            .tooManyParameters, 3 + (1 ... 64).map { "p\($0)=v&".utf8.count }.reduce(0, +)),
        Refusal(
            "x:?" + (1 ... 40).map { "p\($0)" }.joined(separator: "&") + "#" + (1 ... 25).map { "f\($0)" }.joined(separator: "&"),
            .tooManyParameters,
            3 + (1 ... 40).map { "p\($0)&".utf8.count }.reduce(0, +) + (1 ... 24).map { "f\($0)&".utf8.count }.reduce(0, +)),
        // too_long: the whole URL, a value, a name.
        Refusal("x:/" + String(repeating: "a", count: 16 * 1024 - 2), .tooLong, 16 * 1024),
        Refusal("x:?code=" + String(repeating: "a", count: 8 * 1024 + 1), .tooLong, 8),
        Refusal("x:?" + String(repeating: "n", count: 8 * 1024 + 1) + "=v", .tooLong, 3),
    ]

    @Test(arguments: refusals)
    func refusesWithReasonAndOffset(_ refusal: Refusal) throws {
        let error = try #require(parse(refusal.input).error, "accepted")
        #expect(error.reason == refusal.reason, "\(error)")
        #expect(error.offset == refusal.offset, "\(error)")
        // The byte entry point reports the same.
        #expect(parse(bytes: Array(refusal.input.utf8)).error == error)
    }

    @Test func everySyntaxReasonButDuplicateIsCovered() {
        let covered = Set(Self.refusals.map(\.reason))
        let syntax: [ReasonCode] = [
            .emptyInput, .tooLong, .invalidCharacter, .invalidScheme, .relativeReference, .invalidAuthority,
            .invalidHost, .invalidPort, .invalidPercentEncoding, .invalidUTF8, .tooManyParameters,
        ]
        #expect(Set(syntax).isSubset(of: covered))
        // duplicate_parameter comes from the lookup API, not from parsing: ParameterLookupTests.
    }

    @Test func refusalsMatchWithCatch() {
        do {
            _ = try CallbackURL(parsing: "x://h:70000/")
            Issue.record("accepted")
        } catch ReasonCode.invalidPort {
            // matched by reason code
        } catch {
            Issue.record("wrong error \(error)")
        }
    }

    @Test func rawNonASCIIBytesAreRefusedFromByteInput() {
        // Bytes that are not UTF-8 at all: refused as characters, never decoded or repaired.
        for bad: [UInt8] in [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80]] {
            let error = parse(bytes: Array("x:?a=".utf8) + bad).error
            #expect(error?.reason == .invalidCharacter)
            #expect(error?.offset == 5)
        }
    }

    @Test func hostsRefuseTheSameWayAlone() {
        expectRefusal(.invalidHost) { try Host(parsing: "0x7f.1") }
        expectRefusal(.invalidHost) { try Host(parsing: "[fe80::1%25eth0]") }
        expectRefusal(.invalidHost) { try Host(parsing: "example.com:80") }
        expectRefusal(.invalidCharacter) { try Host(parsing: "a b") }
        #expect((try? Host(parsing: "Example.com"))?.text == "example.com")
        #expect((try? Host(parsing: ""))?.kind == .registeredName)
    }
}
