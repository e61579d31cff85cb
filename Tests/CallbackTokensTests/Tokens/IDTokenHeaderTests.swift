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

/// The ID token's JOSE header: its `alg` one the provider signs with (OpenID Connect Core
/// §3.1.3.7 item 7, RS256 by default), never `none` in any spelling, and no `crit` (RFC 7515
/// §4.1.11). Cases named after a peer's test come from that test.
@Suite struct IDTokenHeaderTests {
    typealias Base = IDTokenClaimsTests

    static func check(header: String, algorithms: [String] = TokenSet.defaultSigningAlgorithms) throws -> IDTokenClaims {
        let (delivery, claims) = try Base.fixture()
        return try Base.check(Base.jwt(header: header, Base.payload(claims)), delivery: delivery, algorithms: algorithms)
    }

    /// A discovery document whose `id_token_signing_alg_values_supported` is `list`.
    static func metadata(listing list: String) throws -> ProviderMetadata {
        let document =
            #"{"issuer":"https://op.example.com","authorization_endpoint":"https://op.example.com/a","token_endpoint":"https://op.example.com/t","jwks_uri":"https://op.example.com/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":\#(list)}"#
        return try ProviderMetadata(parsing: Array(document.utf8), expectedIssuer: Base.issuer)
    }

    /// oauth4webapi, authorization_code.test.ts, "processAuthorizationCodeResponse() with an
    /// ID Token (alg signalled)": the provider lists ES256, an ES256 token passes.
    @Test func anAlgorithmTheProviderListsIsAccepted() throws {
        let metadata = try Self.metadata(listing: #"["ES256"]"#)
        #expect(metadata.idTokenSigningAlgorithms == ["ES256"])
        #expect(try Self.check(header: #"{"alg":"ES256"}"#, algorithms: metadata.idTokenSigningAlgorithms).algorithm == "ES256")
    }

    /// oauth4webapi, "… with an ID Token (alg default)" and the first case of "… (alg
    /// mismatches)": without the provider's list only RS256 passes.
    @Test func withoutTheProvidersListOnlyRS256IsAccepted() throws {
        #expect(TokenSet.defaultSigningAlgorithms == ["RS256"])
        #expect(try Self.check(header: #"{"alg":"RS256"}"#).algorithm == "RS256")
        for other in ["ES256", "HS256", "PS256", "RS512", "rs256"] {
            let error = expectRefusal(.unsupportedAlgorithm) { try Self.check(header: #"{"alg":"\#(other)"}"#) }
            #expect((error as? CallbackError)?.detail.contains("signingAlgorithms") == true)
        }
    }

    /// oauth4webapi, the second case of "… (alg mismatches)": the provider lists RS256, an
    /// ES256 token is refused.
    @Test func anAlgorithmTheProviderDoesNotListIsRefused() throws {
        let metadata = try Self.metadata(listing: #"["RS256"]"#)
        expectRefusal(.unsupportedAlgorithm) {
            try Self.check(header: #"{"alg":"ES256"}"#, algorithms: metadata.idTokenSigningAlgorithms)
        }
    }

    /// `none` in every spelling, even when a provider lists it.
    @Test(arguments: ["none", "NONE", "nOnE", "None"])
    func noneIsRefusedInAnySpelling(_ none: String) throws {
        let error = expectRefusal(.unsupportedAlgorithm) {
            try Self.check(header: #"{"alg":"\#(none)"}"#, algorithms: ["RS256", "none", "NONE", "nOnE", "None"])
        }
        #expect((error as? CallbackError)?.detail.contains("unsigned") == true)
    }

    /// oauth4webapi's validateJwt refuses any `crit` ("no JWT \"crit\" header parameter
    /// extensions are supported"): an empty list, a known-looking name and a malformed value alike.
    @Test(arguments: [#""crit":["exp"],"exp":1"#, #""crit":[]"#, #""crit":["b64"],"b64":false"#, #""crit":"b64""#])
    func aCriticalHeaderIsRefused(_ members: String) throws {
        let error = expectRefusal(.unsupportedAlgorithm) { try Self.check(header: #"{"alg":"RS256",\#(members)}"#) }
        #expect((error as? CallbackError)?.detail.contains("crit") == true)
    }

    /// The refresh checks apply the same header rules, in all three forms.
    @Test func aRefreshedTokenMeetsTheSameHeaderRules() throws {
        typealias Refreshed = RefreshedIDTokenTests
        let (previous, claims) = try Refreshed.login()
        let (first, _) = try Refreshed.first()
        for header in [#"{"alg":"NONE"}"#, #"{"alg":"ES256"}"#, #"{"alg":"RS256","crit":["exp"]}"#] {
            let tokens = try Refreshed.response(Base.jwt(header: header, Base.payload(claims)))
            expectRefusal(.unsupportedAlgorithm) {
                try tokens.checkRefreshedIDToken(clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock())
            }
            expectRefusal(.unsupportedAlgorithm) {
                try tokens.checkRefreshedIDToken(
                    previousIDToken: previous, clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock())
            }
            expectRefusal(.unsupportedAlgorithm) {
                try tokens.checkRefreshedIDToken(previous: first, clientID: Base.clientID, clock: ManualAttemptClock())
            }
        }
        let es256 = try Refreshed.response(Base.jwt(header: #"{"alg":"ES256"}"#, Base.payload(claims)))
        #expect(
            try es256.checkRefreshedIDToken(
                clientID: Base.clientID, issuer: Base.issuer, signingAlgorithms: ["ES256"], clock: ManualAttemptClock()) != nil)
    }

    /// The login's token given to a refresh is read as expectations only, but an unsigned one
    /// in any spelling is still refused.
    @Test(arguments: ["none", "NONE", "nOnE"])
    func anUnsignedEarlierTokenIsRefusedInAnySpelling(_ none: String) throws {
        let (_, claims) = try Base.fixture()
        let earlier = Base.jwt(header: #"{"alg":"\#(none)"}"#, Base.payload(claims))
        expectRefusal(.invalidParameter) { try TokenSet.checkPreviousIDToken(earlier, clientID: Base.clientID, issuer: Base.issuer) }
    }
}
