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

/// A refreshed ID token names the login's issuer, account, audiences and authorized party
/// (OpenID Connect Core §12.2), whichever form the login's token is given in; its
/// `auth_time` is the login's unless the caller allows a change, which is then reported.
@Suite struct RefreshedIDTokenSameLoginTests {
    typealias Base = IDTokenClaimsTests
    typealias Refreshed = RefreshedIDTokenTests

    /// The two forms of the login's token: its string (the CLI, a stored sign-in) and its
    /// claims checked in this process (`SignIn` right after the login).
    enum Form: CaseIterable { case string, claims }

    /// The login's claims (with `auth_time`, and `azp` when asked), and a refreshed token's
    /// claims that pass.
    static func login(azp: Bool = false) throws -> (token: String, claims: IDTokenClaims, refreshed: [String: String]) {
        var (delivery, claims) = try Base.fixture()
        claims["auth_time"] = String(Base.now - 60)
        if azp { claims["azp"] = #""\#(Base.clientID)""# }
        let token = Base.jwt(Base.payload(claims))
        let checked = try Base.check(token, delivery: delivery)
        claims["nonce"] = nil
        return (token, checked, claims)
    }

    static func check(
        _ claims: [String: String], against login: (token: String, claims: IDTokenClaims, refreshed: [String: String]), form: Form,
        authTime: RefreshedAuthTime? = nil
    ) throws -> IDTokenClaims? {
        let tokens = try Refreshed.response(Base.jwt(Base.payload(claims)))
        switch (form, authTime) {
        case (.string, nil):
            return try tokens.checkRefreshedIDToken(
                previousIDToken: login.token, clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock())
        case (.string, let rule?):
            return try tokens.checkRefreshedIDToken(
                previousIDToken: login.token, clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock(), authTime: rule)
        case (.claims, nil):
            return try tokens.checkRefreshedIDToken(previous: login.claims, clientID: Base.clientID, clock: ManualAttemptClock())
        case (.claims, let rule?):
            return try tokens.checkRefreshedIDToken(
                previous: login.claims, clientID: Base.clientID, clock: ManualAttemptClock(), authTime: rule)
        }
    }

    @Test(arguments: Form.allCases)
    func anotherAccountIsRefusedAsASubjectMismatchThatShowsNeitherSubject(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["sub"] = #""mallory-0042""#
        do {
            _ = try Self.check(claims, against: login, form: form)
            Issue.record("another account's refreshed ID token was accepted")
        } catch let error as CallbackError {
            #expect(error.reason == .subjectMismatch)
            #expect(error.detail.contains("another account"))
            #expect(!error.detail.contains("mallory") && !error.detail.contains("248289761001"))
        }
    }

    @Test(arguments: Form.allCases)
    func anotherIssuerIsRefused(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["iss"] = #""https://op.example.com/other""#
        expectRefusal(.issuerMismatch) { try Self.check(claims, against: login, form: form) }
    }

    @Test(arguments: Form.allCases)
    func otherAudiencesAreRefused(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["aud"] = #"["s6BhdRkqt3","api"]"#
        claims["azp"] = #""s6BhdRkqt3""#
        expectRefusal(.audienceMismatch) { try Self.check(claims, against: login, form: form) }
    }

    /// §12.2: "if no azp Claim was present in the original ID Token, one MUST NOT be present
    /// in the new ID Token", and one that was present must stay the same.
    @Test(arguments: Form.allCases)
    func anAuthorizedPartyThatAppearsOrDisappearsIsRefused(_ form: Form) throws {
        let without = try Self.login()
        var added = without.refreshed
        added["azp"] = #""\#(Base.clientID)""#
        expectRefusal(.audienceMismatch) { try Self.check(added, against: without, form: form) }

        let with = try Self.login(azp: true)
        #expect(try Self.check(with.refreshed, against: with, form: form)?.authorizedParty == Base.clientID)
        var dropped = with.refreshed
        dropped["azp"] = nil
        expectRefusal(.audienceMismatch) { try Self.check(dropped, against: with, form: form) }
    }

    @Test(arguments: Form.allCases)
    func aChangedAuthTimeIsRefusedByDefault(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["auth_time"] = String(Base.now - 5)
        expectRefusal(.authTimeMismatch) { try Self.check(claims, against: login, form: form) }
        expectRefusal(.authTimeMismatch) { try Self.check(claims, against: login, form: form, authTime: .mustMatch) }
    }

    @Test(arguments: Form.allCases)
    func aChangedAuthTimeIsAcceptedAndReportedWhenAllowed(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["auth_time"] = String(Base.now - 5)
        let checked = try #require(try Self.check(claims, against: login, form: form, authTime: .mayChange))
        #expect(checked.authTimeChanged && checked.authTime == Base.now - 5)
        #expect(String(describing: checked).contains("auth_time: changed"))
        // The same auth_time is no change.
        #expect(try Self.check(login.refreshed, against: login, form: form, authTime: .mayChange)?.authTimeChanged == false)
        // What the setting allows is the auth_time only: another account is still refused.
        claims["sub"] = #""someone-else""#
        expectRefusal(.subjectMismatch) { try Self.check(claims, against: login, form: form, authTime: .mayChange) }
    }

    /// §12.2 binds `auth_time` only "if the ID Token contains an auth_time Claim".
    @Test(arguments: Form.allCases)
    func aRefreshedTokenWithoutAuthTimeIsAccepted(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["auth_time"] = nil
        let checked = try #require(try Self.check(claims, against: login, form: form))
        #expect(checked.authTime == nil && !checked.authTimeChanged)
    }

    @Test(arguments: Form.allCases)
    func aNonceOtherThanTheLoginsIsRefused(_ form: Form) throws {
        let login = try Self.login()
        var claims = login.refreshed
        claims["nonce"] = #""another-nonce""#
        expectRefusal(.nonceMismatch) { try Self.check(claims, against: login, form: form, authTime: .mayChange) }
    }
}
