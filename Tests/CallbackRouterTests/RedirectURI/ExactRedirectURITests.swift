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
@testable import CallbackRouter

/// Issue 29: the redirect URI a login sends (a loopback one with the receiver's port)
/// travels with its attempt: request, delivery, sealed record, restore.
private func makeRouter(clock: any AttemptClock = ManualAttemptClock()) throws -> CallbackRouter {
    try RouterFixture.router(
        RouterFixture.oauth2("cli", redirect: "http://127.0.0.1/callback"),
        RouterFixture.oauth2("app", redirect: "com.example.app:/oauth2redirect?tenant=a"), clock: clock)
}

@Suite struct ExactRedirectURITests {
    @Test func aLoopbackLoginKeepsItsPortFromRequestToRestore() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock)
        let attempt = try router.beginLogin(on: "cli", redirectURI: "http://127.0.0.1:49152/callback")
        #expect(attempt.redirectURI.url.string == "http://127.0.0.1:49152/callback")
        let request = try attempt.authorizationRequest(endpoint: "https://as.example/authorize", clientID: "c")
        #expect(request.url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A49152%2Fcallback"), "\(request.url)")

        // A relaunched process restores the record: the port comes back with it.
        let record = attempt.sealed()
        let relaunched = try makeRouter(clock: clock)
        let restored = try relaunched.restore(record)
        #expect(restored.redirectURI.url.string == "http://127.0.0.1:49152/callback")
        #expect(restored.redirectURI.url.port == 49152, "the port to listen on again")
        let delivery = try relaunched.handle("http://127.0.0.1:49152/callback?code=c&state=\(attempt.state)")
        #expect(delivery.attempt.redirectURI.url.string == "http://127.0.0.1:49152/callback", "what the token request sends")
    }

    @Test func aLoopbackRequestWithoutAPortIsRefusedWhenBuilt() throws {
        let attempt = try makeRouter().beginLogin(on: "cli")
        expectRefusal(.invalidConfiguration) {
            try attempt.authorizationRequest(endpoint: "https://as.example/authorize", clientID: "c")
        }
    }

    @Test(arguments: [
        "http://127.0.0.1/callback", // no port: the browser would go to port 80
        "http://127.0.0.1:49152/other",
        "http://127.0.0.2:49152/callback",
        "http://[::1]:49152/callback",
        "http://127.0.0.1:49152/callback?x=1",
        "https://127.0.0.1:49152/callback",
        "not a uri",
    ])
    func refusesARedirectURIThatIsNotTheRoutes(_ exact: String) throws {
        let router = try makeRouter()
        expectRefusal(.invalidConfiguration) { try router.beginLogin(on: "cli", redirectURI: exact) }
        #expect(router.pendingCount == 0)
    }

    @Test func aCustomSchemeRouteTakesOnlyItsOwnRedirectURI() throws {
        let router = try makeRouter()
        let attempt = try router.beginLogin(on: "app", redirectURI: "COM.EXAMPLE.APP:/oauth2redirect?tenant=a")
        #expect(attempt.redirectURI.url.string == "COM.EXAMPLE.APP:/oauth2redirect?tenant=a")
        expectRefusal(.invalidConfiguration) { try router.beginLogin(on: "app", redirectURI: "com.example.app:/oauth2redirect?tenant=b") }
        expectRefusal(.invalidConfiguration) { try router.beginLogin(on: "app", redirectURI: "com.example.app:/other?tenant=a") }
    }
}
