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

import CallbackTestSupport
import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackRouter

/// `callback-router parse`, run in-process: design.md's JSON and exit codes.
@Suite struct ParseCommandTests {
    struct Run {
        let exit: Int32
        let stdout: String
        let stderr: String
    }

    func parse(_ arguments: [String]) -> Run {
        let output = CapturedOutput()
        let context = CommandContext(output: output, environment: [:], executablePath: "/usr/bin/callback-router")
        let exit = CallbackRouterTool.run(["parse"] + arguments, context: context)
        return Run(exit: exit, stdout: output.stdout, stderr: output.stderr)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let arguments: [String]
        let exit: Int32
        let json: String
        /// Whether a `--redirect-uri` scheme without a dot makes `parse` warn on stderr.
        var warns = false
        var testDescription: String { source }
    }

    static let cases: [Case] = [
        // Issue 25: Clerk as its SDKs answer, the policy a dialect implies, Ory's flow.
        Case(
            source: "Clerk: cancelled or denied is a provider failure, unbound",
            arguments: [
                "--dialect", "clerk", "--redirect-uri", "com.example.app://callback",
                "com.example.app://callback?__clerk_status=failed&__clerk_error_code=oauth_access_denied",
            ],
            exit: 1,
            json:
                #"{"outcome":"clerk_failure","dialect":"clerk","__clerk_status":"failed","__clerk_error_code":"oauth_access_denied","unbound":true,"extra":{}}"#
        ),
        Case(
            source: "Clerk: an unknown code is normalised (never shown)",
            arguments: ["--dialect", "clerk", "com.example.app://callback?__clerk_status=failed&__clerk_error_code=%22%3E%3Cimg%3E"],
            exit: 1,
            json:
                #"{"outcome":"clerk_failure","dialect":"clerk","__clerk_status":"failed","__clerk_error_code":"oauth_callback_failed","unbound":true,"extra":{}}"#
        ),
        Case(
            source: "Clerk: transfer to sign-up is no failure",
            arguments: [
                "--dialect", "clerk", "com.example.app://callback?__clerk_status=failed&__clerk_error_code=external_account_not_found",
            ],
            exit: 0,
            json:
                #"{"outcome":"account_transfer","dialect":"clerk","__clerk_status":"failed","__clerk_error_code":"external_account_not_found","unbound":true,"extra":{}}"#
        ),
        Case(
            source: "Clerk: a bare callback says ask Clerk",
            arguments: ["--dialect", "clerk", "--redirect-uri", "com.example.app://callback", "com.example.app://callback"],
            exit: 0,
            json: #"{"outcome":"bare_callback","dialect":"clerk","unbound":true,"extra":{}}"#),
        Case(
            source: "Clerk: a magic link, in the fragment",
            arguments: ["--dialect", "clerk", "com.example.app://callback#flow_id=flw_1&approval_token=apt_1"],
            exit: 0,
            json: #"{"outcome":"magic_link","dialect":"clerk","flow_id":"flw_1","approval_token":"apt_1","extra":{}}"#),
        Case(
            source: "Clerk: hosted auth without a created session",
            arguments: [
                "--dialect", "clerk", "--profile", "clerk-hosted", "--state", "s1",
                "com.example.app://callback?state=s1&rotating_token_nonce=n1",
            ],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"missing_parameter","detail":"the clerk dialect requires 'created_session_id' for rotating_token_nonce","offset":null}"#
        ),
        Case(
            source: "Prelude implies custom-scheme-only: an https --redirect-uri is a configuration error",
            arguments: [
                "--dialect", "prelude", "--redirect-uri", "https://app.example.com/cb",
                "https://app.example.com/cb?challenge_token=\(preludeToken("ct_1"))",
            ],
            exit: 64,
            json:
                #"{"outcome":"rejected","reason":"invalid_configuration","detail":"--redirect-uri #1: rule custom_scheme_required: this policy accepts only a custom scheme (myapp://callback), not https","offset":null}"#
        ),
        Case(
            source: "Clerk implies custom-scheme-only even with --policy native",
            arguments: [
                "--dialect", "clerk", "--policy", "native", "--redirect-uri", "http://127.0.0.1:8080/cb",
                "http://127.0.0.1:8080/cb?rotating_token_nonce=n",
            ],
            exit: 64,
            json:
                #"{"outcome":"rejected","reason":"invalid_configuration","detail":"--redirect-uri #1: rule custom_scheme_required: this policy accepts only a custom scheme (myapp://callback), not http","offset":null}"#
        ),
        Case(
            source: "Prelude without --redirect-uri: an http callback is refused by the implied policy",
            arguments: ["--dialect", "prelude", "http://127.0.0.1:8080/cb?challenge_token=\(preludeToken("ct_1"))"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"scheme_not_allowed","detail":"rule custom_scheme_required: this policy accepts only a custom scheme (myapp://callback), not http","offset":null}"#
        ),
        Case(
            source: "Ory: flow is a named field",
            arguments: ["--dialect", "ory", "myapp://callback?code=ory_ret_1&flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c"],
            exit: 0,
            json:
                #"{"outcome":"session_token_exchange_code","dialect":"ory","code":"ory_ret_1","flow":"5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c","extra":{}}"#
        ),
        Case(
            source: "Ory account linking: the login flow to continue, exit 0 (kratos: return_to?flow=…&no_org_ui=true, no code)",
            arguments: ["--dialect", "ory", "myapp://callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&no_org_ui=true"],
            exit: 0,
            json:
                #"{"outcome":"continue_login_flow","dialect":"ory","flow":"5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c","extra":{"no_org_ui":"true"}}"#
        ),
        Case(
            source: "Ory: a flow id that is no UUID",
            arguments: ["--dialect", "ory", "myapp://callback?flow=5b1e3c2a"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"invalid_parameter","detail":"the parameter 'flow' is not a flow id as Kratos writes it (a lowercase UUID, 8-4-4-4-12 hex digits)","offset":22}"#
        ),
        Case(
            source: "Prelude: a token that is no compact JWS (both SDKs throw invalidChallengeToken)",
            arguments: ["--dialect", "prelude", "myapp://oauth-callback?challenge_token=ct_9f8e7d6c5b4a"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"invalid_parameter","detail":"the parameter 'challenge_token' is not a compact JWS (three base64url segments joined by '.'), which both Prelude SDKs require","offset":39}"#
        ),
        Case(
            source: "Prelude: an empty error is ignored, as both SDKs read it",
            arguments: ["--dialect", "prelude", "myapp://oauth-callback?error=&challenge_token=\(preludeToken("t"))"],
            exit: 0,
            json: #"{"outcome":"challenge_token","dialect":"prelude","challenge_token":"\#(preludeToken("t"))","extra":{"error":""}}"#),
        Case(
            source: "Clerk: an empty nonce is none (a bare callback)",
            arguments: ["--dialect", "clerk", "myapp://callback?rotating_token_nonce="],
            exit: 0,
            json: #"{"outcome":"bare_callback","dialect":"clerk","unbound":true,"extra":{"rotating_token_nonce":""}}"#),
        Case(
            source: "Clerk: a magic link with '/' added to the path, as clerk-ios reads it",
            arguments: [
                "--dialect", "clerk", "--redirect-uri", "com.clerk.Quickstart://callback",
                "com.clerk.Quickstart://callback/?flow_id=flow_123&approval_token=approval_123",
            ],
            exit: 0,
            json: #"{"outcome":"magic_link","dialect":"clerk","flow_id":"flow_123","approval_token":"approval_123","extra":{}}"#),
        Case(
            source: "Clerk: a magic link split across query and fragment",
            arguments: ["--dialect", "clerk", "myapp://callback?flow_id=flw_1#approval_token=apt_2"],
            exit: 0,
            json: #"{"outcome":"magic_link","dialect":"clerk","flow_id":"flw_1","approval_token":"apt_2","extra":{}}"#),
        Case(
            source: "Clerk: a whitespace-only approval token is missing",
            arguments: ["--dialect", "clerk", "myapp://callback?flow_id=flw_1&approval_token=%20"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"missing_parameter","detail":"the clerk dialect requires 'approval_token' for magic_link (it is blank)","offset":null}"#
        ),
        Case(
            source: "the trailing '/' stays a mismatch on another dialect",
            arguments: [
                "--dialect", "oauth2", "--redirect-uri", "com.clerk.Quickstart://callback",
                "com.clerk.Quickstart://callback/?flow_id=flow_123&approval_token=approval_123",
            ],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"redirect_uri_mismatch","detail":"the callback's path differs from the registered redirect URI","offset":null}"#
        ),
        Case(
            source: "AppAuth callback with the expected state",
            arguments: [
                "--dialect", "oauth2", "--redirect-uri", "com.example.app:/oauth2redirect", "--state", "af0ifjsldkj",
                "com.example.app:/oauth2redirect?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj",
            ],
            exit: 0,
            json: #"{"outcome":"authorization_code","dialect":"oauth2","code":"SplxlOBeZQQYbYS6WxSbIA","state":"af0ifjsldkj","extra":{}}"#),
        Case(
            source: "auto picks oauth2; Google's extras",
            arguments: ["com.googleusercontent.apps.1-a:/oauth2redirect?state=s&code=4/0A&scope=email%20openid&authuser=0"],
            exit: 0,
            json:
                #"{"outcome":"authorization_code","dialect":"oauth2","code":"4/0A","state":"s","extra":{"scope":"email openid","authuser":"0"}}"#
        ),
        Case(
            source: "Auth0 callback with iss required",
            arguments: [
                "--redirect-uri", "com.example.app://example.us.auth0.com/ios/com.example.app/callback",
                "--issuer", "https://example.us.auth0.com/", "--require-issuer",
                "com.example.app://example.us.auth0.com/ios/com.example.app/callback?code=c&state=s&iss=https%3A%2F%2Fexample.us.auth0.com%2F",
            ],
            exit: 0,
            json:
                #"{"outcome":"authorization_code","dialect":"oauth2","code":"c","state":"s","iss":"https://example.us.auth0.com/","extra":{}}"#
        ),
        Case(
            source: "Prelude under custom-scheme-only",
            arguments: [
                "--dialect", "prelude", "--policy", "custom-scheme-only", "--redirect-uri", "myapp://oauth-callback",
                "myapp://oauth-callback?challenge_token=\(preludeToken("ct_1"))",
            ],
            exit: 0, json: #"{"outcome":"challenge_token","dialect":"prelude","challenge_token":"\#(preludeToken("ct_1"))","extra":{}}"#,
            warns: true),
        Case(
            source: "Ory return_to with localhost allowed",
            arguments: [
                "--dialect", "ory", "--allow-localhost", "--redirect-uri", "http://localhost:19006/Callback",
                "http://localhost:19006/Callback?code=ory_sec_1",
            ],
            exit: 0, json: #"{"outcome":"session_token_exchange_code","dialect":"ory","code":"ory_sec_1","extra":{}}"#),
        Case(
            source: "Zephr success",
            arguments: ["--dialect", "zephr", "my-app:/oauthRedirect?action=login&status=success&tracking_id=1234&session_id=5678"],
            exit: 0,
            json:
                #"{"outcome":"login_success","dialect":"zephr","action":"login","status":"success","session_id":"5678","tracking_id":"1234","extra":{}}"#
        ),
        Case(
            source: "Zephr partial registration",
            arguments: ["my-app:/oauthRedirect?action=register&status=partial&state_key=k1&identifier=user@example.com"],
            exit: 0,
            json:
                #"{"outcome":"partial_registration","dialect":"zephr","action":"register","status":"partial","state_key":"k1","identifier":"user@example.com","extra":{}}"#
        ),
        Case(
            source: "Zephr failure exits 1",
            arguments: ["--dialect", "zephr", "my-app:/oauthRedirect?action=login&status=failure&message=Denied"],
            exit: 1,
            json: #"{"outcome":"login_failure","dialect":"zephr","action":"login","status":"failure","message":"Denied","extra":{}}"#),
        Case(
            source: "Clerk nonce",
            arguments: [
                "--dialect", "clerk", "--redirect-uri", "com.example.app://callback",
                "com.example.app://callback?rotating_token_nonce=rtn_1&created_session_id=sess_1",
            ],
            exit: 0,
            json:
                #"{"outcome":"rotating_token_nonce","dialect":"clerk","rotating_token_nonce":"rtn_1","created_session_id":"sess_1","extra":{}}"#
        ),
        Case(
            source: "Azure AD error: CR LF text withheld, exit 1",
            arguments: [
                "--state", "12345",
                "https://app.example.com/cb?error=invalid_request&error_description=AADSTS50011%3a+x%0d%0aTrace+ID%3a+y&state=12345",
            ],
            exit: 1,
            json:
                #"{"outcome":"authorization_error","dialect":"oauth2","state":"12345","error":"invalid_request","withheld":["error_description"],"extra":{}}"#
        ),
        Case(
            source: "extras are JSON-escaped",
            arguments: ["myapp://cb?code=c&note=a%22b%5Cc%0A"],
            exit: 0, json: #"{"outcome":"authorization_code","dialect":"oauth2","code":"c","extra":{"note":"a\"b\\c\n"}}"#),
        Case(
            source: "fragment response mode",
            arguments: ["--response-mode", "fragment", "com.example.app:/cb#code=c&state=s"],
            exit: 0, json: #"{"outcome":"authorization_code","dialect":"oauth2","code":"c","state":"s","extra":{}}"#),
        // Refusals.
        Case(
            source: "state mismatch",
            arguments: ["--state", "expected", "myapp://cb?code=c&state=forged"],
            exit: 65,
            json: #"{"outcome":"rejected","reason":"state_mismatch","detail":"the state is not the one this login sent","offset":24}"#),
        Case(
            source: "a forged error with the wrong state is refused, not reported",
            arguments: ["--state", "expected", "myapp://cb?error=access_denied&state=forged"],
            exit: 65,
            json: #"{"outcome":"rejected","reason":"state_mismatch","detail":"the state is not the one this login sent","offset":37}"#),
        Case(
            source: "bad --redirect-uri is invalid_configuration, exit 64",
            arguments: [
                "--policy", "custom-scheme-only", "--redirect-uri", "myapp://cb", "--redirect-uri", "https://app.example.com/cb",
                "myapp://cb?challenge_token=\(preludeToken("t"))",
            ],
            exit: 64,
            json:
                #"{"outcome":"rejected","reason":"invalid_configuration","detail":"--redirect-uri #2: rule custom_scheme_required: this policy accepts only a custom scheme (myapp://callback), not https","offset":null}"#,
            warns: true),
        Case(
            source: "redirect URI mismatch",
            arguments: ["--redirect-uri", "myapp://oauth-callback", "myapp://evil?code=c"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"redirect_uri_mismatch","detail":"the callback's host differs from the registered redirect URI","offset":null}"#,
            warns: true),
        Case(
            source: "http under custom-scheme-only",
            arguments: ["--policy", "custom-scheme-only", "HTTPS://app.example.com/cb?challenge_token=\(preludeToken("t"))"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"scheme_not_allowed","detail":"rule custom_scheme_required: this policy accepts only a custom scheme (myapp://callback), not https","offset":null}"#
        ),
        Case(
            source: "a parse failure keeps its reason and offset",
            arguments: ["myapp://cb?code=%zz"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"invalid_percent_encoding","detail":"'%' in the query is not followed by two hexadecimal digits","offset":16}"#
        ),
        Case(
            source: "limits are honoured",
            arguments: ["--max-parameters", "1", "myapp://cb?code=c&state=s"],
            exit: 65,
            json: #"{"outcome":"rejected","reason":"too_many_parameters","detail":"more than 1 parameters","offset":18}"#),
        Case(
            source: "issuer required and missing",
            arguments: ["--require-issuer", "myapp://cb?code=c"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"issuer_missing","detail":"the authorization server sends 'iss' (RFC 9207) and the callback has none","offset":null}"#
        ),
        Case(
            source: "implicit grant",
            arguments: ["myapp://cb#access_token=t&token_type=Bearer"],
            exit: 65,
            json:
                #"{"outcome":"rejected","reason":"implicit_grant_not_supported","detail":"the callback carries 'access_token': tokens in a URL (the implicit or hybrid grant) are refused; use the authorization code flow with PKCE","offset":11}"#
        ),
    ]

    @Test(arguments: cases)
    func printsOneJSONObjectAndItsExitCode(_ testCase: Case) {
        let run = parse(testCase.arguments)
        #expect(run.exit == testCase.exit)
        #expect(run.stdout == testCase.json + "\n")
        if testCase.warns {
            #expect(
                run.stderr.hasPrefix("callback-router: parse: warning: --redirect-uri #1: the scheme 'myapp' is not a reverse domain name"))
        } else if testCase.exit == 0 {
            #expect(run.stderr.isEmpty)
        } else {
            #expect(run.stderr.hasPrefix("callback-router: parse: ✗ "), "one human line ends every failure")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func reportsWhereABadRedirectURIIsInIt() {
        let run = parse(["--redirect-uri", "com.example.app:/cb?x=%zz", "com.example.app:/cb?code=c"])
        #expect(run.exit == 64)
        #expect(
            run.stdout.hasPrefix(
                #"{"outcome":"rejected","reason":"invalid_configuration","detail":"--redirect-uri #1: rule syntax: the redirect URI does not parse: "#
            ))
        #expect(run.stdout.hasSuffix(#","offset":22}"# + "\n"))
    }

    @Test(arguments: [
        ["--dialect", "github", "myapp://cb?code=c"],
        ["--policy", "strict", "myapp://cb?code=c"],
        ["--response-mode", "form_post", "myapp://cb?code=c"],
        ["--state", "", "myapp://cb?code=c"],
        ["--issuer", "", "myapp://cb?code=c"],
        ["--state", "a", "--state", "b", "myapp://cb?code=c"],
        ["--max-length", "0", "myapp://cb?code=c"],
        ["--unknown", "myapp://cb?code=c"],
        ["--require-issuer=yes", "myapp://cb?code=c"],
        ["--dialect"],
        [],
        ["myapp://a?code=c", "myapp://b?code=c"],
    ])
    func refusesBadUsageWithExit64(_ arguments: [String]) {
        let run = parse(arguments)
        #expect(run.exit == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("callback-router: parse: "))
        #expect(run.stderr.contains("Try 'callback-router parse --help'."))
    }

    @Test func helpDocumentsEveryOption() {
        let run = parse(["--help"])
        #expect(run.exit == 0)
        for option in [
            "--dialect", "--redirect-uri", "--policy", "--allow-localhost", "--state", "--issuer", "--require-issuer",
            "--response-mode", "--max-length", "--max-parameters", "--max-value-length",
        ] {
            #expect(run.stdout.contains(option), "\(option)")
        }
        for dialect in Dialect.allCases { #expect(run.stdout.contains(dialect.rawValue)) }
        for kind in OutcomeKind.allCases { #expect(run.stdout.contains(kind.rawValue)) }
    }

    @Test func helpExamplesWork() {
        let run = parse([
            "--dialect", "oauth2", "--redirect-uri", "com.example.app:/oauth2redirect", "--state", "af0ifjsldkj",
            "com.example.app:/oauth2redirect?code=SplxlOBe&state=af0ifjsldkj",
        ])
        #expect(run.exit == 0)
        #expect(parse(["--policy", "custom-scheme-only", "myapp://oauth-callback?challenge_token=\(preludeToken("ct_1"))"]).exit == 0)
    }

    @Test func stderrAndStdoutNeverCarryASecretOnRefusal() {
        let run = parse(["--state", "SECRETexpected", "myapp://cb?code=SECRETcode&state=SECRETforged"])
        #expect(run.exit == 65)
        #expect(!run.stdout.contains("SECRET"))
        #expect(!run.stderr.contains("SECRET"))
    }

    @Test func exitCodesFollowDesign() throws {
        let failure = try CallbackClassifier.classify(CallbackURL(parsing: "myapp://cb?error=access_denied"), dialect: .auto)
        #expect(Rendering.exitCode(for: failure) == 1)
        let success = try CallbackClassifier.classify(CallbackURL(parsing: "myapp://cb?code=c"), dialect: .auto)
        #expect(Rendering.exitCode(for: success) == 0)
        #expect(Rendering.exitCode(for: CallbackError(.invalidConfiguration, "x")) == 64)
        #expect(Rendering.exitCode(for: CallbackError(.stateMismatch, "x")) == 65)
        #expect(Rendering.exitCode(for: CallbackError(.noRoute, "x")) == 69)
        #expect(Rendering.exitCode(for: CallbackError(.conflict, "x")) == 75)
        #expect(Rendering.exitCode(for: CallbackError(.timeout, "x")) == 75)
    }
}
