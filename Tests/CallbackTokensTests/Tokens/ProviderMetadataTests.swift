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
@testable import CallbackTokens

/// Discovery (OpenID Connect Discovery 1.0, RFC 8414): the document checked against the
/// issuer asked for, and the well-known URL built both ways.
@Suite struct ProviderMetadataTests {
    static let issuer = "https://op.example.com"

    static func document(_ changes: [String: String?] = [:]) -> [UInt8] {
        var members: [String: String] = [
            "issuer": #""https://op.example.com""#,
            "authorization_endpoint": #""https://op.example.com/authorize""#,
            "token_endpoint": #""https://op.example.com/token""#,
            "jwks_uri": #""https://op.example.com/jwks""#,
            "response_types_supported": #"["code"]"#,
            "subject_types_supported": #"["public"]"#,
            "id_token_signing_alg_values_supported": #"["RS256","ES256"]"#,
            "code_challenge_methods_supported": #"["plain","S256"]"#,
            "authorization_response_iss_parameter_supported": "true",
        ]
        for (name, value) in changes { members[name] = value }
        return Array(("{" + members.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}").utf8)
    }

    @Test func readsAGenuineDocument() throws {
        let metadata = try ProviderMetadata(parsing: Self.document(), expectedIssuer: Self.issuer)
        #expect(metadata.issuer == Self.issuer)
        #expect(metadata.authorizationEndpoint == "https://op.example.com/authorize")
        #expect(metadata.tokenEndpoint == "https://op.example.com/token")
        #expect(metadata.jwksURI == "https://op.example.com/jwks")
        #expect(metadata.codeChallengeMethodsSupported == ["plain", "S256"])
        #expect(metadata.authorizationResponseIssParameterSupported)
        let plain = try ProviderMetadata(
            parsing: Self.document(["authorization_response_iss_parameter_supported": nil]), expectedIssuer: Self.issuer)
        #expect(!plain.authorizationResponseIssParameterSupported)
    }

    /// The mix-up defence: another issuer, even one that differs only by a slash or case, is refused.
    @Test(arguments: [
        #""https://evil.example.com""#, #""https://op.example.com/""#, #""https://OP.example.com""#, #""http://op.example.com""#,
    ])
    func anotherIssuerIsRefused(_ issuer: String) {
        expectRefusal(.issuerMismatch) { try ProviderMetadata(parsing: Self.document(["issuer": issuer]), expectedIssuer: Self.issuer) }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let value: String?
        let reason: ReasonCode
        var testDescription: String { "\(name): \(value ?? "absent")" }
    }

    @Test(arguments: [
        Refusal(name: "issuer", value: nil, reason: .issuerMissing),
        Refusal(name: "issuer", value: "1", reason: .issuerMismatch),
        Refusal(name: "token_endpoint", value: nil, reason: .missingParameter),
        Refusal(name: "authorization_endpoint", value: nil, reason: .missingParameter),
        Refusal(name: "token_endpoint", value: #""http://op.example.com/token""#, reason: .schemeNotAllowed),
        Refusal(name: "token_endpoint", value: #""http://127.0.0.1:8080/token""#, reason: .schemeNotAllowed),
        Refusal(name: "authorization_endpoint", value: #""javascript:alert(1)""#, reason: .invalidParameter),
        Refusal(name: "jwks_uri", value: #""ftp://op.example.com/jwks""#, reason: .schemeNotAllowed),
        Refusal(name: "end_session_endpoint", value: #""https://op.example.com/logout#x""#, reason: .invalidParameter),
        Refusal(name: "code_challenge_methods_supported", value: #"["plain"]"#, reason: .invalidParameter),
        Refusal(name: "code_challenge_methods_supported", value: #""S256""#, reason: .invalidParameter),
        Refusal(name: "authorization_response_iss_parameter_supported", value: #""true""#, reason: .invalidParameter),
    ])
    func refusesABrokenOrHostileDocument(_ refusal: Refusal) {
        expectRefusal(refusal.reason) {
            try ProviderMetadata(parsing: Self.document([refusal.name: refusal.value]), expectedIssuer: Self.issuer)
        }
    }

    @Test func aDuplicatedIssuerIsRefused() {
        let text =
            #"{"issuer":"https://op.example.com","issuer":"https://evil.example.com","authorization_endpoint":"https://a/","token_endpoint":"https://a/t"}"#
        expectRefusal(.duplicateParameter) { try ProviderMetadata(parsing: Array(text.utf8), expectedIssuer: Self.issuer) }
    }

    @Test func anAbsentS256ListIsAcceptedUnlessRequired() throws {
        let document = Self.document(["code_challenge_methods_supported": nil])
        #expect(try ProviderMetadata(parsing: document, expectedIssuer: Self.issuer).codeChallengeMethodsSupported == nil)
        expectRefusal(.invalidParameter) { try ProviderMetadata(parsing: document, expectedIssuer: Self.issuer, requiringS256: true) }
    }

    @Test func loopbackHTTPOnlyWhenExplicitlyAllowed() throws {
        let local = "http://127.0.0.1:8080"
        let document = Self.document([
            "issuer": #""\#(local)""#, "authorization_endpoint": #""\#(local)/authorize""#, "token_endpoint": #""\#(local)/token""#,
            "jwks_uri": #""\#(local)/jwks""#,
        ])
        expectRefusal(.invalidConfiguration) { try ProviderMetadata(parsing: document, expectedIssuer: local) }
        let metadata = try ProviderMetadata(parsing: document, expectedIssuer: local, allowingLoopbackHTTP: true)
        #expect(metadata.tokenEndpoint == local + "/token")
    }

    @Test(arguments: [
        (
            "https://op.example.com", "https://op.example.com/.well-known/openid-configuration",
            "https://op.example.com/.well-known/oauth-authorization-server"
        ),
        (
            "https://op.example.com/", "https://op.example.com/.well-known/openid-configuration",
            "https://op.example.com/.well-known/oauth-authorization-server"
        ),
        (
            "https://as.example.com/tenant/v2/", "https://as.example.com/tenant/v2/.well-known/openid-configuration",
            "https://as.example.com/.well-known/oauth-authorization-server/tenant/v2"
        ),
        (
            "https://as.example.com:8443/issuer1", "https://as.example.com:8443/issuer1/.well-known/openid-configuration",
            "https://as.example.com:8443/.well-known/oauth-authorization-server/issuer1"
        ),
    ])
    func theWellKnownURLIsBuiltPerSpec(_ issuer: String, _ openID: String, _ rfc8414: String) throws {
        #expect(try ProviderMetadata.discoveryURL(issuer: issuer) == openID)
        #expect(try ProviderMetadata.discoveryURL(issuer: issuer, style: .oauthAuthorizationServer) == rfc8414)
    }

    @Test(arguments: ["http://op.example.com", "https://op.example.com/?tenant=a", "https://op.example.com/#f", "https://u@op.example.com"])
    func anIssuerThatIsNotAPlainHTTPSURLIsRefused(_ issuer: String) {
        expectRefusal(.invalidConfiguration) { try ProviderMetadata.discoveryURL(issuer: issuer) }
    }
}
