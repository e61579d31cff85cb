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

import struct CallbackRouter.CallbackError
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// login's last stderr line: what a person reads, from the outcome it printed.
@Suite struct SignInSummaryTests {
    /// Runs login against its own loopback receiver, with a fake curl answering discovery
    /// for `issuer` and the token request (an ID token of `issuer` for the login's nonce):
    /// follows the start link as a browser would, then sends the callback `query` (with
    /// `STATE` replaced by the real state). `--endpoint` overrides discovery's.
    func login(issuer: String, query: String) throws -> (exit: Int32, stdout: String, stderr: String) {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer(
            "discovery",
            body:
                #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/other","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}"#
        )
        let output = CapturedOutput()
        let context = CommandContext(output: output, environment: curl.environment, executablePath: "/x")
        let arguments = [
            "login", "--endpoint", "https://a.example/authorize", "--client-id", "app", "--issuer", issuer, "--no-browser",
            "--timeout", "20",
        ]
        let thread = BlockingThread { CallbackRouterTool.run(arguments, context: context) }
        let marker = "the sign-in link (it works once): http://127.0.0.1:"
        for _ in 0 ..< 2000 where !output.stderr.contains("waiting for the callback") { usleep(10_000) }
        let start = try #require(output.stderr.firstRange(of: marker))
        let rest = output.stderr[start.upperBound...]
        let port = try #require(Int(rest.prefix { $0.isNumber }))
        let path = String(rest.drop { $0.isNumber }.prefix { !$0.isWhitespace })
        let location = try #require(try RawClient.get(port: port, path).header("Location"))
        #expect(location.hasPrefix("https://a.example/authorize?"), "--endpoint overrides discovery's")
        func parameter(_ name: String) throws -> Substring {
            let start = try #require(location.firstRange(of: name + "="))
            return location[start.upperBound...].prefix { $0 != "&" }
        }
        let state = try parameter("state")
        let nonce = try parameter("nonce")
        try curl.answer(
            "token",
            body:
                #"{"access_token":"AT-1","token_type":"Bearer","id_token":"\#(IDTokens.make(IDTokens.claims(iss: issuer, nonce: String(nonce))))"}"#
        )
        _ = try RawClient.get(port: port, "/callback?" + query.replacingOccurrences(of: "STATE", with: String(state)))
        let exit = thread.join()
        return (exit, output.stdout, output.stderr)
    }

    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func aSuccessNamesTheIssuer() throws {
        let result = try login(issuer: "https://a.example", query: "code=c1&state=STATE&iss=https%3A%2F%2Fa.example")
        #expect(result.exit == 0)
        #expect(Self.lastLine(result.stderr) == "✓ Signed in at https://a.example")
    }

    @Test func aRefusalAtTheProviderSaysSoInWords() throws {
        let result = try login(issuer: "https://a.example", query: "error=access_denied&state=STATE")
        #expect(result.exit == ExitCode.providerFailure)
        #expect(Self.lastLine(result.stderr) == "✗ Sign-in cancelled at the provider: access_denied")
    }

    @Test func anIssuerMismatchShowsBothIssuers() throws {
        let result = try login(issuer: "https://a.example", query: "code=SECRET_code1&state=STATE&iss=https%3A%2F%2Fa.example%2F")
        #expect(result.exit == ExitCode.rejected)
        #expect(
            Self.lastLine(result.stderr)
                == "✗ Refused: issuer_mismatch: the server said https://a.example/, expected https://a.example (the 'iss' parameter, RFC 9207)"
        )
        #expect(result.stderr.ranges(of: "https://a.example/").count == 1, "the server's issuer, once")
        #expect(!result.stderr.contains("SECRET_code1"), "the code stays off stderr")
    }

    @Test(arguments: [
        (JSONValue.object([("outcome", .string("authorization_code")), ("code", .string("x"))]), "✓ Signed in at idp.example"),
        (
            JSONValue.object([("outcome", .string("rejected")), ("reason", .string("timeout")), ("detail", .string("no callback"))]),
            "✗ Not signed in: timeout: no callback"
        ),
        (
            JSONValue.object([("outcome", .string("authorization_error")), ("error", .string("server_error"))]),
            "✗ The provider refused the sign-in: server_error"
        ),
        (
            JSONValue.object([("outcome", .string("token_error")), ("error", .string("invalid_grant"))]),
            "✗ The token endpoint refused the code: invalid_grant"
        ),
    ])
    func linesFromOutcomes(_ value: JSONValue, _ expected: String) {
        #expect(SignInSummary.line(for: value, place: "idp.example", colour: false) == expected)
    }

    @Test func coloursOnlyWhenAsked() {
        let value = JSONValue.object([("outcome", .string("authorization_code"))])
        #expect(SignInSummary.line(for: value, place: "p", colour: true).contains("\u{1B}["))
        #expect(!SignInSummary.line(for: value, place: "p", colour: false).contains("\u{1B}"))
    }

    @Test func anEscapeSequenceFromACallbackDoesNotReachTheTerminal() {
        let value = JSONValue.object([("outcome", .string("authorization_code")), ("iss", .string("https://x\u{1B}]0;pwned\u{07}"))])
        let line = SignInSummary.line(for: value, place: "p", colour: false)
        #expect(!line.contains("\u{1B}") && !line.contains("\u{07}"))
    }

    /// One escaper (the library's): a provider's value that holds a literal `\u{1b}` does
    /// not read like one that held an escape byte (the CLI's old copy left `\` as is, so
    /// both showed `\u{1b}`).
    @Test func aProvidersValueReadsBackOneWay() {
        let escape = JSONValue.object([("outcome", .string("authorization_code")), ("iss", .string("https://x\u{1B}"))])
        let literal = JSONValue.object([("outcome", .string("authorization_code")), ("iss", .string(#"https://x\u{1b}"#))])
        let escapeLine = SignInSummary.line(for: escape, place: "p", colour: false)
        let literalLine = SignInSummary.line(for: literal, place: "p", colour: false)
        #expect(escapeLine == #"✓ Signed in at https://x\u{1b}"#)
        #expect(literalLine == #"✓ Signed in at https://x\u{5c}u{1b}"#)
        #expect(SignInSummary.line(for: literal, place: "p", colour: false) != escapeLine)
    }

    /// The detail the library wrote is shown as written: its issuers were escaped by the same
    /// escaper, so the expected issuer is found in it and not repeated (the old copy escaped
    /// the expected issuer its own way, missed it, and added it again).
    @Test func anIssuerTheDetailAlreadyNamesIsNotRepeated() {
        let expected = #"https://a.example/\tenant"#
        let detail =
            "the server said \(CallbackError.printable("https://b.example")), expected \(CallbackError.printable(expected)) (the 'iss' parameter, RFC 9207)"
        let value = JSONValue.object([
            ("outcome", .string("rejected")), ("reason", .string("issuer_mismatch")), ("detail", .string(detail)),
        ])
        let line = SignInSummary.line(for: value, place: "p", expectedIssuer: expected, colour: false)
        #expect(
            line
                == #"✗ Refused: issuer_mismatch: the server said https://b.example, expected https://a.example/\u{5c}tenant (the 'iss' parameter, RFC 9207)"#
        )
        let withoutIssuers = JSONValue.object([
            ("outcome", .string("rejected")), ("reason", .string("issuer_mismatch")), ("detail", .string("the issuer differs")),
        ])
        #expect(
            SignInSummary.line(for: withoutIssuers, place: "p", expectedIssuer: expected, colour: false)
                == #"✗ Refused: issuer_mismatch: the issuer differs; expected https://a.example/\u{5c}tenant"#)
    }

    @Test func textTheLibraryWroteIsEscapedOnlyWhenItIsNotPrintable() {
        #expect(SignInSummary.shown(#"the server said a\u{5c}b"#) == #"the server said a\u{5c}b"#)
        #expect(SignInSummary.shown("cut after 200 scalars…") == "cut after 200 scalars…")
        #expect(SignInSummary.shown("bell\u{7}") == #"bell\u{7}"#)
    }
}
