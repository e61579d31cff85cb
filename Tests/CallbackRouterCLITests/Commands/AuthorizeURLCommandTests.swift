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
import CallbackDesktop

@Suite struct AuthorizeURLCommandTests {
    static let base = [
        "authorize-url", "--endpoint", "https://example.auth0.com/authorize",
        "--client-id", "abc123", "--redirect-uri", "http://127.0.0.1:8400/callback",
    ]

    static func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let run = runTool(arguments, executablePath: "/usr/bin/callback-router")
        return (run.exit, run.stdout, run.stderr)
    }

    @Test func printsAURLWhoseParametersMatchTheSecretsPrinted() throws {
        let result = Self.run(Self.base)
        #expect(result.code == ExitCode.success)
        #expect(result.err.isEmpty)
        let fields = try #require(authorizeJSONObject(result.out))
        #expect(fields.map(\.0) == ["url", "state", "code_verifier", "nonce"])
        let values = Dictionary(uniqueKeysWithValues: fields)
        let url = try CallbackURL(parsing: try #require(values["url"]))
        #expect(url.scheme == "https" && url.host?.text == "example.auth0.com" && url.path == "/authorize")
        let query = url.queryParameters
        #expect(try query.value(named: "response_type") == "code")
        #expect(try query.value(named: "client_id") == "abc123")
        #expect(try query.value(named: "redirect_uri") == "http://127.0.0.1:8400/callback")
        #expect(try query.value(named: "scope") == "openid") // the documented default
        #expect(try query.value(named: "state") == values["state"])
        #expect(try query.value(named: "nonce") == values["nonce"])
        #expect(try query.value(named: "code_challenge_method") == "S256")
        let verifier = try #require(values["code_verifier"])
        #expect(try query.value(named: "code_challenge") == PKCE.challenge(for: verifier))
        for secret in [values["state"], values["nonce"], values["code_verifier"]] {
            #expect(Base64URL.decode(secret ?? "")?.count == 32)
        }
    }

    @Test func drawsFreshSecretsEachRun() throws {
        let a = Dictionary(uniqueKeysWithValues: try #require(authorizeJSONObject(Self.run(Self.base).out)))
        let b = Dictionary(uniqueKeysWithValues: try #require(authorizeJSONObject(Self.run(Self.base).out)))
        for key in ["state", "code_verifier", "nonce"] { #expect(a[key] != b[key]) }
    }

    /// A plain OAuth 2.0 request: no scope (the provider's default), no nonce (not OIDC).
    @Test func omitsScopeAndNonceWhenAsked() throws {
        let result = Self.run(Self.base + ["--no-scope", "--no-nonce"])
        #expect(result.code == ExitCode.success, "\(result.err)")
        let fields = try #require(authorizeJSONObject(result.out))
        #expect(fields.map(\.0) == ["url", "state", "code_verifier"])
        let query = try CallbackURL(parsing: try #require(Dictionary(uniqueKeysWithValues: fields)["url"])).queryParameters
        #expect(!query.contains(named: "scope") && !query.contains(named: "nonce"))
        #expect(try query.value(named: "state") != nil && query.value(named: "code_challenge") != nil)

        let onlyNonce = try #require(authorizeJSONObject(Self.run(Self.base + ["--no-nonce"]).out))
        #expect(onlyNonce.map(\.0) == ["url", "state", "code_verifier"])
        let kept = try CallbackURL(parsing: onlyNonce[0].1).queryParameters
        #expect(try kept.value(named: "scope") == "openid")

        let both = Self.run(Self.base + ["--scope", "repo", "--no-scope"])
        #expect(both.code == ExitCode.usage)
        #expect(both.err.contains("exclude each other"))
    }

    @Test func passesScopeAndExtraParametersThrough() throws {
        let result = Self.run(
            Self.base + [
                "--scope", "openid profile offline_access",
                "--param", "audience=https://api.example.com",
                "--param", "login_hint=a+b c&d=é😀",
                "--param", "x=y=z", "--param", "empty=",
            ])
        #expect(result.code == ExitCode.success)
        let values = Dictionary(uniqueKeysWithValues: try #require(authorizeJSONObject(result.out)))
        let query = try CallbackURL(parsing: try #require(values["url"])).queryParameters
        #expect(try query.value(named: "scope") == "openid profile offline_access")
        #expect(try query.value(named: "audience") == "https://api.example.com")
        #expect(try query.value(named: "login_hint") == "a+b c&d=é😀")
        #expect(try query.value(named: "x") == "y=z") // the first '=' splits
        #expect(try query.value(named: "empty") == "")
        #expect(query.names.suffix(4) == ["audience", "login_hint", "x", "empty"])
    }

    @Test(arguments: [
        ["--redirect-uri", "javascript:alert(1)"], ["--redirect-uri", "data:text/html,x"],
        ["--redirect-uri", "file:///etc/passwd"], ["--redirect-uri", "vbscript:x"],
        ["--redirect-uri", "about:blank"], ["--redirect-uri", "blob:https://a.example/1"],
        ["--redirect-uri", "urn:ietf:wg:oauth:2.0:oob"],
        ["--redirect-uri", "myapp://cb#frag"], ["--redirect-uri", "/relative"],
        ["--redirect-uri", "http://example.com/cb"], ["--redirect-uri", "http://localhost:8400/cb"],
        ["--redirect-uri", "com.example.app:/cb?state=x"], ["--policy", "custom-scheme-only"],
        ["--endpoint", "http://example.com/authorize"], ["--endpoint", "https://example.com/a#f"],
        ["--endpoint", "https://u@example.com/a"], ["--endpoint", "not a url"],
        ["--scope", "openid  profile"], ["--scope", ""],
        ["--param", "state=mine"], ["--param", "nonce=mine"], ["--param", "=value"],
        ["--client-id", ""],
    ])
    func refusesBadSettingsWithInvalidConfiguration(override: [String]) {
        // Replace the option if it is one of the base ones, else add it.
        var arguments = Self.base
        if let index = arguments.firstIndex(of: override[0]) { arguments[index + 1] = override[1] } else { arguments += override }
        let result = Self.run(arguments)
        #expect(result.code == ExitCode.usage)
        #expect(result.out.hasPrefix(#"{"outcome":"rejected","reason":"invalid_configuration","detail":"#), "\(result.out)")
        // The offset is null, or a position in the --redirect-uri value.
        #expect(result.out.hasSuffix(#","offset":null}"# + "\n") || result.out.hasSuffix(#","offset":0}"# + "\n"))
    }

    @Test(arguments: [
        (["authorize-url", "--client-id", "a", "--redirect-uri", "myapp://cb"], "missing --endpoint"),
        (["authorize-url", "--endpoint", "https://e.example/a", "--redirect-uri", "myapp://cb"], "missing --client-id"),
        (["authorize-url", "--endpoint", "https://e.example/a", "--client-id", "a"], "missing --redirect-uri"),
        (base + ["--param", "novalue"], "--param takes NAME=VALUE"),
        (base + ["--scope", "a", "--scope", "b"], "--scope is given more than once"),
        (base + ["positional"], "unexpected argument"),
        (base + ["--unknown", "x"], "unknown option"),
        (base + ["--policy", "lenient"], "--policy takes one of native, custom-scheme-only"),
    ])
    func refusesBadUsage(arguments: [String], message: String) {
        let result = Self.run(arguments)
        #expect(result.code == ExitCode.usage)
        #expect(result.out.isEmpty)
        #expect(result.err.contains(message), "\(result.err)")
    }

    /// The redirect URI is checked as `parse` checks one, under the same options.
    @Test func checksTheRedirectURIUnderTheParsePolicies() throws {
        let localhost = [
            "authorize-url", "--endpoint", "https://e.example/authorize", "--client-id", "a",
            "--redirect-uri", "http://localhost:8400/cb",
        ]
        #expect(Self.run(localhost).code == ExitCode.usage)
        let allowed = Self.run(localhost + ["--allow-localhost"])
        #expect(allowed.code == ExitCode.success)
        let allowedFields = try #require(authorizeJSONObject(allowed.out))
        let url = try #require(Dictionary(uniqueKeysWithValues: allowedFields)["url"])
        #expect(try CallbackURL(parsing: url).queryParameters.value(named: "redirect_uri") == "http://localhost:8400/cb")

        let custom = [
            "authorize-url", "--endpoint", "https://e.example/authorize", "--client-id", "a",
            "--policy", "custom-scheme-only", "--redirect-uri",
        ]
        #expect(Self.run(custom + ["com.example.app:/cb"]).code == ExitCode.success)
        #expect(Self.run(custom + ["https://app.example.com/cb"]).code == ExitCode.usage)
    }

    /// Sent exactly as given: providers compare redirect_uri as a string (RFC 9700 §2.1),
    /// so case is not folded (the Auth0 seed's iOS callback has capitals in its scheme).
    @Test func sendsTheRedirectURIExactlyAsGiven() throws {
        let redirect = "Auth0.Centralized-Login-Test-2://speyrott.auth0.com/ios/Auth0.Centralized-Login-Test-2/callback"
        let result = Self.run([
            "authorize-url", "--endpoint", "https://speyrott.auth0.com/authorize",
            "--client-id", "iV2lnrgSBw64uzf1x0MN3svQTYQYcBl2", "--redirect-uri", redirect,
        ])
        #expect(result.code == ExitCode.success)
        let fields = try #require(authorizeJSONObject(result.out))
        let url = try #require(Dictionary(uniqueKeysWithValues: fields)["url"])
        #expect(try CallbackURL(parsing: url).queryParameters.value(named: "redirect_uri") == redirect)
    }

    @Test func warnsAboutASchemeThatIsNotAReverseDomainName() {
        let result = Self.run([
            "authorize-url", "--endpoint", "https://e.example/authorize", "--client-id", "a",
            "--redirect-uri", "myapp://cb",
        ])
        #expect(result.code == ExitCode.success)
        #expect(result.err.contains("warning"))
        #expect(result.err.contains("RFC 8252 §7.1"))
        #expect(Self.run(Self.base).err.isEmpty)
    }

    @Test func helpDocumentsTheDefaultScopeAndTheOutput() {
        let result = Self.run(["authorize-url", "--help"])
        #expect(result.code == ExitCode.success)
        for needle in [
            "USAGE: callback-router authorize-url --endpoint URL --client-id ID --redirect-uri U",
            "--scope S", "(default: openid)", "--param NAME=VALUE", "resource",
            "--policy P", "--allow-localhost",
            #"{"url":…,"state":…,"code_verifier":…,"nonce":…}"#, "%20", "EXIT CODES",
        ] {
            #expect(result.out.contains(needle), "\(needle)")
        }
    }

    /// The help's example runs as printed.
    @Test func helpExampleWorks() {
        let result = Self.run([
            "authorize-url", "--endpoint", "https://example.auth0.com/authorize",
            "--client-id", "abc123", "--redirect-uri", "http://127.0.0.1:8400/callback",
            "--scope", "openid profile offline_access", "--param", "audience=https://api.example.com",
        ])
        #expect(result.code == ExitCode.success)
    }
}

/// Reads the flat JSON object of strings the command prints (no escapes occur in it:
/// URLs are percent-encoded ASCII, secrets base64url).
private func authorizeJSONObject(_ text: String) -> [(String, String)]? {
    guard text.hasPrefix("{\""), text.hasSuffix("\"}\n"), !text.contains("\\") else { return nil }
    let body = text.dropFirst(2).dropLast(3)
    var members: [(String, String)] = []
    for member in body.split(separator: "\",\"", omittingEmptySubsequences: false) {
        let parts = member.split(separator: "\":\"", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        members.append((String(parts[0]), String(parts[1])))
    }
    return members
}
