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

/// Every byte 0x00–0x7F (and some non-ASCII) in every component: accepted, a delimiter
/// that ends the component, or refused with the component's reason. These sets are the
/// table in docs/parsing.md; a change to either must change both.
@Suite struct CharacterTableTests {
    static let alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    static let digit = "0123456789"
    static let unreserved = alpha + digit + "-._~"
    static let subDelims = "!$&'()*+,;="
    static let printable = (0x21 ... 0x7E).map { Character(Unicode.Scalar(UInt8($0))) }

    struct Component: CustomTestStringConvertible, Sendable {
        let name: String
        /// The URL with the byte under test at `position`.
        let prefix: String
        let suffix: String
        let accepted: String
        let delimiters: String
        /// The reason for a refused printable byte (controls, space, DEL, non-ASCII are
        /// `invalid_character` everywhere).
        let reason: ReasonCode
        /// The component as parsed, to check an accepted byte landed in it.
        let read: @Sendable (CallbackURL) -> String?
        var position: Int { prefix.utf8.count }
        var testDescription: String { name }
    }

    static let components: [Component] = [
        Component(
            name: "scheme", prefix: "s", suffix: "s:/p", accepted: alpha + digit + "+-.", delimiters: ":/?#",
            reason: .invalidScheme, read: { $0.scheme }),
        Component(
            name: "userinfo", prefix: "x://u", suffix: "u@h/", accepted: unreserved + subDelims + ":",
            delimiters: "/?#@", reason: .invalidAuthority, read: { $0.userinfo }),
        Component(
            name: "host", prefix: "x://h", suffix: "h/", accepted: unreserved + subDelims,
            delimiters: "/?#:@", reason: .invalidHost, read: { $0.host?.text }),
        Component(
            name: "port", prefix: "x://h:1", suffix: "/", accepted: digit, delimiters: "/?#@",
            reason: .invalidPort, read: { $0.port.map(String.init) }),
        Component(
            name: "path", prefix: "x:/p", suffix: "p", accepted: unreserved + subDelims + ":@/[]|",
            delimiters: "?#", reason: .invalidCharacter, read: { $0.path }),
        Component(
            name: "query", prefix: "x:?q", suffix: "q",
            accepted: String(printable.filter { !"\"#<>%".contains($0) }), delimiters: "#",
            reason: .invalidCharacter, read: { $0.query }),
        Component(
            name: "fragment", prefix: "x:#f", suffix: "f",
            accepted: String(printable.filter { !"\"<>`%".contains($0) }), delimiters: "",
            reason: .invalidCharacter, read: { $0.fragment }),
    ]

    @Test(arguments: components)
    func everyPrintableByteIsAcceptedEndsTheComponentOrIsRefused(_ component: Component) throws {
        var counts = (accepted: 0, delimiters: 0, refused: 0)
        for character in Self.printable {
            let byte = character.asciiValue ?? 0
            let result = parse(component.prefix + String(character) + component.suffix)
            if component.accepted.contains(character) {
                let url = try #require(result.value, "\(component.name) refused \(character)")
                // Scheme and host are read lowercased.
                let expected = ["scheme", "host"].contains(component.name) ? Character(character.lowercased()).asciiValue ?? 0 : byte
                #expect(component.read(url)?.utf8.contains(expected) == true, "\(component.name) lost \(character)")
                counts.accepted += 1
            } else if component.delimiters.contains(character) {
                #expect(
                    result.value.map { component.read($0)?.utf8.contains(byte) != true } ?? true,
                    "\(component.name): \(character) is a delimiter")
                counts.delimiters += 1
            } else {
                let error = try #require(result.error, "\(component.name) accepted \(character)")
                let expected: ReasonCode =
                    character == "%" && ["userinfo", "path", "query", "fragment"].contains(component.name)
                    ? .invalidPercentEncoding : component.reason
                #expect(error.reason == expected, "\(component.name) \(character): \(error)")
                #expect(error.offset == component.position, "\(component.name) \(character): \(error)")
                counts.refused += 1
            }
        }
        #expect(counts.accepted + counts.delimiters + counts.refused == 94)
    }

    @Test(arguments: components)
    func controlsSpaceDELAndNonASCIIAreInvalidCharacters(_ component: Component) {
        let bytes: [UInt8] = Array(0x00 ... 0x20) + [0x7F, 0x80, 0xA0, 0xC3, 0xFF]
        for byte in bytes {
            let error = parse(bytes: Array(component.prefix.utf8) + [byte] + Array(component.suffix.utf8)).error
            #expect(error?.reason == .invalidCharacter, "\(component.name) 0x\(String(byte, radix: 16))")
            #expect(error?.offset == component.position, "\(component.name) 0x\(String(byte, radix: 16))")
        }
    }

    @Test(arguments: ["userinfo", "path", "query", "fragment"])
    func escapesAreAcceptedWhereRFC3986AllowsThem(_ name: String) throws {
        let component = try #require(Self.components.first { $0.name == name })
        for escape in ["%41", "%00", "%7f", "%7F", "%25", "%2B"] {
            let url = try #require(parse(component.prefix + escape + component.suffix).value, "\(name) \(escape)")
            #expect(component.read(url)?.contains(escape) == true)
        }
    }

    @Test func escapesAreRefusedInSchemeHostAndPort() {
        #expect(parse("s%41s:/p").error?.reason == .invalidScheme)
        #expect(parse("x://h%41h/").error?.reason == .invalidHost)
        #expect(parse("x://h:1%31/").error?.reason == .invalidPort)
    }

    @Test func theFirstSchemeByteMustBeALetter() {
        for character in Self.printable where character != ":" && !"/?#".contains(character) {
            let result = parse(String(character) + "s:/p")
            if character.isLetter {
                #expect(result.value != nil)
            } else {
                #expect(result.error?.reason == .invalidScheme, "\(character)")
                #expect(result.error?.offset == 0, "\(character)")
            }
        }
    }
}
