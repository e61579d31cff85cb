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

/// `authorize-url --state-from-stdin`: a caller-chosen state, any UTF-8, sent and printed
/// byte for byte; everything else about the request stays fresh and random.
@Suite struct AuthorizeURLStateFromStdinTests {
    static let base = [
        "authorize-url", "--state-from-stdin", "--endpoint", "https://as.example/authorize",
        "--client-id", "abc123", "--redirect-uri", "http://127.0.0.1:8400/callback",
    ]

    /// Runs with `input` written to a pipe that is stdin (closed after it).
    static func run(_ arguments: [String] = base, stdin input: [UInt8]) -> (code: Int32, out: String, err: String) {
        let run = runTool(arguments, executablePath: "/usr/bin/callback-router", stdin: input)
        return (run.exit, run.stdout, run.stderr)
    }

    /// The value of a string member of the printed object (our JSON escapes only `"`, `\` and
    /// controls, none of which these states contain).
    static func member(_ name: String, in text: String) -> String? {
        let bytes = Array(text.utf8), marker = Array("\"\(name)\":\"".utf8)
        guard bytes.count >= marker.count,
            let start = (0 ... bytes.count - marker.count).first(where: { bytes[$0 ..< $0 + marker.count].elementsEqual(marker) })
        else { return nil }
        let valueStart = start + marker.count
        guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[valueStart ..< end], as: UTF8.self)
    }

    @Test(arguments: [
        "état-✓-東京-0123456789abcdef", // what the interop suites send to real servers
        "ascii-state-0123456789abcdef",
        "space and +plus &amp=equals #hash", // characters the query syntax reserves
        "😀 emoji, 4-byte UTF-8 sequences 😀",
    ])
    func sendsAndPrintsTheChosenStateByteForByte(_ state: String) throws {
        let result = Self.run(stdin: Array((state + "\n").utf8))
        #expect(result.code == ExitCode.success, "\(result.err)")
        #expect(result.err.isEmpty)
        #expect(Self.member("state", in: result.out) == state)
        let url = try CallbackURL(parsing: try #require(Self.member("url", in: result.out)))
        #expect(try url.queryParameters.value(named: "state") == state)
    }

    @Test func keepsTheVerifierAndNonceFreshAndBound() throws {
        let a = Self.run(stdin: Array("the-same-chosen-state-0001\n".utf8))
        let b = Self.run(stdin: Array("the-same-chosen-state-0001\n".utf8))
        for key in ["code_verifier", "nonce"] {
            let first = try #require(Self.member(key, in: a.out))
            #expect(Base64URL.decode(first)?.count == 32)
            #expect(first != Self.member(key, in: b.out))
        }
        let url = try CallbackURL(parsing: try #require(Self.member("url", in: a.out)))
        #expect(
            try url.queryParameters.value(named: "code_challenge")
                == PKCE.challenge(for: try #require(Self.member("code_verifier", in: a.out))))
    }

    @Test(arguments: [
        ("crlf-terminated-state-00001\r\n", "crlf-terminated-state-00001"),
        ("no-newline-at-end-of-input-1", "no-newline-at-end-of-input-1"),
        ("first-line-only-000000000001\nsecond line\n", "first-line-only-000000000001"),
    ])
    func readsOneLine(_ input: String, _ expected: String) {
        let result = Self.run(stdin: Array(input.utf8))
        #expect(result.code == ExitCode.success, "\(result.err)")
        #expect(Self.member("state", in: result.out) == expected)
    }

    /// Bytes on stdin, named in the test log by what they are rather than dumped.
    struct Input: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let bytes: [UInt8]
    }

    @Test(arguments: [
        (Input(testDescription: "nothing", bytes: []), ExitCode.usage, "stdin ended before a state was written"),
        (Input(testDescription: "an empty line", bytes: [0x0A]), ExitCode.usage, "stdin ended before a state was written"),
        (Input(testDescription: "a broken 2-byte sequence", bytes: [0x73, 0x74, 0xC3, 0x28, 0x0A]), ExitCode.usage, "not valid UTF-8"),
        (Input(testDescription: "an encoded surrogate", bytes: [0x73, 0xED, 0xA0, 0x80, 0x0A]), ExitCode.usage, "not valid UTF-8"),
        (Input(testDescription: "513 bytes", bytes: Array(repeating: 0x73, count: 513) + [0x0A]), ExitCode.usage, "513 bytes long"),
        (
            Input(testDescription: "9000 bytes, no newline", bytes: Array(repeating: 0x73, count: 9000)), ExitCode.usage,
            "longer than 8192 bytes"
        ),
    ])
    func refusesAStateItCannotSendFaithfully(_ input: Input, _ code: Int32, _ message: String) {
        let result = Self.run(stdin: input.bytes)
        #expect(result.code == code)
        #expect((result.out + result.err).contains(message), "\(result.out) \(result.err)")
        #expect(!result.out.contains("\"url\""))
        #expect(!result.err.contains("sss")) // never the value, only its length
    }

    @Test func warnsWithoutShowingItWhenTheStateIsTooShortForItsEntropy() {
        let result = Self.run(stdin: Array("short-é\n".utf8))
        #expect(result.code == ExitCode.success)
        #expect(result.err.contains("8 bytes") && result.err.contains("128"))
        #expect(!result.err.contains("short-é"))
    }

    @Test func isListedInHelp() {
        let output = CapturedOutput()
        let context = CommandContext(output: output, environment: [:], executablePath: "/usr/bin/callback-router")
        _ = CallbackRouterTool.run(["authorize-url", "--help"], context: context)
        #expect(output.stdout.contains("--state-from-stdin"))
    }
}
