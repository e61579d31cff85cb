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

/// ``SignIn``'s one call against a real local provider (``TestProvider``, real sockets), the
/// "browser" a `URLSession` that follows the redirects: the start link, the authorization
/// endpoint's redirect, the loopback receiver's page.
@Suite(.serialized) struct SigningInWithOneCallTests {
    static func browse(_ url: URL) async throws {
        _ = try await URLSession.shared.data(from: url)
    }

    static var options: SignIn.Options {
        var options = SignIn.Options(allowingLoopbackHTTP: true) // the test provider is http on 127.0.0.1
        options.timeout = .seconds(60)
        return options
    }

    @Test func theLoopbackSignInReturnsCheckedTokensAndSendsTheBoundRedirectURI() async throws {
        let provider = try TestProvider()
        let signIn = try await SignIn.loopback(
            issuer: provider.issuer, clientID: TestProvider.clientID, scope: "openid profile", options: Self.options
        ) { url in
            try await Self.browse(url)
        }
        #expect(signIn.issuer == provider.issuer)
        #expect(signIn.tokenEndpoint == provider.issuer + "/token")
        #expect(signIn.tokens.accessToken == "access-1")
        #expect(signIn.tokens.refreshToken == "refresh-1")
        let claims = try #require(signIn.claims)
        #expect(claims.subject == "alice")
        #expect(claims.nonceChecked)

        let authorization = try #require(provider.authorizations.first)
        let redirect = try #require(authorization["redirect_uri"])
        #expect(redirect.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/callback/) != nil)
        #expect(authorization["code_challenge_method"] == "S256")
        #expect(authorization["nonce"]?.isEmpty == false)
        let token = try #require(provider.tokenRequests.first)
        // The exact redirect URI sent, port included (RFC 6749 §4.1.3).
        #expect(token["redirect_uri"] == redirect)
        #expect(token["code_verifier"]?.utf8.count == 43)
        #expect(token["client_id"] == TestProvider.clientID)
    }

    @Test func aRefusalInTheCallbackIsAnAuthorizationError() async throws {
        let provider = try TestProvider()
        provider.authorizationError = "access_denied"
        await #expect {
            _ = try await SignIn.loopback(issuer: provider.issuer, clientID: TestProvider.clientID, options: Self.options) { url in
                try await Self.browse(url)
            }
        } throws: { error in
            guard let refusal = error as? AuthorizationError else { return false }
            return refusal.code == .accessDenied && refusal.category == .providerRefused
                && error.localizedDescription.hasPrefix("The sign-in service did not sign you in")
        }
        #expect(provider.tokenRequests.isEmpty)
    }

    struct BrowserFailed: Error {}

    @Test func anErrorFromOpenEndsTheSignInAtOnce() async throws {
        let provider = try TestProvider()
        let started = ContinuousClock.now
        await #expect(throws: BrowserFailed.self) {
            _ = try await SignIn.loopback(issuer: provider.issuer, clientID: TestProvider.clientID, options: Self.options) { _ in
                throw BrowserFailed()
            }
        }
        // Not the 60 s timeout: the wait ended when open threw.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func theRedirectSignInRedeemsTheCallbackTheAppReceived() async throws {
        let provider = try TestProvider()
        let signIn = try await SignIn.redirect(
            issuer: provider.issuer, clientID: TestProvider.clientID, redirectURI: "com.example.app:/oauth2redirect", options: Self.options
        ) { url in
            // What ASWebAuthenticationSession's completion or onOpenURL hands the app.
            let fields = TestProvider.fields(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
            provider.expectNonce(fields["nonce"] ?? "")
            return try #require(URL(string: "com.example.app:/oauth2redirect?code=\(TestProvider.code)&state=\(fields["state"] ?? "")"))
        }
        #expect(signIn.claims?.subject == "alice")
        #expect(provider.tokenRequests.first?["redirect_uri"] == "com.example.app:/oauth2redirect")
    }

    @Test func aCallbackOfAnotherLoginEndsTheRedirectSignIn() async throws {
        let provider = try TestProvider()
        let started = ContinuousClock.now
        await #expect {
            _ = try await SignIn.redirect(
                issuer: provider.issuer, clientID: TestProvider.clientID, redirectURI: "com.example.app:/oauth2redirect",
                options: Self.options
            ) { _ in
                try #require(URL(string: "com.example.app:/oauth2redirect?code=abc&state=c29tZW9uZSBlbHNlJ3Mgc3RhdGUgdmFsdWUgaGVyZQ"))
            }
        } throws: { error in
            (error as? CallbackError)?.reason == .unknownState
        }
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(provider.tokenRequests.isEmpty)
    }
}
