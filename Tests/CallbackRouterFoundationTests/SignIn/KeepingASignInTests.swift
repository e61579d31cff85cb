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

import CallbackRouterFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sign-in an app can keep: encoded with its tokens and absolute expiry, shown without
/// them, rebuilt, and kept current by a refresh (against ``TestProvider``).
@Suite(.serialized) struct KeepingASignInTests {
    /// The test provider is `http` on 127.0.0.1: each call opts in.
    static let options = SignIn.Options(allowingLoopbackHTTP: true)

    static func signIn(_ provider: TestProvider) async throws -> SignIn {
        try await SignIn.loopback(issuer: provider.issuer, clientID: TestProvider.clientID, scope: "openid profile", options: options) {
            url in
            _ = try await URLSession.shared.data(from: url)
        }
    }

    @Test func aStoredSignInComesBackWithItsTokensAndExpiryAndShowsNoToken() async throws {
        let provider = try TestProvider()
        let signIn = try await Self.signIn(provider)
        let data = try JSONEncoder().encode(signIn)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""expires_at":"#))
        let restored = try JSONDecoder().decode(SignIn.self, from: data)
        #expect(restored.issuer == signIn.issuer)
        #expect(restored.clientID == signIn.clientID)
        #expect(restored.tokenEndpoint == signIn.tokenEndpoint)
        #expect(restored.tokens.accessToken == signIn.tokens.accessToken)
        #expect(restored.tokens.refreshToken == signIn.tokens.refreshToken)
        #expect(restored.tokens.idToken == signIn.tokens.idToken)
        #expect(restored.tokens.scope == signIn.tokens.scope)
        #expect(restored.tokens.expiresIn == 3600)
        #expect(restored.tokens.expiresAt != nil && restored.tokens.expiresAt == signIn.tokens.expiresAt)
        #expect(restored.claims == nil)

        var dumped = ""
        dump(restored, to: &dumped)
        for shown in [restored.description, String(reflecting: restored), dumped, restored.tokens.description, "\(restored.tokens)"] {
            for secret in [signIn.tokens.accessToken, signIn.tokens.refreshToken ?? "-", signIn.tokens.idToken ?? "-"] {
                #expect(!shown.contains(secret))
            }
        }
    }

    @Test func refreshReplacesARotatedRefreshTokenAndKeepsOneThatIsNot() async throws {
        let provider = try TestProvider()
        provider.refreshAnswers = ["refresh-2", nil]
        var signIn = try await Self.signIn(provider)
        try await signIn.refresh(options: Self.options)
        #expect(signIn.tokens.accessToken == "access-2")
        #expect(signIn.tokens.refreshToken == "refresh-2") // rotated: replaced
        #expect(provider.tokenRequests.last?["refresh_token"] == "refresh-1")
        #expect(signIn.claims?.subject == "alice")
        try await signIn.refresh(options: Self.options)
        #expect(signIn.tokens.accessToken == "access-3")
        #expect(signIn.tokens.refreshToken == "refresh-2") // not rotated: kept
        #expect(provider.tokenRequests.last?["refresh_token"] == "refresh-2")
        #expect(signIn.tokens.scope == "openid profile")
    }

    @Test func aDecodedSignInRefreshesAgainstItsStoredIDToken() async throws {
        let provider = try TestProvider()
        provider.refreshAnswers = ["refresh-2"]
        let data = try JSONEncoder().encode(try await Self.signIn(provider))
        var restored = try JSONDecoder().decode(SignIn.self, from: data)
        try await restored.refresh(options: Self.options)
        #expect(restored.claims?.subject == "alice")
        #expect(restored.tokens.refreshToken == "refresh-2")
    }

    /// A provider that signs its ID tokens with ES256 (and lists it in discovery): the
    /// sign-in's ID token and every refreshed one are checked against that list, which the
    /// stored sign-in keeps; one stored before the list was kept decodes as RS256.
    @Test func theProvidersSigningAlgorithmsServeTheSignInAndEveryRefreshAfterARestart() async throws {
        let provider = try TestProvider()
        provider.signingAlgorithm = "ES256"
        provider.refreshAnswers = ["refresh-2", "refresh-3"]
        var signIn = try await Self.signIn(provider)
        #expect(signIn.signingAlgorithms == ["ES256"])
        try await signIn.refresh(options: Self.options)
        #expect(signIn.claims?.subject == "alice")
        var restored = try JSONDecoder().decode(SignIn.self, from: try JSONEncoder().encode(signIn))
        #expect(restored.signingAlgorithms == ["ES256"])
        try await restored.refresh(options: Self.options)
        #expect(restored.tokens.refreshToken == "refresh-3")

        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(restored)) as? [String: Any])
        object["id_token_signing_alg_values_supported"] = nil
        let older = try JSONDecoder().decode(SignIn.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(older.signingAlgorithms == ["RS256"])
        #expect(throws: CallbackError.self) {
            _ = try SignIn(
                issuer: "https://accounts.example.com", clientID: "abc123", tokenEndpoint: "https://accounts.example.com/token",
                tokens: restored.tokens, signingAlgorithms: [])
        }
    }

    @Test func aRefreshWithoutARefreshTokenSaysToSignInAgain() async throws {
        let tokens = try TokenSet(accessToken: "a", tokenType: "Bearer", expiresAt: nil)
        var signIn = try SignIn(
            issuer: "https://accounts.example.com", clientID: "abc123", tokenEndpoint: "https://accounts.example.com/token", tokens: tokens)
        await #expect {
            try await signIn.refresh()
        } throws: { error in
            (error as? CallbackError)?.reason == .missingParameter && error.localizedDescription.contains("sign in again")
        }
    }

    @Test func decodingRefusesAnEmptyTokenWithoutShowingTheValues() throws {
        let stored =
            #"{"issuer":"https://accounts.example.com","client_id":"abc123","token_endpoint":"https://accounts.example.com/token","tokens":{"access_token":"","token_type":"Bearer","refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA"}}"#
        #expect {
            _ = try JSONDecoder().decode(SignIn.self, from: Data(stored.utf8))
        } throws: { error in
            "\(error)".contains("access_token is empty") && !"\(error)".contains("tGzv3JOkF0XG5Qx2TlKWIA")
        }
        let plain =
            #"{"issuer":"http://accounts.example.com","client_id":"abc123","token_endpoint":"http://accounts.example.com/token","tokens":{"access_token":"a","token_type":"Bearer"}}"#
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(SignIn.self, from: Data(plain.utf8)) }
    }
}
