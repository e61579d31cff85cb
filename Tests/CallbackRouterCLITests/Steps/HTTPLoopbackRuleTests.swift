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
import CallbackTestSupport
import Testing

/// One rule for http in login and refresh: the issuer and every endpoint is https, or http
/// to a loopback IP literal with --allow-http-loopback; the refusal names the flag.
@Suite struct HTTPLoopbackRuleTests {
    static func run(_ arguments: [String], input: String? = nil) -> (exit: Int32, stdout: String, stderr: String) {
        let temporary = TemporaryDirectory()
        let environment = isolatedEnvironment(runtime: temporary.privateSubdirectory("run"), home: temporary.privateSubdirectory("home"))
        let run = runTool(arguments, environment: environment)
        return (run.exit, run.stdout, run.stderr)
    }

    @Test(arguments: ["http://127.0.0.1:9/authorize", "http://[::1]:9/authorize"])
    func anHTTPEndpointOnLoopbackNeedsTheFlagAsTheIssuerDoes(endpoint: String) {
        let run = Self.run(["login", "--endpoint", endpoint, "--client-id", "a", "--no-browser", "--timeout", "1"])
        #expect(run.exit == 64, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("\"reason\":\"invalid_configuration\""))
        #expect(run.stdout.contains("\"step\":\"configuration\""))
        #expect(run.stderr.contains("--endpoint is http") && run.stderr.contains("--allow-http-loopback"), "\(run.stderr)")
        #expect(!run.stderr.contains("waiting for the callback"), "refused before any wait")
    }

    @Test func withTheFlagAnHTTPEndpointOnLoopbackIsUsed() {
        let run = Self.run([
            "login", "--endpoint", "http://127.0.0.1:9/authorize", "--allow-http-loopback", "--client-id", "a", "--no-browser",
            "--timeout", "0.2",
        ])
        #expect(run.exit == 75, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("waiting for the callback"))
    }

    @Test func anHTTPTokenEndpointOfLoginNamesTheFlag() {
        let run = Self.run([
            "login", "--endpoint", "https://id.example/authorize", "--token-endpoint", "http://127.0.0.1:9/token", "--client-id", "a",
            "--no-browser", "--timeout", "1",
        ])
        #expect(run.exit == 64, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("--token-endpoint is http"), "\(run.stderr)")
    }

    @Test func anHTTPIssuerIsRefusedInTheDiscoveryStep() {
        let run = Self.run(["login", "--issuer", "http://127.0.0.1:9/x", "--client-id", "a", "--no-browser"])
        #expect(run.exit == 64, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("\"step\":\"discovery\""))
        #expect(run.stderr.contains("--issuer is http") && run.stderr.contains("--allow-http-loopback"), "\(run.stderr)")
    }

    @Test func anHTTPEndpointElsewhereIsNotAllowedEvenWithTheFlag() {
        let run = Self.run([
            "login", "--endpoint", "http://id.example/authorize", "--allow-http-loopback", "--client-id", "a", "--no-browser",
            "--timeout", "1",
        ])
        #expect(run.exit == 64, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("\"reason\":\"invalid_configuration\""))
    }
}
