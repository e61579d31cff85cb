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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import CallbackRouter
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop

@Suite struct PKCECommandTests {
    static func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let run = runTool(arguments, executablePath: "/usr/bin/callback-router")
        return (run.exit, run.stdout, run.stderr)
    }

    /// Runs with `input` written to a pipe that is stdin (closed after it).
    static func run(_ arguments: [String], stdin input: String) -> (code: Int32, out: String, err: String) {
        let run = runTool(arguments, executablePath: "/usr/bin/callback-router", stdin: Array(input.utf8))
        return (run.exit, run.stdout, run.stderr)
    }

    /// The verifier can come on stdin, so it never shows in the process list.
    @Test func readsTheVerifierFromStandardInput() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let fromStdin = Self.run(["pkce", "--verifier-from-stdin"], stdin: verifier + "\r\n")
        #expect(fromStdin.code == ExitCode.success, "\(fromStdin.err)")
        #expect(fromStdin.out == Self.run(["pkce", "--verifier", verifier]).out)
        #expect(fromStdin.err.isEmpty)
    }

    @Test(arguments: [
        ("", ExitCode.usage, "stdin ended before a verifier was written"),
        ("short\n", ExitCode.usage, ""),
        // Read as UTF-8, then refused by PKCE's own rule (RFC 7636 §4.1), without its bytes.
        ("caf\u{E9}-verifier-with-more-than-forty-three-characters-xxxx\n", ExitCode.usage, ""),
    ])
    func refusesABadVerifierOnStandardInputWithoutEchoingIt(_ input: String, _ code: Int32, _ message: String) {
        let result = Self.run(["pkce", "--verifier-from-stdin"], stdin: input)
        #expect(result.code == code)
        #expect(result.err.contains(message))
        if input != "" { #expect(result.out.hasPrefix(#"{"outcome":"rejected","reason":"invalid_configuration""#)) }
        #expect(!result.out.contains("short") && !result.err.contains("short"))
        #expect(!result.out.contains("verifier-with") && !result.err.contains("verifier-with"))
    }

    @Test func refusesAVerifierGivenTwoWays() {
        let result = Self.run(
            ["pkce", "--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "--verifier-from-stdin"],
            stdin: "x\n")
        #expect(result.code == ExitCode.usage)
        #expect(result.err.contains("exclude each other"))
    }

    @Test func printsTheRFC7636AppendixBPairForItsVerifier() {
        let result = Self.run(["pkce", "--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"])
        #expect(result.code == ExitCode.success)
        #expect(
            result.out
                == #"{"code_verifier":"dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk","code_challenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","code_challenge_method":"S256"}"#
                + "\n")
        #expect(result.err.isEmpty)
    }

    @Test func printsAFreshVerifierAndItsChallenge() throws {
        let first = Self.run(["pkce"])
        let second = Self.run(["pkce"])
        #expect(first.code == ExitCode.success)
        let fields = try #require(flatJSONObject(first.out))
        #expect(fields.map(\.0) == ["code_verifier", "code_challenge", "code_challenge_method"])
        let verifier = fields[0].1, challenge = fields[1].1
        #expect(verifier.utf8.count == 43)
        #expect(Base64URL.decode(verifier)?.count == 32)
        #expect(challenge == PKCE.challenge(for: verifier))
        #expect(fields[2].1 == "S256")
        #expect(try #require(flatJSONObject(second.out))[0].1 != verifier)
    }

    @Test(arguments: [
        "short",
        String(repeating: "a", count: 42),
        String(repeating: "b", count: 129),
        String(repeating: "c", count: 42) + "+",
        String(repeating: "d", count: 43) + "=",
        String(repeating: "e", count: 40) + " ab",
    ])
    func refusesBadVerifiersWithoutEchoingThem(verifier: String) {
        let result = Self.run(["pkce", "--verifier", verifier])
        #expect(result.code == ExitCode.usage)
        #expect(result.out.hasPrefix(#"{"outcome":"rejected","reason":"invalid_configuration","detail":"#))
        #expect(!result.out.contains(verifier) && !result.err.contains(verifier))
    }

    @Test(arguments: [
        ["pkce", "extra"],
        ["pkce", "--verifier"],
        ["pkce", "--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"],
        ["pkce", "--method", "plain"],
    ])
    func refusesBadUsage(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == ExitCode.usage)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("Try 'callback-router pkce --help'"))
    }

    @Test func helpDescribesOptionsOutputAndExitCodes() {
        let result = Self.run(["pkce", "--help"])
        #expect(result.code == ExitCode.success)
        for needle in [
            "USAGE: callback-router pkce [--verifier V | --verifier-from-stdin]", "--verifier V", "--verifier-from-stdin", "43 to 128",
            "S256",
            #"{"code_verifier":…,"code_challenge":…,"code_challenge_method":"S256"}"#, "EXIT CODES",
        ] {
            #expect(result.out.contains(needle), "\(needle)")
        }
        // The example in the help is true.
        let example = Self.run(["pkce", "--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"])
        #expect(result.out.contains(example.out))
    }
}

/// Reads a flat JSON object whose values are strings (the helper's output for these
/// commands), keeping member order. Handles the escapes JSONValue writes.
private func flatJSONObject(_ text: String) -> [(String, String)]? {
    var bytes = Array(text.utf8)[...]
    if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
    guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
    bytes = bytes.dropFirst().dropLast()
    func string() -> String? {
        guard bytes.popFirst() == UInt8(ascii: "\"") else { return nil }
        var out: [UInt8] = []
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.popFirst() else { return nil }
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "u"):
                    let digits = bytes.prefix(4)
                    bytes = bytes.dropFirst(4)
                    guard let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
                    out.append(value)
                default: out.append(escaped)
                }
            default: out.append(byte)
            }
        }
        return nil
    }
    var members: [(String, String)] = []
    while !bytes.isEmpty {
        guard let name = string(), bytes.popFirst() == UInt8(ascii: ":"), let value = string() else { return nil }
        members.append((name, value))
        if !bytes.isEmpty && bytes.popFirst() != UInt8(ascii: ",") { return nil }
    }
    return members
}
