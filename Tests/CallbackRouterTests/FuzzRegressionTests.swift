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

/// What the fuzzers under Fuzz/ found, each kept as a test named after the behaviour it
/// pins (the reproducer's bytes are in the comment; docs/fuzzing.md tells the story).
@Suite struct FuzzRegressionTests {
    /// fuzz-router, reproducer `00 00 00 00 01 00 02 01 00 00 02 00 04 00`: begin on route
    /// `oauth`, begin on route `loopback`, then a callback on the loopback redirect URI
    /// carrying the state of the `oauth` attempt. It was delivered to the `oauth` attempt,
    /// through the loopback route's handler and checked against the loopback route's
    /// issuer: a response for one authorization server accepted at another's redirect URI,
    /// which is the mix-up attack per-issuer redirect URIs exist to stop (RFC 9700 §4.4.2).
    @Test func refusesAStateThatBelongsToAnotherRoutesAttempt() throws {
        let heard = Locked<[RouteID]>([])
        let handler: @Sendable (RouteID) -> CallbackHandler = { id in { _ in heard.withLock { $0.append(id) } } }
        var builder = RouterBuilder()
        builder.add(
            Route(
                "honest", redirectURI: try RedirectURI("com.example.app:/honest"), dialect: .oauth2,
                issuer: "https://honest.example", handler: handler("honest")))
        builder.add(
            Route(
                "attacker", redirectURI: try RedirectURI("com.example.app:/attacker"), dialect: .oauth2,
                issuer: "https://attacker.example", handler: handler("attacker")))
        let router = try builder.build(clock: ManualAttemptClock())

        // The user starts a login with the attacker's server; the attacker forwards the
        // request to the honest server, whose response comes back on the honest route.
        let attackerLogin = try router.beginLogin(on: "attacker")
        let mixedUp = "com.example.app:/honest?code=honest_code&state=\(attackerLogin.state)&iss=https%3A%2F%2Fhonest.example"
        expectRefusal(.unknownState) { try router.handle(mixedUp) }
        do { try router.handle(mixedUp) } catch { #expect(error.reason == .unknownState) }
        #expect(heard.withLock { $0 }.isEmpty, "no handler may hear of a response that crossed routes")
        #expect(router.pendingCount == 1, "a callback from elsewhere must not end the login in progress")

        // The attempt still takes its own route's callback.
        let delivery = try router.handle("com.example.app:/attacker?code=c&state=\(attackerLogin.state)")
        #expect(delivery.attempt == attackerLogin && delivery.route == "attacker")
    }

    /// The refusal names no secret: the state appears nowhere in it.
    @Test func theCrossRouteRefusalShowsNoState() throws {
        var builder = RouterBuilder()
        builder.add(Route("a", redirectURI: try RedirectURI("com.example.app:/a"), dialect: .oauth2))
        builder.add(Route("b", redirectURI: try RedirectURI("com.example.app:/b"), dialect: .clerk))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "a")
        do {
            try router.handle("com.example.app:/b?rotating_token_nonce=n&state=\(attempt.state)")
            Issue.record("a state of route a was accepted on route b")
        } catch {
            #expect(error.reason == .unknownState)
            #expect(!error.description.contains(attempt.state))
        }
    }

    /// fuzz-classify, reproducer `00 10 11` + `com.example.app:/oauth2redirect?error=`: the
    /// refusal of an empty last value points at the end of the URL (where the empty value
    /// starts), one past its last byte. The fuzzer had assumed offsets inside the URL; the
    /// contract is "where the value starts", which for an empty last value is the length.
    @Test func pointsAnEmptyLastValueAtTheEndOfTheURL() {
        let url = "com.example.app:/oauth2redirect?error="
        do {
            _ = try CallbackValidator(dialect: .oauth2).validate(url)
            Issue.record("an empty error was accepted")
        } catch {
            #expect(error.reason == .invalidParameter)
            #expect(error.offset == url.utf8.count)
        }
    }

    /// fuzz-classify, reproducer `00 00 09` + `r://lerror_dn_i//#&`: a fragment made of
    /// separators only (`#&`) holds no parameter but is not empty, so a query-mode route
    /// refuses it as data in the fragment, unlike `#` and Facebook's `#_=_`.
    @Test(arguments: [("#&", true), ("#&&", true), ("#", false), ("#_=_", false)])
    func aFragmentOfSeparatorsIsStillData(_ fragment: String, _ refused: Bool) {
        let url = "com.example.app:/oauth2redirect?code=c&state=s" + fragment
        do {
            _ = try CallbackValidator(dialect: .oauth2).validate(url)
            #expect(!refused, "\(fragment) was accepted")
        } catch {
            #expect(refused && error.reason == .parametersInFragment, "\(fragment): \(error)")
        }
    }
}
