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

/// `SignIn` takes an `http` issuer on a loopback IP literal only when
/// `Options.allowingLoopbackHTTP` says so, as the CLI needs `--allow-http-loopback`: without
/// it nothing is sent and the refusal names the option; `http` elsewhere is refused anyway.
@Suite(.serialized) struct AnHTTPIssuerNeedsTheOptInTests {
    static func isRefusalNamingTheOption(_ error: any Error) -> Bool {
        (error as? CallbackError)?.reason == .invalidConfiguration
            && error.localizedDescription.contains("SignIn.Options.allowingLoopbackHTTP")
    }

    @Test func aLoopbackSignInWithoutTheOptInIsRefusedBeforeAnythingIsSent() async throws {
        let provider = try TestProvider()
        await #expect {
            _ = try await SignIn.loopback(issuer: provider.issuer, clientID: TestProvider.clientID) { _ in
                Issue.record("the browser was opened for an http issuer without the opt-in")
            }
        } throws: { error in
            Self.isRefusalNamingTheOption(error)
        }
        #expect(provider.authorizations.isEmpty && provider.tokenRequests.isEmpty)
    }

    @Test func aRedirectSignInWithoutTheOptInIsRefused() async throws {
        let provider = try TestProvider()
        await #expect {
            _ = try await SignIn.redirect(
                issuer: provider.issuer, clientID: TestProvider.clientID, redirectURI: "com.example.app:/oauth2redirect"
            ) { url in
                Issue.record("the authorization request was presented for an http issuer without the opt-in")
                return url
            }
        } throws: { error in
            Self.isRefusalNamingTheOption(error)
        }
    }

    @Test func withTheOptInTheLoopbackSignInAndItsRefreshWork() async throws {
        let provider = try TestProvider()
        provider.refreshAnswers = ["refresh-2"]
        var signIn = try await KeepingASignInTests.signIn(provider)
        #expect(signIn.claims?.subject == "alice")
        try await signIn.refresh(options: SignIn.Options(allowingLoopbackHTTP: true))
        #expect(signIn.tokens.accessToken == "access-2")
    }

    @Test func aStoredHTTPSignInRefreshesOnlyWithTheOptIn() async throws {
        let provider = try TestProvider()
        provider.refreshAnswers = ["refresh-2"]
        let data = try JSONEncoder().encode(try await KeepingASignInTests.signIn(provider))
        var restored = try JSONDecoder().decode(SignIn.self, from: data)
        await #expect {
            try await restored.refresh()
        } throws: { error in
            Self.isRefusalNamingTheOption(error)
        }
        #expect(provider.tokenRequests.count == 1, "only the login's token request reached the provider")
        try await restored.refresh(options: SignIn.Options(allowingLoopbackHTTP: true))
        #expect(restored.tokens.accessToken == "access-2")
    }

    @Test func httpOffThisMachineIsRefusedEvenWithTheOptIn() async throws {
        await #expect {
            _ = try await SignIn.loopback(
                issuer: "http://accounts.example.com", clientID: "abc123", options: SignIn.Options(allowingLoopbackHTTP: true)
            ) { _ in
                Issue.record("the browser was opened for an http issuer off this machine")
            }
        } throws: { error in
            (error as? CallbackError)?.reason == .invalidConfiguration && error.localizedDescription.contains("must be https")
        }
    }
}
