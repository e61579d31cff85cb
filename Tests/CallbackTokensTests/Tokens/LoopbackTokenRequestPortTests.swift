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
import CallbackTokens
import Testing

/// A loopback login's token request carries the port the browser was sent to: the
/// route's port-less redirect URI (what `delivery.attempt.redirectURI` is for a login begun
/// with `beginLogin(on:)`) is refused before anything is sent, with what to do instead.
@Suite struct LoopbackTokenRequestPortTests {
    @Test func aLoopbackRedirectURIWithoutItsPortIsRefused() throws {
        let delivery = try TokenRequestTests.delivery(route: "loopback")
        #expect(delivery.attempt.redirectURI.url.port == nil)
        #expect {
            _ = try TokenRequest.authorizationCode(
                for: delivery, redirectURI: delivery.attempt.redirectURI.url.string, tokenEndpoint: TokenRequestTests.endpoint,
                clientID: "cli")
        } throws: { error in
            guard let error = error as? CallbackError else { return false }
            return error.reason == .redirectURIMismatch && error.detail.contains("has no port")
                && error.detail.contains("beginLogin(on:redirectURI: receiver.redirectURI)")
        }
    }

    @Test func anAttemptBegunWithTheReceiversRedirectURICarriesThePort() throws {
        var builder = RouterBuilder()
        builder.add(Route("loopback", redirectURI: try RedirectURI("http://127.0.0.1/callback"), dialect: .oauth2))
        let router = try builder.build(clock: ManualAttemptClock())
        let attempt = try router.beginLogin(on: "loopback", redirectURI: "http://127.0.0.1:49152/callback")
        let delivery = try router.handle("http://127.0.0.1:49152/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=\(attempt.state)")
        let request = try TokenRequest.authorizationCode(
            for: delivery, redirectURI: delivery.attempt.redirectURI.url.string, tokenEndpoint: TokenRequestTests.endpoint, clientID: "cli")
        #expect(TokenRequestTests.form(request)[2] == ["redirect_uri", "http://127.0.0.1:49152/callback"])
    }
}
