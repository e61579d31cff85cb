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

/// A refused byte is named by its class and offset, never shown: it may be one byte of a
/// secret (a code with a stray character, a state sent raw). So every byte of a class gives
/// the same detail at the same place, and no detail holds the byte or its value.
@Suite struct RefusedByteDetailTests {
    /// Templates with one slot (`@@`) in a place where the parser refuses most bytes.
    static let templates = [
        "https://a.example:8@@0/cb", // port
        "my@@app://cb?code=x", // scheme
        "myapp://c@@b/cb?code=x", // host
        "myapp://us@@er@cb/p", // userinfo
        "myapp://cb/p@@th?code=x", // path
        "myapp://cb/p?code=a@@b", // query
    ]

    static func detail(_ template: String, _ byte: UInt8) -> ParseError? {
        var bytes = Array(template.utf8)
        let slot = bytes.firstIndex(of: UInt8(ascii: "@"))!
        bytes.replaceSubrange(slot ... slot + 1, with: [byte])
        do {
            _ = try CallbackURL(parsing: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: templates)
    func aRefusedLetterOrDigitIsNeverShown(_ template: String) {
        for (first, last) in [
            (UInt8(ascii: "a"), UInt8(ascii: "z")), (UInt8(ascii: "A"), UInt8(ascii: "Z")),
            (UInt8(ascii: "0"), UInt8(ascii: "9")),
        ] {
            let details = Set(
                (first ... last).compactMap { Self.detail(template, $0).map { "\($0.reason) \($0.offset ?? -1) \($0.detail)" } })
            #expect(details.count <= 1, "\(template): \(details)")
        }
        // `%` and `@` are refused for what they mean (an escape without digits, a second
        // userinfo end), and those fixed messages name the syntax, not a refused byte.
        for byte in UInt8(ascii: "!") ... UInt8(ascii: "~") where byte != UInt8(ascii: "%") && byte != UInt8(ascii: "@") {
            guard let error = Self.detail(template, byte) else { continue }
            #expect(!error.detail.contains("'\(Character(Unicode.Scalar(byte)))'"), "\(template): \(error.detail)")
            #expect(!error.description.contains("'\(Character(Unicode.Scalar(byte)))'"), "\(template): \(error)")
        }
    }

    @Test func thePortNamesTheClassNotTheCharacter() throws {
        let error = try #require(Self.detail("https://a.example:8@@0/cb", UInt8(ascii: "S")))
        #expect(error.reason == .invalidPort)
        #expect(error.offset == 19)
        #expect(error.detail == "the port contains a letter")
    }

    @Test(arguments: [UInt8(0x00), 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xE6, 0xFF])
    func controlAndNonASCIIBytesAreNamedWithoutTheirValue(_ byte: UInt8) throws {
        let error = try #require(Self.detail("myapp://cb/p?code=a@@b", byte))
        let hex = String(byte, radix: 16)
        #expect(!error.detail.lowercased().contains("0x"), "\(error.detail)")
        #expect(!error.detail.lowercased().contains(hex.count == 1 ? "0\(hex)" : hex), "\(error.detail)")
        #expect(error.offset == 19)
        #expect(error.detail.contains(byte >= 0x80 ? "a raw non-ASCII byte" : "a control character"), "\(error.detail)")
    }
}
