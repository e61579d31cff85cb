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
@testable import CallbackDesktop
import CallbackRouter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// A fake `curl` on PATH: it records its argv, environment and stdin (call N in
/// `argv.N`, `env.N`, `stdin.N`) and answers with `discovery.response` or `token.response`
/// (the head and body as curl's `--dump-header -` prints them), exiting with `*.exit`.
struct FakeCurl {
    let directory = TemporaryDirectory()
    var path: String { directory.path }
    var environment: [String: String] { ["PATH": directory.path + ":/usr/bin:/bin", "HOME": directory.path] }

    init() throws {
        let script = """
            #!/bin/sh
            dir=$(dirname "$0")
            n=$(ls "$dir" | grep -c '^argv\\.')
            printf '%s\\n' "$@" > "$dir/argv.$n"
            env > "$dir/env.$n"
            cat > "$dir/stdin.$n"
            case "$(sed -n 's/^url = "\\(.*\\)"$/\\1/p' "$dir/stdin.$n")" in
              *openid-configuration) kind=discovery ;;
              *) kind=token ;;
            esac
            cat "$dir/$kind.response"
            exit "$(cat "$dir/$kind.exit" 2>/dev/null || echo 0)"
            """
        try write(script, to: "curl")
        chmod(directory.path + "/curl", 0o755)
    }

    func write(_ text: String, to name: String) throws {
        let fd = open(directory.path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HarnessError("cannot write \(name)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else { throw HarnessError("short write") }
    }

    func read(_ name: String) -> String {
        let fd = open(directory.path + "/" + name, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            out += chunk[..<count]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Serves `body` with `status` for the discovery or the token request.
    func answer(_ kind: String, status: Int = 200, headers: String = "Cache-Control: no-store\r\n", body: String) throws {
        try write("HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\n\(headers)\r\n\(body)", to: kind + ".response")
    }

    func remove() { directory.remove() }
}

enum IDTokens {
    static func make(_ claims: String, header: String = #"{"alg":"RS256","typ":"JWT"}"#) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + ".c2lnbmF0dXJl"
    }

    static func claims(iss: String = "https://op.example", aud: String = "app", nonce: String, exp: Int = 0, iat: Int = 0) -> String {
        let now = Int(time(nil))
        return
            #"{"iss":"\#(iss)","sub":"user-1","aud":"\#(aud)","exp":\#(exp == 0 ? now + 600 : exp),"iat":\#(iat == 0 ? now : iat),"nonce":"\#(nonce)"}"#
    }
}

@Suite(.serialized) struct RefreshCommandTests {
    static let tokens = #"{"access_token":"AT-new-0123","token_type":"Bearer","expires_in":3600,"refresh_token":"RT-next-4567"}"#

    @Test func everySecretTravelsOnCurlsStdinNeverInArgvOrEnvironment() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", body: Self.tokens)
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token", "--client-secret-from-stdin"],
            environment: curl.environment, stdin: "RT-secret-refresh-token\nclient-secret-value\n")
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(
            run.out
                == #"{"outcome":"tokens","access_token":"AT-new-0123","token_type":"Bearer","expires_in":3600,"refresh_token":"RT-next-4567","scope":null,"id_token":null,"id_token_claims":null}"#
                + "\n")
        let argv = curl.read("argv.0"), env = curl.read("env.0"), config = curl.read("stdin.0")
        for secret in ["RT-secret-refresh-token", "client-secret-value", "Basic", "Authorization"] {
            #expect(!argv.contains(secret) && !env.contains(secret), "no secret in argv or environment")
        }
        #expect(config.contains(#"data-binary = "grant_type=refresh_token&refresh_token=RT-secret-refresh-token""#))
        #expect(config.contains(#"header = "Authorization: Basic YXBwOmNsaWVudC1zZWNyZXQtdmFsdWU=""#), "base64 of app:client-secret-value")
        #expect(config.contains(#"url = "https://op.example/token""#))
        let args = argv.split(separator: "\n").map(String.init)
        #expect(args.first == "-q", "no ~/.curlrc is read")
        #expect(args.contains("--proto") && args[args.firstIndex(of: "--proto")! + 1] == "=https")
        for forbidden in ["-k", "--insecure", "-L", "--location"] { #expect(!args.contains(forbidden)) }
        #expect(args.contains("--max-filesize") && args.contains("--max-time") && args.contains("--connect-timeout"))
        #expect(!run.err.contains("AT-new-0123") && !run.err.contains("RT-"), "no token on stderr")
    }

    @Test func anErrorResponseIsATypedOutcomeExitingOne() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", status: 400, body: #"{"error":"invalid_grant","error_description":"expired"}"#)
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], environment: curl.environment,
            stdin: "RT-1\n")
        #expect(run.exit == 1)
        #expect(
            run.out == #"{"outcome":"token_error","error":"invalid_grant","error_description":"expired","error_uri":null,"status":400}"#
                + "\n")
    }

    /// A proxy's redirect, a server's error page, an HTML 400 and a 200 with `error`: the
    /// status is read first, through curl, and the refusal names it on stdout and stderr.
    static let statusAnswers: [(status: String, type: String, body: String, reason: String?, words: String)] = [
        (
            "302 Found", "text/html", "<html><body>Redirecting to <a href=/login>/login</a></body></html>", "unknown_status",
            "HTTP 302 (Found), a redirect"
        ),
        (
            "503 Service Unavailable", "text/html", "<html><body><h1>503 Service Unavailable</h1></body></html>", "unknown_status",
            "HTTP 503 (Service Unavailable), a server error"
        ),
        ("400 Bad Request", "application/json", #"{"error":"invalid_grant"}"#, nil, ""),
        (
            "400 Bad Request", "text/html", "<html><body>Bad Request</body></html>", "unknown_status",
            "HTTP 400 (Bad Request) without an OAuth error response"
        ),
        (
            "200 OK", "application/json", #"{"access_token":"AT-secret-0123","token_type":"Bearer","error":"invalid_client"}"#,
            "ambiguous_response", "HTTP 200 (OK), success, with an error member"
        ),
    ]

    @Test(arguments: 0 ..< statusAnswers.count)
    func theStatusComesFirst(_ index: Int) throws {
        let answer = Self.statusAnswers[index]
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.write(
            "HTTP/1.1 \(answer.status)\r\nContent-Type: \(answer.type)\r\nCache-Control: no-store\r\n\r\n\(answer.body)",
            to: "token.response")
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], environment: curl.environment,
            stdin: "RT-1\n")
        guard let reason = answer.reason else {
            #expect(run.exit == 1)
            #expect(run.out.contains(#""outcome":"token_error","error":"invalid_grant""#), "\(run.out)")
            return
        }
        #expect(run.exit == 65, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""reason":"\#(reason)""#), "\(run.out)")
        #expect(run.out.contains(answer.words), "\(run.out)")
        #expect(!run.out.contains("AT-secret") && !run.err.contains("AT-secret"), "no token printed")
    }

    @Test func withoutCurlTheRefusalIsTransportUnavailableExiting69() throws {
        let empty = TemporaryDirectory()
        defer { empty.remove() }
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], environment: ["PATH": empty.path],
            stdin: "RT-1\n")
        #expect(run.exit == 69)
        #expect(run.out.contains(#""reason":"transport_unavailable""#))
        #expect(run.out.contains(#""step":"token_request""#))
    }

    @Test func aResponseOverTheLimitIsTooLong() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        let padding = String(repeating: "x", count: 70 * 1024)
        try curl.answer("token", body: #"{"access_token":"AT","token_type":"Bearer","pad":"\#(padding)"}"#)
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], environment: curl.environment,
            stdin: "RT-1\n")
        #expect(run.exit == 65)
        #expect(run.out.contains(#""reason":"too_long""#))
    }

    @Test func aTokenTypeOtherThanBearerIsRefusedUnlessAllowed() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", body: #"{"access_token":"AT","token_type":"MAC"}"#)
        let arguments = ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"]
        let refused = runWithStdin(arguments, environment: curl.environment, stdin: "RT-1\n")
        #expect(refused.exit == 65)
        #expect(refused.out.contains(#""reason":"unsupported_token_type""#))
        let allowed = runWithStdin(arguments + ["--token-type", "MAC"], environment: curl.environment, stdin: "RT-1\n")
        #expect(allowed.exit == 0)
    }

    @Test func httpIsRefusedUnlessLoopbackHTTPIsAllowed() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", body: Self.tokens)
        let arguments = ["refresh", "--client-id", "app", "--token-endpoint", "http://127.0.0.1:9/token"]
        let refused = runWithStdin(arguments, environment: curl.environment, stdin: "RT-1\n")
        #expect(refused.exit == 64)
        #expect(refused.out.contains(#""reason":"invalid_configuration""#))
        let allowed = runWithStdin(arguments + ["--allow-http-loopback"], environment: curl.environment, stdin: "RT-1\n")
        #expect(allowed.exit == 0)
        let args = curl.read("argv.0").split(separator: "\n").map(String.init)
        #expect(args[args.firstIndex(of: "--proto")! + 1] == "=http,https")
    }
}

extension RefreshCommandTests {
    @Test func clientSecretPostSendsTheSecretInTheBodyOnStdinOnly() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("token", body: Self.tokens)
        let run = runWithStdin(
            [
                "refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token", "--client-secret-from-stdin",
                "--client-auth", "client_secret_post",
            ], environment: curl.environment, stdin: "RT-1\nposted-secret\n")
        #expect(run.exit == 0)
        let config = curl.read("stdin.0")
        #expect(config.contains("&client_id=app&client_secret=posted-secret\""))
        #expect(!config.contains("Authorization"))
        #expect(!curl.read("argv.0").contains("posted-secret") && !curl.read("env.0").contains("posted-secret"))
    }

    @Test func clientAuthWithoutASecretIsAUsageError() {
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token", "--client-auth", "client_secret_post"],
            environment: ["PATH": "/nonexistent"], stdin: "RT-1\n")
        #expect(run.exit == 64)
        #expect(run.err.contains("--client-auth needs --client-secret-from-stdin"))
    }

    @Test(arguments: [(Int32(7), Int32(69), "transport_failed"), (28, 75, "timeout"), (60, 69, "transport_failed")])
    func curlsFailureIsAReasonAndAnExitCode(_ curlExit: Int32, _ exit: Int32, _ reason: String) throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.write("", to: "token.response")
        try curl.write("\(curlExit)", to: "token.exit")
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token"], environment: curl.environment,
            stdin: "RT-secret\n")
        #expect(run.exit == exit)
        #expect(run.out.contains("\"reason\":\"\(reason)\""), "\(run.out)")
        #expect(!run.out.contains("RT-secret") && !run.err.contains("RT-secret"))
    }
}

@Suite struct CurlTransportTests {
    @Test func configValuesAreQuotedSoNoValueAddsAnOption() throws {
        #expect(try CurlTransport.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(try CurlTransport.quoted("x\ny") == #""x\ny""#)
        #expect(throws: CurlTransport.Failure.self) { try CurlTransport.quoted("x\u{1}y") }
        #expect(throws: CurlTransport.Failure.self) {
            try CurlTransport.config(for: .init(url: "https://x/", method: "POST", body: Array("@/etc/passwd".utf8)))
        }
    }

    @Test func theFinalResponseFollowsInterimHeads() throws {
        let output = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/2 400 \r\ncache-control: no-store\r\nX-A:  b \r\n\r\n{\"e\":1}".utf8)
        let response = try #require(CurlTransport.response(from: output))
        #expect(response.status == 400)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("x-a") == "b")
        #expect(response.body == Array("{\"e\":1}".utf8))
        #expect(CurlTransport.response(from: Array("garbage".utf8)) == nil)
    }
}

@Suite(.serialized) struct LoginTokenStepTests {
    static let issuer = "https://op.example"
    static let metadata =
        #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/authorize","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"],"code_challenge_methods_supported":["S256"]}"#

    /// Logs in through discovery with the fake curl answering `tokenBody` (made with the
    /// login's nonce); returns the run and the fake.
    static func login(
        metadata: String = metadata, extra: [String] = [], callbackExtra: String = "", standardOutput: Int32? = nil,
        tokenBody: (String) -> String
    ) throws -> (exit: Int32?, out: String, err: String, curl: FakeCurl) {
        let curl = try FakeCurl()
        try curl.answer("discovery", body: metadata)
        let login = try RunningLogin(
            ["--issuer", issuer, "--client-id", "app", "--no-browser", "--timeout", "20"] + extra, environment: curl.environment,
            standardOutput: standardOutput)
        let request = try LoginCommandTests.authorizationURL(login)
        #expect(request.host?.text == "op.example" && request.path == "/authorize", "the discovered authorization endpoint")
        let state = try #require(try request.queryParameters.value(named: "state"))
        let nonce = try #require(try request.queryParameters.value(named: "nonce"))
        try curl.answer("token", body: tokenBody(nonce))
        _ = try RawClient.get(port: login.port, "/callback?code=CODE-abc&state=\(state)\(callbackExtra)")
        let exit = login.waitForExit()
        return (exit, login.output.stdout, login.output.stderr, curl)
    }

    static func tokens(_ idToken: String, type: String = "Bearer") -> String {
        #"{"access_token":"AT-login-1","token_type":"\#(type)","expires_in":300,"id_token":"\#(idToken)"}"#
    }

    @Test func loginDiscoversRedeemsTheCodeAndPrintsTheCheckedClaims() throws {
        let run = try Self.login { nonce in Self.tokens(IDTokens.make(IDTokens.claims(nonce: nonce))) }
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"authorization_code","dialect":"oauth2","code":"CODE-abc""#))
        #expect(run.out.contains(#""access_token":"AT-login-1","token_type":"Bearer","expires_in":300,"refresh_token":null"#))
        #expect(run.out.contains(#""id_token_claims":{"sub":"user-1","iss":"https://op.example","aud":["app"],"exp":"#))
        #expect(run.out.contains(#""nonce_matched":true}}"#))
        #expect(run.out.split(separator: "\n").count == 1)
        #expect(!run.err.contains("AT-login-1") && !run.err.contains("CODE-abc"), "no secret on stderr")
        let config = run.curl.read("stdin.1")
        #expect(config.contains("grant_type=authorization_code&code=CODE-abc&redirect_uri="))
        #expect(!run.curl.read("argv.1").contains("CODE-abc"))
    }

    /// The code flow's ID token `alg` is checked against the discovered
    /// `id_token_signing_alg_values_supported`: an ES256 provider's ES256 token passes, an
    /// RS256 token from it is refused (`unsupported_algorithm`), as OpenID Connect Core
    /// §3.1.3.7 item 7 says.
    @Test(arguments: [("ES256", Int32(0)), ("RS256", Int32(65))])
    func theIDTokensAlgIsCheckedAgainstTheDiscoveredList(_ alg: String, _ exit: Int32) throws {
        let es256 =
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/authorize","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES256"],"code_challenge_methods_supported":["S256"]}"#
        let run = try Self.login(metadata: es256) { nonce in
            Self.tokens(IDTokens.make(IDTokens.claims(nonce: nonce), header: #"{"alg":"\#(alg)","typ":"JWT"}"#))
        }
        defer { run.curl.remove() }
        #expect(run.exit == exit, "\(run.out) \(run.err)")
        if exit == 0 {
            #expect(run.out.contains(#""nonce_matched":true}}"#), "\(run.out)")
        } else {
            #expect(run.out.contains(#""reason":"unsupported_algorithm""#) && run.out.contains(#""step":"id_token""#), "\(run.out)")
        }
    }

    static let refusals: [(String, String, @Sendable (String) -> String)] = [
        ("nonce_mismatch", "id_token", { _ in tokens(IDTokens.make(IDTokens.claims(nonce: "another-nonce"))) }),
        ("audience_mismatch", "id_token", { nonce in tokens(IDTokens.make(IDTokens.claims(aud: "other-app", nonce: nonce))) }),
        ("issuer_mismatch", "id_token", { nonce in tokens(IDTokens.make(IDTokens.claims(iss: "https://evil.example", nonce: nonce))) }),
        ("token_expired", "id_token", { nonce in tokens(IDTokens.make(IDTokens.claims(nonce: nonce, exp: 1_000_000, iat: 999_000))) }),
        ("unsupported_token_type", "token_response", { nonce in tokens(IDTokens.make(IDTokens.claims(nonce: nonce)), type: "MAC") }),
        ("missing_parameter", "id_token", { _ in #"{"access_token":"AT","token_type":"Bearer"}"# }),
    ]

    @Test(arguments: 0 ..< 6) func aHostileTokenResponseIsOneRejection(_ index: Int) throws {
        let (reason, step, body) = Self.refusals[index]
        let run = try Self.login(tokenBody: body)
        defer { run.curl.remove() }
        #expect(run.exit == 65)
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"\#(reason)""#), "\(run.out)")
        #expect(run.out.contains(#""step":"\#(step)""#))
        #expect(!run.out.contains("AT-login-1"), "no token of a refused response is printed")
        #expect(run.out.contains(#""code_verifier":""#) && run.out.contains(#""redirect_uri":"http://127.0.0.1:"#), "\(run.out)")
    }

    @Test func aTokenErrorResponseIsTheTypedOutcome() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("discovery", body: Self.metadata)
        let login = try RunningLogin(
            ["--issuer", Self.issuer, "--client-id", "app", "--no-browser", "--timeout", "20"], environment: curl.environment)
        let request = try LoginCommandTests.authorizationURL(login)
        let state = try #require(try request.queryParameters.value(named: "state"))
        let redirectURI = try #require(try request.queryParameters.value(named: "redirect_uri"))
        try curl.answer("token", status: 400, body: #"{"error":"invalid_grant"}"#)
        _ = try RawClient.get(port: login.port, "/callback?code=C&state=\(state)")
        #expect(login.waitForExit() == 1)
        #expect(login.output.stdout.hasPrefix(#"{"outcome":"token_error","error":"invalid_grant""#))
        // The verifier and the redirect URI the login used, as on every line of login.
        #expect(login.output.stdout.contains(#""status":400,"code_verifier":""#), "\(login.output.stdout)")
        #expect(login.output.stdout.hasSuffix(#","redirect_uri":"\#(redirectURI)"}"# + "\n"), "\(login.output.stdout)")
    }

    @Test func metadataOfAnotherIssuerIsRefusedBeforeTheBrowserOpens() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer(
            "discovery",
            body: Self.metadata.replacingOccurrences(of: #""issuer":"https://op.example""#, with: #""issuer":"https://evil.example""#))
        let run = runWithStdin(["login", "--issuer", Self.issuer, "--client-id", "app", "--no-browser"], environment: curl.environment)
        #expect(run.exit == 65)
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"issuer_mismatch""#))
        #expect(run.out.contains(#""step":"discovery""#))
        #expect(!run.err.contains("waiting for the callback"))
    }

    @Test(arguments: [
        ("302 Found", "HTTP 302 (Found), a redirect"), ("503 Service Unavailable", "HTTP 503 (Service Unavailable), a server error"),
    ])
    func aDiscoveryRedirectOrServerErrorNamesItsStatus(_ status: String, _ words: String) throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.write("HTTP/1.1 \(status)\r\nContent-Type: text/html\r\n\r\n<html>down</html>", to: "discovery.response")
        let run = runWithStdin(["login", "--issuer", Self.issuer, "--client-id", "app", "--no-browser"], environment: curl.environment)
        #expect(run.exit == 65)
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"unknown_status""#), "\(run.out)")
        #expect(run.out.contains(words), "\(run.out)")
        #expect(run.out.contains(#""step":"discovery""#))
    }

    @Test func metadataThatPromisesIssMakesItRequired() throws {
        let metadata = Self.metadata.replacingOccurrences(of: "}", with: #","authorization_response_iss_parameter_supported":true}"#)
        let run = try Self.login(metadata: metadata) { nonce in Self.tokens(IDTokens.make(IDTokens.claims(nonce: nonce))) }
        defer { run.curl.remove() }
        #expect(run.exit == 65)
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"issuer_missing""#), "\(run.out)")
    }

    @Test func aTokenEndpointWithOpenIDAndNoIssuerIsAUsageErrorBeforeTheBrowserOpens() {
        let run = runWithStdin(
            ["login", "--endpoint", "https://op.example/authorize", "--token-endpoint", "https://op.example/token", "--client-id", "app"],
            environment: ["PATH": "/nonexistent"])
        #expect(run.exit == 64)
        #expect(run.err.contains("give --issuer"))
        #expect(!run.err.contains("waiting for the callback"))
    }

    /// `--issuer` with `--endpoint` once dropped the token step: ✓ Signed in, exit 0, no
    /// tokens (issue 36 point 3). Now the endpoint overrides discovery's and the code is redeemed.
    @Test func issuerWithEndpointRunsTheTokenStep() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("discovery", body: Self.metadata)
        let login = try RunningLogin(
            [
                "--endpoint", "https://login.op.example/authorize", "--issuer", Self.issuer, "--client-id", "app", "--no-browser",
                "--timeout", "20",
            ],
            environment: curl.environment)
        let request = try LoginCommandTests.authorizationURL(login)
        #expect(request.host?.text == "login.op.example", "--endpoint overrides the discovered authorization endpoint")
        let state = try #require(try request.queryParameters.value(named: "state"))
        let nonce = try #require(try request.queryParameters.value(named: "nonce"))
        try curl.answer("token", body: Self.tokens(IDTokens.make(IDTokens.claims(nonce: nonce))))
        _ = try RawClient.get(port: login.port, "/callback?code=C&state=\(state)")
        #expect(login.waitForExit() == 0, "\(login.output.stdout) \(login.output.stderr)")
        #expect(login.output.stdout.contains(#""access_token":"AT-login-1""#))
        #expect(curl.read("stdin.1").contains("https://op.example/token"), "curl redeemed the code at the discovered token endpoint")
    }
}

extension LoginTokenStepTests {
    /// `login --client-secret-from-stdin` itself (not only `refresh`): the secret read from
    /// stdin reaches curl on its stdin only, as the Basic header, never its argv or
    /// environment, nor the tool's stdout or stderr.
    @Test func loginsClientSecretFromStdinReachesCurlsStdinOnly() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer("discovery", body: Self.metadata)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let secret = "login-client-secret-9"
        let basic = "YXBwOmxvZ2luLWNsaWVudC1zZWNyZXQtOQ==" // base64 of app:login-client-secret-9
        let line = Array((secret + "\n").utf8)
        _ = line.withUnsafeBytes { Glibc.write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        let login = try RunningLogin(
            ["--issuer", Self.issuer, "--client-id", "app", "--no-browser", "--timeout", "20", "--client-secret-from-stdin"],
            environment: curl.environment, standardInput: ends[0])
        let request = try LoginCommandTests.authorizationURL(login)
        let state = try #require(try request.queryParameters.value(named: "state"))
        let nonce = try #require(try request.queryParameters.value(named: "nonce"))
        try curl.answer("token", body: Self.tokens(IDTokens.make(IDTokens.claims(nonce: nonce))))
        _ = try RawClient.get(port: login.port, "/callback?code=CODE-abc&state=\(state)")
        #expect(login.waitForExit() == 0, "\(login.output.stdout) \(login.output.stderr)")
        let config = curl.read("stdin.1")
        #expect(config.contains(#"header = "Authorization: Basic \#(basic)""#), "the secret as client_secret_basic")
        #expect(config.contains("grant_type=authorization_code&code=CODE-abc&redirect_uri="))
        for name in ["argv.0", "env.0", "stdin.0", "argv.1", "env.1"] {
            let text = curl.read(name)
            #expect(!text.contains(secret) && !text.contains(basic), "no secret in curl's \(name)")
        }
        for text in [login.output.stdout, login.output.stderr] {
            #expect(!text.contains(secret) && !text.contains(basic), "no secret in the tool's output")
        }
        #expect(login.output.stdout.contains(#""access_token":"AT-login-1""#))
    }
}
