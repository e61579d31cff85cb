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

@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackTestSupport
import Testing

/// "Prints the callback as parse does": the outcome line and exit code of `loopback` are
/// those of `callback-router parse --dialect D --state S --redirect-uri <the loopback URI>
/// URL` for the URL the browser requested.
@Suite struct LoopbackParseEquivalenceTests {
    static let state = "Equiv-state_0123456789abcdefghijklmnopqrstu"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let options: [String]
        let target: String
        let exitCode: Int32
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "oauth2 code", options: ["--dialect", "oauth2", "--state", state],
            target: "/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=\(state)", exitCode: 0),
        Case(
            name: "auto code with iss and extras", options: ["--state", state, "--issuer", "https://issuer.example"],
            target: "/callback?code=c1&state=\(state)&iss=https%3A%2F%2Fissuer.example&session_state=xyz&scope=openid+email",
            exitCode: 0),
        Case(
            name: "provider error", options: ["--state", state],
            target: "/callback?error=access_denied&error_description=The+user+said+no&state=\(state)", exitCode: 1),
        Case(
            name: "provider error with withheld text", options: ["--state", state],
            target: "/callback?error=access_denied&error_description=%E2%80%AE%01&state=\(state)", exitCode: 1),
        Case(
            name: "issuer mismatch", options: ["--state", state, "--issuer", "https://issuer.example"],
            target: "/callback?code=c1&state=\(state)&iss=https%3A%2F%2Fevil.example", exitCode: 65),
        Case(
            name: "issuer required", options: ["--state", state, "--issuer", "https://issuer.example", "--require-issuer"],
            target: "/callback?code=c1&state=\(state)", exitCode: 65),
        Case(
            name: "ambiguous", options: ["--dialect", "oauth2", "--state", state],
            target: "/callback?code=c1&error=server_error&state=\(state)", exitCode: 65),
        Case(
            name: "implicit grant", options: ["--state", state],
            target: "/callback?access_token=t&state=\(state)", exitCode: 65),
        // (Prelude and Clerk accept only a custom-scheme redirect, so `parse` refuses their
        // dialects with a loopback --redirect-uri since issue 25: Zephr and Ory's flow instead.)
        Case(
            name: "zephr without state", options: ["--dialect", "zephr", "--no-state"],
            target: "/callback?action=login&status=success&tracking_id=t1&session_id=sess_2", exitCode: 0),
        Case(
            name: "ory with its flow", options: ["--dialect", "ory", "--no-state"],
            target: "/callback?code=ory_code_2&flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c", exitCode: 0),
        Case(
            name: "ory account linking: the login flow to continue", options: ["--dialect", "ory", "--no-state"],
            target: "/callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&no_org_ui=true", exitCode: 0),
        Case(
            name: "ory without state", options: ["--dialect", "ory", "--no-state"],
            target: "/callback?code=ory_code_1", exitCode: 0),
    ]

    @Test(arguments: cases)
    func outcomeLineEqualsParse(_ example: Case) throws {
        let run = try RunningLoopback(example.options + ["--timeout", "20"])
        _ = try RawClient.get(port: run.port, example.target)
        let code = run.waitForExit()
        #expect(code == example.exitCode)

        var parseArguments = ["parse", "--redirect-uri", run.redirectURI]
        var options = example.options[...]
        while let option = options.popFirst() {
            switch option {
            case "--no-state": continue
            case "--require-issuer": parseArguments.append(option)
            default:
                parseArguments.append(option)
                if let value = options.popFirst() { parseArguments.append(value) }
            }
        }
        let url = "http://127.0.0.1:\(run.port)" + example.target
        let output = CapturedOutput()
        let parseCode = CallbackRouterTool.run(
            parseArguments + [url],
            context: CommandContext(output: output, environment: [:], executablePath: "/x"))
        #expect(parseCode == code)
        #expect(run.lastLine + "\n" == output.stdout)
    }

    @Test func everyCaseRan() {
        #expect(Self.cases.count == 12)
        #expect(Set(Self.cases.map(\.exitCode)) == [0, 1, 65])
    }
}
