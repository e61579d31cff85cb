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

/// `SignIn.refresh` compares the refreshed ID token with the login's (OpenID Connect Core
/// §12.2): another account is refused and the sign-in is left as it was; a new `auth_time`
/// is refused unless `Options.refreshedAuthTime` allows it, and then `claims` says so.
@Suite(.serialized) struct RefreshingComparesWithTheLoginTests {
    static let loginAuthTime = Int(Date().timeIntervalSince1970) - 120

    static func signIn(_ provider: TestProvider) async throws -> SignIn {
        provider.loginAuthTime = loginAuthTime
        provider.refreshAuthTime = loginAuthTime
        return try await KeepingASignInTests.signIn(provider)
    }

    @Test func anotherAccountsIDTokenIsRefusedAndTheSignInIsKept() async throws {
        let provider = try TestProvider()
        provider.refreshAnswers = ["refresh-2"]
        var signIn = try await Self.signIn(provider)
        provider.refreshSubject = "mallory"
        await #expect {
            try await signIn.refresh(options: KeepingASignInTests.options)
        } throws: { error in
            (error as? CallbackError)?.reason == .subjectMismatch && error.localizedDescription.contains("another account")
                && !error.localizedDescription.contains("mallory")
        }
        #expect(signIn.tokens.accessToken == "access-1" && signIn.tokens.refreshToken == "refresh-1")
        #expect(signIn.claims?.subject == "alice")
    }

    @Test func aNewAuthTimeIsRefusedByDefault() async throws {
        let provider = try TestProvider()
        var signIn = try await Self.signIn(provider)
        provider.refreshAuthTime = Self.loginAuthTime + 60
        await #expect {
            try await signIn.refresh(options: KeepingASignInTests.options)
        } throws: { error in
            (error as? CallbackError)?.reason == .authTimeMismatch
        }
        #expect(signIn.tokens.accessToken == "access-1")
    }

    @Test func aNewAuthTimeIsAcceptedAndReportedWhenTheOptionsAllowIt() async throws {
        let provider = try TestProvider()
        var signIn = try await Self.signIn(provider)
        provider.refreshAuthTime = Self.loginAuthTime + 60
        try await signIn.refresh(options: SignIn.Options(refreshedAuthTime: .mayChange, allowingLoopbackHTTP: true))
        #expect(signIn.tokens.accessToken == "access-2")
        #expect(signIn.claims?.authTimeChanged == true)
        #expect(signIn.claims.map { $0.authTime == Int64(Self.loginAuthTime + 60) } == true)
    }
}
