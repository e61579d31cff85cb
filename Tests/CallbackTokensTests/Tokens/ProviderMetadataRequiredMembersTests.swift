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

/// The members a discovery document must have: `response_types_supported` always (RFC 8414
/// §2, OpenID Connect Discovery 1.0 §3), and in an OpenID provider's document also
/// `jwks_uri`, `subject_types_supported` and `id_token_signing_alg_values_supported`, the
/// seven AppAuth-iOS's OIDServiceDiscovery requires. Cases named after a peer's test come
/// from that test.
@Suite struct ProviderMetadataRequiredMembersTests {
    /// Google's published document, the one AppAuth-iOS's OIDServiceDiscoveryTests reads
    /// (`kDiscoveryDocument`), with `remove` left out and `replace` put in.
    static func google(removing remove: String? = nil, replacing replace: [String: String] = [:]) -> [UInt8] {
        var members: [(String, String)] = [
            ("issuer", #""https://accounts.google.com""#),
            ("authorization_endpoint", #""https://accounts.google.com/o/oauth2/v2/auth""#),
            ("device_authorization_endpoint", #""https://oauth2.googleapis.com/device/code""#),
            ("token_endpoint", #""https://oauth2.googleapis.com/token""#),
            ("userinfo_endpoint", #""https://openidconnect.googleapis.com/v1/userinfo""#),
            ("revocation_endpoint", #""https://oauth2.googleapis.com/revoke""#),
            ("jwks_uri", #""https://www.googleapis.com/oauth2/v3/certs""#),
            (
                "response_types_supported",
                #"["code","token","id_token","code token","code id_token","token id_token","code token id_token","none"]"#
            ),
            ("subject_types_supported", #"["public"]"#),
            ("id_token_signing_alg_values_supported", #"["RS256"]"#),
            ("scopes_supported", #"["openid","email","profile"]"#),
            ("token_endpoint_auth_methods_supported", #"["client_secret_post","client_secret_basic"]"#),
            (
                "claims_supported",
                #"["aud","email","email_verified","exp","family_name","given_name","iat","iss","locale","name","picture","sub"]"#
            ),
            ("code_challenge_methods_supported", #"["plain","S256"]"#),
            (
                "grant_types_supported",
                #"["authorization_code","refresh_token","urn:ietf:params:oauth:grant-type:device_code","urn:ietf:params:oauth:grant-type:jwt-bearer"]"#
            ),
        ]
        members.removeAll { $0.0 == remove }
        members = members.map { ($0.0, replace[$0.0] ?? $0.1) }
        return Array(("{" + members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}").utf8)
    }

    static let google = "https://accounts.google.com"

    /// AppAuth-iOS, OIDServiceDiscoveryTests `testNoErrorWhenNoMissingFields` (here with
    /// Google's whole document): read, with the lists kept.
    @Test func readsGooglesDocument() throws {
        let metadata = try ProviderMetadata(parsing: Self.google(), expectedIssuer: Self.google)
        #expect(metadata.jwksURI == "https://www.googleapis.com/oauth2/v3/certs")
        #expect(metadata.responseTypesSupported?.first == "code")
        #expect(metadata.subjectTypesSupported == ["public"])
        #expect(metadata.idTokenSigningAlgValuesSupported == ["RS256"])
        #expect(metadata.idTokenSigningAlgorithms == ["RS256"])
    }

    /// AppAuth-iOS `testErrorWhenMissingFieldsJSON` (Google's document without
    /// `authorization_endpoint`), and each of the other members it requires left out in turn.
    @Test(arguments: [
        "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported", "subject_types_supported",
        "id_token_signing_alg_values_supported",
    ])
    func anOpenIDProvidersDocumentWithoutARequiredMemberIsRefused(_ name: String) {
        let error = expectRefusal(.missingParameter) {
            try ProviderMetadata(parsing: Self.google(removing: name), expectedIssuer: Self.google)
        }
        #expect((error as? CallbackError)?.detail.contains(name) == true)
        #expect((error as? CallbackError)?.detail.contains("tell its operator") == true)
    }

    /// AppAuth-iOS `testErrorWhenMissingFields` (an empty document): refused, first for its issuer.
    @Test func anEmptyDocumentIsRefused() {
        expectRefusal(.issuerMissing) { try ProviderMetadata(parsing: Array("{}".utf8), expectedIssuer: Self.google) }
    }

    /// AppAuth-iOS `kDiscoveryDocumentNullField` (members set to JSON null), for each member
    /// that must be there: null is not a value.
    @Test(arguments: [
        "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported", "subject_types_supported",
        "id_token_signing_alg_values_supported",
    ])
    func aRequiredMemberThatIsNullIsRefused(_ name: String) {
        expectRefusal(.invalidParameter) {
            try ProviderMetadata(parsing: Self.google(replacing: [name: "null"]), expectedIssuer: Self.google)
        }
    }

    /// An RFC 8414 document (fetched from `oauth-authorization-server`) needs
    /// `response_types_supported` but not the OpenID members; an ID token from such a
    /// provider is then checked against RS256.
    @Test func anOAuthServersDocumentNeedsOnlyTheResponseTypes() throws {
        let minimal = Array(
            #"{"issuer":"https://accounts.google.com","authorization_endpoint":"https://accounts.google.com/a","token_endpoint":"https://accounts.google.com/t","response_types_supported":["code"]}"#
                .utf8)
        let metadata = try ProviderMetadata(parsing: minimal, expectedIssuer: Self.google, style: .oauthAuthorizationServer)
        #expect(metadata.jwksURI == nil)
        #expect(metadata.subjectTypesSupported == nil)
        #expect(metadata.idTokenSigningAlgValuesSupported == nil)
        #expect(metadata.idTokenSigningAlgorithms == TokenSet.defaultSigningAlgorithms)
        expectRefusal(.missingParameter) { try ProviderMetadata(parsing: minimal, expectedIssuer: Self.google) }
        let withoutTypes = Self.google(removing: "response_types_supported")
        let error = expectRefusal(.missingParameter) {
            try ProviderMetadata(parsing: withoutTypes, expectedIssuer: Self.google, style: .oauthAuthorizationServer)
        }
        #expect((error as? CallbackError)?.detail.contains("RFC 8414") == true)
    }

    /// A list that is present must be an array of strings.
    @Test(arguments: ["subject_types_supported", "id_token_signing_alg_values_supported", "response_types_supported"])
    func aListThatIsNotAnArrayOfStringsIsRefused(_ name: String) {
        for value in [#""RS256""#, "[1]", "{}"] {
            expectRefusal(.invalidParameter) {
                try ProviderMetadata(parsing: Self.google(replacing: [name: value]), expectedIssuer: Self.google)
            }
        }
    }
}
