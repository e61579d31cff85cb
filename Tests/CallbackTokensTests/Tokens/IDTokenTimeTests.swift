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

/// The ID token's times: the clock skew (30 s by default, a setting) and the lower bound on
/// `iat` (ten minutes by default, a setting), at login and on refresh.
@Suite struct IDTokenTimeTests {
    typealias Base = IDTokenClaimsTests

    static func check(exp: Int64 = Base.now + 600, iat: Int64, maxIssuedAtAge: Duration = TokenSet.defaultMaxIssuedAtAge) throws {
        var (delivery, claims) = try Base.fixture()
        claims["exp"] = String(exp)
        claims["iat"] = String(iat)
        _ = try Base.check(Base.jwt(Base.payload(claims)), delivery: delivery, maxIssuedAtAge: maxIssuedAtAge)
    }

    /// oauth4webapi's default `clockTolerance` (30 s): an `exp` 29 s past passes, 31 s past
    /// does not; an `iat` 31 s ahead is refused.
    @Test func theDefaultSkewIsThirtySeconds() throws {
        #expect(TokenSet.defaultMaxClockSkew == .seconds(30))
        #expect(throws: Never.self) { try Self.check(exp: Base.now - 29, iat: Base.now - 60) }
        expectRefusal(.tokenExpired) { try Self.check(exp: Base.now - 31, iat: Base.now - 60) }
        #expect(throws: Never.self) { try Self.check(iat: Base.now + 30) }
        expectRefusal(.invalidParameter) { try Self.check(iat: Base.now + 31) }
    }

    /// AppAuth-iOS (OIDAuthorizationService, `kOIDAuthorizationSessionIATMaxSkew` = 600)
    /// refuses an ID token issued more than ten minutes ago; here the bound is ten minutes
    /// plus the skew, and a setting.
    @Test func anIDTokenIssuedLongAgoIsRefused() throws {
        #expect(TokenSet.defaultMaxIssuedAtAge == .seconds(600))
        #expect(throws: Never.self) { try Self.check(iat: Base.now - 630) }
        let error = expectRefusal(.tokenExpired) { try Self.check(iat: Base.now - 631) }
        #expect((error as? CallbackError)?.detail.contains("issued too long ago") == true)
        expectRefusal(.tokenExpired) { try Self.check(exp: Base.now + 86_400, iat: Base.now - 86_000) }
        #expect(throws: Never.self) { try Self.check(iat: Base.now - 3000, maxIssuedAtAge: .seconds(3600)) }
        expectRefusal(.tokenExpired) { try Self.check(iat: Base.now - 100, maxIssuedAtAge: .seconds(30)) }
    }

    /// A refreshed ID token is newly issued (OpenID Connect Core §12.2), so the bound holds on
    /// refresh too: a provider that repeats the login's token is refused once that token is
    /// older than the bound, with a detail that says it was repeated; a larger
    /// `maxIssuedAtAge` lets it through.
    @Test func aRefreshThatRepeatsTheLoginsIDTokenIsRefusedOnceItIsOld() throws {
        var (delivery, claims) = try Base.fixture()
        claims["exp"] = String(Base.now + 3600)
        let loginToken = Base.jwt(Base.payload(claims))
        let first = try Base.check(loginToken, delivery: delivery)
        let tokens = try RefreshedIDTokenTests.response(loginToken)
        func later() -> ManualAttemptClock {
            let clock = ManualAttemptClock()
            clock.advance(by: .seconds(15 * 60))
            return clock
        }
        for error in [
            expectRefusal(.tokenExpired) { try tokens.checkRefreshedIDToken(previous: first, clientID: Base.clientID, clock: later()) },
            expectRefusal(.tokenExpired) {
                try tokens.checkRefreshedIDToken(previousIDToken: loginToken, clientID: Base.clientID, issuer: Base.issuer, clock: later())
            },
        ] {
            #expect((error as? CallbackError)?.detail.contains("repeats the earlier ID token") == true)
        }
        expectRefusal(.tokenExpired) { try tokens.checkRefreshedIDToken(clientID: Base.clientID, issuer: Base.issuer, clock: later()) }
        #expect(
            try tokens.checkRefreshedIDToken(
                previous: first, clientID: Base.clientID, maxIssuedAtAge: .seconds(3600), clock: later()) != nil)
        // Within the bound the repeated token still passes (as it did at login).
        #expect(try tokens.checkRefreshedIDToken(previous: first, clientID: Base.clientID, clock: ManualAttemptClock()) != nil)
    }
}
