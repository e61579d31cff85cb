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

import CallbackRouter
import CallbackTestSupport
import Testing

/// The profiles themselves: names, and what each one changes in a router beyond a single
/// callback (overlap validation, pending attempts, handlers). The callbacks are in
/// ProviderVectorTests.
@Suite struct ProviderProfileTests {
    @Test(arguments: ProviderProfile.allCases)
    func aProfileIsFoundByItsLowercaseName(_ profile: ProviderProfile) {
        #expect(ProviderProfile(name: profile.name) == profile)
        #expect(profile.name == profile.name.lowercased())
        #expect(profile.source.hasPrefix("https://"))
        #expect(!profile.summary.isEmpty)
    }

    @Test(arguments: ["", "Entra", "ENTRA", "azure", "entra ", "Spotify", "clerk", "auth0"])
    func anUnknownNameIsNoProfile(_ name: String) {
        #expect(ProviderProfile(name: name) == nil)
    }

    @Test func theProfilesAreListedByName() {
        #expect(
            ProviderProfile.allCases.map(\.name) == ["apple", "auth0-spa", "clerk-hosted", "cognito", "entra", "spotify", "supabase"])
    }

    @Test func routesThatOnlyTheEntraProfileMakesOverlapAreRefused() throws {
        let plain = try RedirectURI("msauth.com.example.app://auth")
        let slash = try RedirectURI("msauth.com.example.app://auth/")
        var distinct = RouterBuilder()
        distinct.add(Route("a", redirectURI: plain, dialect: .oauth2))
        distinct.add(Route("b", redirectURI: slash, dialect: .oauth2))
        try distinct.validate()

        var overlapping = RouterBuilder()
        overlapping.add(Route("a", redirectURI: plain, dialect: .oauth2, profiles: [.entra]))
        overlapping.add(Route("b", redirectURI: slash, dialect: .oauth2))
        expectRefusal(.invalidConfiguration) { try overlapping.validate() }
    }

    @Test func theEntraProfileLeavesHttpPathsAsTheyWere() throws {
        // http(s) already equates "" and "/"; the profile adds nothing else there.
        let redirect = try RedirectURI("https://app.example.com/cb")
        let callback = try CallbackURL(parsing: "https://app.example.com/cb/?code=c&state=s")
        #expect(!redirect.matches(callback, profiles: [.entra]))
    }

    @Test func aSupabaseRouteHasOnePendingAttempt() throws {
        var builder = RouterBuilder()
        builder.add(
            Route(
                "supabase", redirectURI: try RedirectURI("com.example.app://login-callback"), dialect: .oauth2,
                profiles: [.supabase]))
        let router = try builder.build(clock: ManualAttemptClock())
        _ = try router.beginLogin(on: "supabase")
        expectRefusal(.conflict) { try router.beginLogin(on: "supabase") }
    }

    @Test func anUnboundErrorReachesNoHandlerAndEndsNoAttempt() throws {
        let calls = Locked(0)
        var builder = RouterBuilder()
        builder.add(
            Route(
                "supabase", redirectURI: try RedirectURI("com.example.app://login-callback"), dialect: .oauth2,
                profiles: [.supabase], handler: { _ in calls.withLock { $0 += 1 } }))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "supabase")
        let refusal = expectRefusal(.stateMissing) {
            try router.handle(
                "com.example.app://login-callback#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired"
            )
        }
        #expect(refusal.map { "\($0)".contains("access_denied") } == true, "the refusal names the provider's error code")
        #expect(calls.withLock { $0 } == 0)
        #expect(router.pendingCount == 1)
        let delivery = try router.handle("com.example.app://login-callback?code=0b7a4b4e-3f5e-4d39-8f5a-6f8e0c1a2b3c")
        #expect(delivery.attempt.id == attempt.id)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func withoutAProfileTheSameErrorIsRefusedAsBefore() throws {
        var builder = RouterBuilder()
        builder.add(Route("plain", redirectURI: try RedirectURI("com.example.app://login-callback"), dialect: .oauth2))
        let router = try builder.build(clock: ManualAttemptClock())
        _ = try router.beginLogin(on: "plain")
        expectRefusal(.parametersInFragment) {
            try router.handle("com.example.app://login-callback#error=access_denied&error_description=x")
        }
        expectRefusal(.stateMissing) { try router.handle("com.example.app://login-callback?code=c") }
    }

    @Test func expectationsNameTheirProfiles() {
        let expectations = CallbackExpectations(state: "af0ifjsldkj", profiles: [.entra, .apple])
        #expect(expectations.description.contains("profiles: entra,apple"))
        #expect(!expectations.description.contains("af0ifjsldkj"))
    }
}
