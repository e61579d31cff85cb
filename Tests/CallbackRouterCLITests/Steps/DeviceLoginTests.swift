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
import CallbackRouter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// `login --device` against a small provider on 127.0.0.1, through the real curl: the codes
/// shown on stderr, the polling within the interval, and how each answer ends the login.
@Suite struct DeviceLoginTests {
    static func deviceAnswer(expiresIn: Int = 600, interval: Int = 1) -> DeviceProvider.Answer {
        DeviceProvider.Answer(
            status: 200,
            body: #"{"device_code":"DC-secret-device-code","user_code":"WDJB-MJHT","verification_uri":"https://op.example/device","#
                + #""verification_uri_complete":"https://op.example/device?user_code=WDJB-MJHT","expires_in":\#(expiresIn),"interval":\#(interval)}"#
        )
    }

    static func error(_ code: String) -> DeviceProvider.Answer { .init(status: 400, body: #"{"error":"\#(code)"}"#) }

    static func tokens(issuer: String, alg: String = "RS256") -> DeviceProvider.Answer {
        let now = Int(time(nil))
        let idToken = IDTokens.make(
            #"{"iss":"\#(issuer)","sub":"user-1","aud":"app","exp":\#(now + 600),"iat":\#(now)}"#, header: #"{"alg":"\#(alg)","typ":"JWT"}"#
        )
        return .init(
            status: 200,
            body:
                #"{"access_token":"AT-device-0123","token_type":"Bearer","expires_in":3600,"refresh_token":"RT-device-4567","id_token":"\#(idToken)"}"#
        )
    }

    static func login(_ provider: DeviceProvider, _ extra: [String] = []) -> (exit: Int32, out: String, err: String) {
        let home = TemporaryDirectory()
        defer { home.remove() }
        return runWithStdin(
            ["login", "--device", "--issuer", provider.issuer, "--client-id", "app", "--allow-http-loopback"] + extra,
            environment: ["PATH": "/usr/bin:/bin", "HOME": home.path])
    }

    @Test func pendingThenSlowDownThenTokensEndsWithTheCheckedTokens() throws {
        var provider: DeviceProvider!
        provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [])
        defer { provider.stop() }
        provider.setTokenAnswers([Self.error("authorization_pending"), Self.error("slow_down"), Self.tokens(issuer: provider.issuer)])
        let run = Self.login(provider)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(
            run.out.hasPrefix(#"{"outcome":"tokens","grant":"device_code","stored":{"store":"file","path":"#),
            "stored as login's code flow stores")
        #expect(run.out.contains(#""access_token":"AT-device-0123","token_type":"Bearer""#), "\(run.out)")
        #expect(run.out.contains(#""id_token_claims":{"sub":"user-1","iss":"\#(provider.issuer)","aud":["app"]"#), "\(run.out)")
        #expect(run.out.contains(#""nonce_matched":null"#), "no nonce was sent, none compared")
        let polls = provider.polls
        #expect(polls.count == 3)
        #expect(polls.allSatisfy { $0.body.contains("device_code=DC-secret-device-code") && $0.body.contains("client_id=app") })
        #expect(polls.allSatisfy { $0.body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code") })
        if polls.count == 3 {
            #expect(polls[1].at - polls[0].at >= 1000, "the interval is kept")
            #expect(polls[2].at - polls[1].at >= 6000, "slow_down adds 5 seconds")
        }
        #expect(provider.requests.contains { $0.line.hasPrefix("POST /device ") && $0.body == "scope=openid&client_id=app" })
        #expect(run.err.contains("\n      https://op.example/device\n"), "the page on a line of its own: \(run.err)")
        #expect(run.err.contains("\n      WDJB - MJHT\n"), "the code in spaced groups on a line of its own")
        #expect(run.err.contains("the code is WDJB-MJHT"), "and as the provider wrote it")
        #expect(run.err.contains("https://op.example/device?user_code=WDJB-MJHT"))
        #expect(run.err.contains("slow_down"))
        #expect(run.err.hasSuffix("✓ Signed in at \(provider.issuer)\n"), "\(run.err)")
        for secret in ["DC-secret", "AT-device", "RT-device"] { #expect(!run.err.contains(secret), "no secret on stderr") }
    }

    @Test func aDeniedSignInIsTheProvidersErrorExitingOne() throws {
        let provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [Self.error("access_denied")])
        defer { provider.stop() }
        let run = Self.login(provider)
        #expect(run.exit == 1, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"token_error","error":"access_denied""#), "\(run.out)")
        #expect(run.err.contains("✗ Sign-in refused at the provider: access_denied"), "\(run.err)")
    }

    @Test func anExpiredCodeIsATimeoutExiting75() throws {
        let provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [Self.error("expired_token")])
        defer { provider.stop() }
        let run = Self.login(provider)
        #expect(run.exit == 75, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"timeout","detail":"the code expired"#), "\(run.out)")
        #expect(run.err.contains("✗ Not signed in: timeout"), "\(run.err)")
    }

    @Test func theCodesLifetimeEndsTheWaitWhenTheProviderKeepsSayingPending() throws {
        let provider = try DeviceProvider(
            deviceAnswer: Self.deviceAnswer(expiresIn: 2, interval: 1), tokenAnswers: [Self.error("authorization_pending")])
        defer { provider.stop() }
        let run = Self.login(provider)
        #expect(run.exit == 75, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""reason":"timeout""#))
        #expect(provider.polls.count <= 2, "no poll after the code expired")
    }

    @Test func aProviderWithoutTheDeviceEndpointIsRefusedByName() throws {
        let provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [], withDeviceEndpoint: false)
        defer { provider.stop() }
        let run = Self.login(provider)
        #expect(run.exit == 64, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""reason":"invalid_configuration""#) && run.out.contains(#""step":"discovery""#))
        #expect(run.err.contains("the provider \(provider.issuer) names no device_authorization_endpoint"), "\(run.err)")
        #expect(provider.polls.isEmpty)
    }

    @Test func aGivenDeviceAuthorizationEndpointStandsInForDiscoverysMissingOne() throws {
        var provider: DeviceProvider!
        provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [], withDeviceEndpoint: false)
        defer { provider.stop() }
        provider.setTokenAnswers([Self.tokens(issuer: provider.issuer)])
        let run = Self.login(provider, ["--device-authorization-endpoint", provider.issuer + "/device"])
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""id_token_claims":{"sub":"user-1""#), "\(run.out)")
    }

    /// The ID token's `alg` is checked against the provider's discovered
    /// `id_token_signing_alg_values_supported`, as the code flow's is, not against RS256 alone.
    @Test(arguments: [("ES256", Int32(0)), ("RS256", Int32(65))])
    func theIDTokensAlgIsCheckedAgainstTheProvidersList(_ alg: String, _ exit: Int32) throws {
        var provider: DeviceProvider!
        provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [], signingAlgorithms: ["ES256"])
        defer { provider.stop() }
        provider.setTokenAnswers([Self.tokens(issuer: provider.issuer, alg: alg)])
        let run = Self.login(provider)
        #expect(run.exit == exit, "\(run.out) \(run.err)")
        if exit == 0 {
            #expect(run.out.contains(#""id_token_claims":{"sub":"user-1""#), "\(run.out)")
        } else {
            #expect(run.out.hasPrefix(#"{"outcome":"rejected","reason":"unsupported_algorithm""#), "\(run.out)")
            #expect(run.out.contains(#""step":"id_token""#), "\(run.out)")
        }
    }

    @Test func tokensWithoutAnIDTokenForOpenIDAreSaidNotRefused() throws {
        let tokens = DeviceProvider.Answer(status: 200, body: #"{"access_token":"AT-device-0123","token_type":"Bearer"}"#)
        let provider = try DeviceProvider(deviceAnswer: Self.deviceAnswer(), tokenAnswers: [tokens])
        defer { provider.stop() }
        let run = Self.login(provider)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""id_token":null,"id_token_claims":null"#), "\(run.out)")
        #expect(run.err.contains("the provider sent no ID token"), "\(run.err)")
    }

    @Test func aDeviceAuthorizationErrorIsTheProvidersErrorExitingOne() throws {
        let provider = try DeviceProvider(deviceAnswer: Self.error("invalid_client"), tokenAnswers: [])
        defer { provider.stop() }
        let run = Self.login(provider)
        #expect(run.exit == 1, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"token_error","error":"invalid_client""#), "\(run.out)")
        #expect(run.err.contains("✗ The provider refused the device sign-in: invalid_client"), "\(run.err)")
    }

    /// The fake curl answers the device authorization request and the poll with the same
    /// device answer (not tokens: the poll is refused), so both requests are recorded.
    @Test func theDeviceCodeAndTheClientSecretTravelOnCurlsStdinOnly() throws {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer(
            "discovery",
            body:
                #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/a","token_endpoint":"https://op.example/t","#
                + #""jwks_uri":"https://op.example/j","response_types_supported":["code"],"subject_types_supported":["public"],"#
                + #""id_token_signing_alg_values_supported":["RS256"],"device_authorization_endpoint":"https://op.example/d"}"#)
        try curl.answer("token", body: Self.deviceAnswer().body)
        let run = runWithStdin(
            ["login", "--device", "--issuer", "https://op.example", "--client-id", "app", "--client-secret-from-stdin"],
            environment: curl.environment, stdin: "client-secret-value\n")
        #expect(run.exit == 65, "\(run.out) \(run.err)")
        #expect(run.out.contains(#""step":"token_response""#), "\(run.out)")
        #expect(curl.read("stdin.1").contains(#"url = "https://op.example/d""#))
        #expect(curl.read("stdin.2").contains("device_code=DC-secret-device-code"), "the poll carries the device code")
        for call in 0 ... 2 {
            let argv = curl.read("argv.\(call)"), env = curl.read("env.\(call)")
            for secret in ["DC-secret", "client-secret-value", "Authorization"] {
                #expect(!argv.contains(secret) && !env.contains(secret), "no secret in curl's argv or environment")
            }
        }
        #expect(curl.read("stdin.2").contains("Authorization: Basic"), "the secret, as a header, in the config on stdin")
        for secret in ["DC-secret", "client-secret-value"] { #expect(!run.err.contains(secret) && !run.out.contains(secret)) }
    }

    @Test(arguments: [
        ["--port", "0"], ["--endpoint", "https://op.example/a"], ["--timeout", "5"], ["--token-endpoint", "https://op.example/t"],
    ])
    func aCodeFlowOptionWithDeviceIsAUsageError(_ option: [String]) {
        let run = runWithStdin(
            ["login", "--device", "--issuer", "https://op.example", "--client-id", "app"] + option, environment: ["PATH": "/nonexistent"])
        #expect(run.exit == 64)
        #expect(run.err.contains("\(option[0]) does not apply to --device"), "\(run.err)")
    }

    @Test func deviceWithoutAnIssuerIsAUsageError() {
        let run = runWithStdin(["login", "--device", "--client-id", "app"], environment: ["PATH": "/nonexistent"])
        #expect(run.exit == 64)
        #expect(run.err.contains("--device needs --issuer"), "\(run.err)")
    }

    @Test(arguments: [("WDJB-MJHT", "WDJB - MJHT"), ("ABCDEFGH", "ABCD  EFGH"), ("12345", "12345"), ("BCDF GHJK", "BCDF - GHJK")])
    func theUserCodeIsShownInGroups(_ code: String, _ shown: String) {
        #expect(DeviceFlow.grouped(code) == shown)
    }
}

/// Over SSH without a display, `login` without `--device` uses the device flow when the
/// provider offers it, and says so; a forwarded display or a code-flow option keeps the
/// code flow.
@Suite struct DeviceLoginOverSSHTests {
    static let ssh = ["SSH_CONNECTION": "10.0.0.1 50000 10.0.0.2 22"]

    static func login(_ provider: DeviceProvider, _ extra: [String] = [], environment: [String: String]) -> (
        exit: Int32, out: String, err: String
    ) {
        let home = TemporaryDirectory()
        defer { home.remove() }
        var all = environment
        all["PATH"] = "/usr/bin:/bin"
        all["HOME"] = home.path
        all["XDG_RUNTIME_DIR"] = home.privateSubdirectory("run")
        return runWithStdin(
            ["login", "--issuer", provider.issuer, "--client-id", "app", "--allow-http-loopback"] + extra, environment: all)
    }

    @Test func overSSHWithoutADisplayTheOfferedDeviceFlowIsUsedAndSaid() throws {
        var provider: DeviceProvider!
        provider = try DeviceProvider(deviceAnswer: DeviceLoginTests.deviceAnswer(), tokenAnswers: [])
        defer { provider.stop() }
        provider.setTokenAnswers([DeviceLoginTests.tokens(issuer: provider.issuer)])
        let run = Self.login(provider, environment: Self.ssh)
        #expect(run.exit == 0, "\(run.out) \(run.err)")
        #expect(run.out.hasPrefix(#"{"outcome":"tokens","grant":"device_code","#), "\(run.out)")
        #expect(run.err.contains("this is an SSH session without a display"), "\(run.err)")
        #expect(run.err.contains("give --port P and forward it"), "\(run.err)")
        #expect(run.err.contains("WDJB - MJHT"))
    }

    @Test(arguments: [
        (["DISPLAY": ":0"], [String]()), (["WAYLAND_DISPLAY": "wayland-0"], []), ([:], ["--port", "0"]), ([:], ["--accept-paste"]),
    ])
    func aDisplayOrACodeFlowOptionKeepsTheCodeFlow(_ environment: [String: String], _ extra: [String]) throws {
        let provider = try DeviceProvider(deviceAnswer: DeviceLoginTests.deviceAnswer(), tokenAnswers: [])
        defer { provider.stop() }
        let run = Self.login(
            provider, extra + ["--timeout", "0.5"],
            environment: Self.ssh.merging(environment.merging(["BROWSER": "/bin/false"]) { $1 }) { $1 })
        #expect(run.exit == 75, "\(run.out) \(run.err)")
        #expect(!run.err.contains("device flow"), "\(run.err)")
        #expect(!provider.requests.contains { $0.line.hasPrefix("POST /device ") })
    }

    @Test func withoutTheOfferTheCodeFlowRunsAsBefore() throws {
        let provider = try DeviceProvider(deviceAnswer: DeviceLoginTests.deviceAnswer(), tokenAnswers: [], withDeviceEndpoint: false)
        defer { provider.stop() }
        let run = Self.login(provider, ["--timeout", "0.5"], environment: Self.ssh)
        #expect(run.exit == 75, "\(run.out) \(run.err)")
        #expect(run.err.contains("ssh -N -L"), "the forwarding hint, as before: \(run.err)")
    }
}
