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

import Testing
import CallbackRouter
@testable import CallbackRouterCLI
@testable import CallbackRouterKit

private let hint = "eyJhbGciOiJSUzI1NiJ9.eyJTRUNSRVQiOjF9.SECRETsig"

/// `callback-router end-session-url`: the request URL and its state; the hint only on stdin.
@Suite struct EndSessionURLCommandTests {
    @Test func printsTheURLAndAFreshStateWithTheHintFromStandardInput() throws {
        let run = PKCECommandTests.run(
            [
                "end-session-url", "--endpoint", "https://op.example.com/logout",
                "--post-logout-redirect-uri", "com.example.app:/logout", "--id-token-hint-from-stdin",
                "--ui-locales", "de", "--param", "federated=1",
            ], stdin: hint + "\n")
        #expect(run.code == ExitCode.success, "\(run.err)")
        let prefix =
            #"{"url":"https://op.example.com/logout?id_token_hint="# + hint
            + "&post_logout_redirect_uri=com.example.app%3A%2Flogout&state="
        #expect(run.out.hasPrefix(prefix), "\(run.out)")
        let state = String(run.out.dropFirst(prefix.count).prefix(43))
        #expect(run.out == prefix + state + #"&ui_locales=de&federated=1","state":""# + state + "\"}\n")
        #expect(run.err.isEmpty)
    }

    /// An ID token with many claims (groups, roles) runs past 4096 bytes; the stdin line
    /// takes what the library takes (8192 bytes), and no more.
    @Test(arguments: [(6000, ExitCode.success), (8192, ExitCode.success), (8193, ExitCode.usage)])
    func takesAHintAsLongAsTheLibraryDoes(_ length: Int, _ code: Int32) {
        let prefix = "eyJhbGciOiJSUzI1NiJ9.", signature = ".SECRETsig"
        let long = prefix + String(repeating: "A", count: length - prefix.count - signature.count) + signature
        let run = PKCECommandTests.run(
            [
                "end-session-url", "--endpoint", "https://op.example.com/logout",
                "--post-logout-redirect-uri", "com.example.app:/logout", "--id-token-hint-from-stdin",
            ], stdin: long + "\n")
        #expect(run.code == code, "\(run.err)")
        #expect(!run.err.contains("SECRET"))
        if code == ExitCode.success { #expect(run.out.contains("id_token_hint=" + long + "&")) }
    }

    @Test func statesAreFresh() {
        let arguments = [
            "end-session-url", "--endpoint", "https://op.example.com/logout",
            "--post-logout-redirect-uri", "com.example.app:/logout", "--client-id", "abc",
        ]
        let a = PKCECommandTests.run(arguments), b = PKCECommandTests.run(arguments)
        #expect(a.code == 0 && b.code == 0 && a.out != b.out)
    }

    @Test func takesNoHintFromTheCommandLine() {
        let run = PKCECommandTests.run([
            "end-session-url", "--endpoint", "https://op.example.com/logout",
            "--post-logout-redirect-uri", "com.example.app:/logout", "--id-token-hint", hint,
        ])
        #expect(run.code == ExitCode.usage)
        #expect(!run.err.contains("SECRET") && !run.out.contains("SECRET"))
    }

    @Test(arguments: ["not-a-jwt\n", "a.b\n", ""])
    func refusesABadHintWithoutEchoingIt(_ input: String) {
        let run = PKCECommandTests.run(
            [
                "end-session-url", "--endpoint", "https://op.example.com/logout",
                "--post-logout-redirect-uri", "com.example.app:/logout", "--id-token-hint-from-stdin",
            ],
            stdin: input)
        #expect(run.code == ExitCode.usage)
        #expect(!run.out.contains("not-a-jwt") && !run.err.contains("not-a-jwt"))
    }

    @Test func needsAClientIDWithoutAHint() {
        let run = PKCECommandTests.run([
            "end-session-url", "--endpoint", "https://op.example.com/logout",
            "--post-logout-redirect-uri", "com.example.app:/logout",
        ])
        #expect(run.code == ExitCode.usage)
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"invalid_configuration""#))
    }

    @Test func buildsAuth0sReturnToLogout() {
        let run = PKCECommandTests.run([
            "end-session-url", "--endpoint", "https://t.auth0.com/v2/logout", "--style", "auth0-return-to",
            "--post-logout-redirect-uri", "com.example.app:/logout", "--client-id", "abc",
        ])
        #expect(run.code == ExitCode.success)
        #expect(
            run.out == #"{"url":"https://t.auth0.com/v2/logout?client_id=abc&returnTo=com.example.app%3A%2Flogout","state":null}"# + "\n")
    }

    @Test(arguments: [
        ["--post-logout-redirect-uri", "com.example.app:/logout"],
        ["--endpoint", "https://op.example.com/logout"],
        ["--endpoint", "https://op.example.com/logout", "--post-logout-redirect-uri", "x:/l", "--style", "nope"],
        ["--endpoint", "https://op.example.com/logout", "--post-logout-redirect-uri", "x:/l", "--param", "novalue"],
        ["--endpoint", "https://op.example.com/logout", "--post-logout-redirect-uri", "x:/l", "--client-id", "a", "--client-id", "b"],
        ["--endpoint", "https://op.example.com/logout", "--post-logout-redirect-uri", "x:/l", "stray"],
    ])
    func refusesBadUsage(_ arguments: [String]) {
        #expect(PKCECommandTests.run(["end-session-url"] + arguments).code == ExitCode.usage)
    }

    @Test func refusesABadRedirectURI() {
        let run = PKCECommandTests.run([
            "end-session-url", "--endpoint", "https://op.example.com/logout",
            "--post-logout-redirect-uri", "https://app.example.com/logout", "--client-id", "abc",
            "--policy", "custom-scheme-only",
        ])
        #expect(run.code == ExitCode.usage)
        #expect(run.out.contains("--post-logout-redirect-uri"))
    }

    @Test func hasHelp() {
        let run = PKCECommandTests.run(["end-session-url", "--help"])
        #expect(run.code == 0)
        for option in [
            "--endpoint", "--post-logout-redirect-uri", "--client-id", "--id-token-hint-from-stdin",
            "--logout-hint", "--ui-locales", "--param", "--style", "--policy", "--allow-localhost",
        ] {
            #expect(run.out.contains(option))
        }
        #expect(PKCECommandTests.run(["--help"]).out.contains("end-session-url"))
    }
}

/// `callback-router parse --logout`.
@Suite struct ParseLogoutCommandTests {
    @Test(arguments: [
        (
            ["--state", "st", "com.example.app:/logout?state=st"], ExitCode.success,
            #"{"outcome":"logout_complete","dialect":"oauth2","state":"st","extra":{}}"#
        ),
        (
            ["--state", "st", "--redirect-uri", "com.example.app:/logout", "com.example.app:/logout?state=st&sid=9"], ExitCode.success,
            #"{"outcome":"logout_complete","dialect":"oauth2","state":"st","extra":{"sid":"9"}}"#
        ),
        (
            ["--no-state", "com.example.app:/logout"], ExitCode.success,
            #"{"outcome":"logout_complete","dialect":"oauth2","unbound":true,"extra":{}}"#
        ),
        (
            ["--state", "st", "com.example.app:/logout?state=other"], ExitCode.rejected,
            #"{"outcome":"rejected","reason":"state_mismatch","detail":"the state is not the one this logout sent","offset":30}"#
        ),
        (
            ["--state", "st", "com.example.app:/logout"], ExitCode.rejected,
            #"{"outcome":"rejected","reason":"state_missing","detail":"the logout's state was expected and the callback has none","offset":null}"#
        ),
        (
            ["--state", "st", "com.example.app:/logout?code=c&state=st"], ExitCode.rejected,
            #"{"outcome":"rejected","reason":"invalid_parameter","detail":"the callback carries 'code', which belongs to a login's response: it is not the end of a logout","offset":24}"#
        ),
        (
            ["--state", "st", "--redirect-uri", "com.example.app:/logout", "com.example.app:/other?state=st"], ExitCode.rejected,
            "redirect_uri_mismatch"
        ),
    ])
    func readsTheEndOfALogout(_ arguments: [String], _ exit: Int32, _ json: String) {
        let run = PKCECommandTests.run(["parse", "--logout"] + arguments)
        #expect(run.code == exit, "\(run.out)\(run.err)")
        if json.hasPrefix("{") { #expect(run.out == json + "\n") } else { #expect(run.out.contains(json)) }
    }

    @Test(arguments: [
        ["--logout", "x:/l?state=s"],
        ["--logout", "--state", "s", "--no-state", "x:/l?state=s"],
        ["--no-state", "x:/l?code=c"],
        ["--logout", "--state", "s", "--issuer", "https://i", "x:/l?state=s"],
        ["--logout", "--state", "s", "--require-issuer", "x:/l?state=s"],
        ["--logout", "--state", "s", "--response-mode", "fragment", "x:/l?state=s"],
    ])
    func refusesBadUsage(_ arguments: [String]) {
        let run = PKCECommandTests.run(["parse"] + arguments)
        #expect(run.code == ExitCode.usage, "\(run.out)")
    }

    @Test func aLoginCallbackIsNoLogoutAndTheReverse() {
        #expect(PKCECommandTests.run(["parse", "--state", "st", "x.y:/l?state=st"]).code == ExitCode.rejected)
        #expect(
            PKCECommandTests.run(["parse", "--logout", "--state", "st", "x.y:/l?error=access_denied&state=st"]).code == ExitCode.rejected)
    }
}
