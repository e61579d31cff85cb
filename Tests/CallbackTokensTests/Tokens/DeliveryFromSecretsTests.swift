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

import Testing
@testable import CallbackTokens

/// `Delivery(validated:secrets:redirectURI:issuer:)`: a router-less wait's outcome bound to
/// the login's own secrets, so the token request and the ID token check can follow it.
@Suite struct DeliveryFromSecretsTests {
    static let redirect = "http://127.0.0.1:49152/callback"

    static func outcome(_ query: String) throws -> CallbackOutcome {
        try CallbackValidator(dialect: .oauth2).validate(redirect + "?" + query)
    }

    @Test func theCodeOfTheLoginsOwnStateMakesATokenRequestWithItsVerifier() throws {
        let secrets = AttemptSecrets()
        let delivery = try Delivery(
            validated: Self.outcome("code=abc&state=\(secrets.state)"), secrets: secrets, redirectURI: Self.redirect)
        #expect(delivery.attempt.nonce == secrets.nonce)
        let request = try TokenRequest.authorizationCode(
            for: delivery, redirectURI: Self.redirect, tokenEndpoint: "https://op.example/token", clientID: "app")
        #expect(String(decoding: request.body, as: UTF8.self).contains("code_verifier=\(secrets.pkce.verifier)"))
    }

    @Test func anotherStateIsRefused() throws {
        let secrets = AttemptSecrets()
        #expect(throws: CallbackError.self) {
            try Delivery(validated: Self.outcome("code=abc&state=\(AttemptSecrets().state)"), secrets: secrets, redirectURI: Self.redirect)
        }
        let other = try Self.outcome("code=abc&state=other")
        do throws(CallbackError) {
            _ = try Delivery(validated: other, secrets: secrets, redirectURI: Self.redirect)
            Issue.record("another state made a delivery")
        } catch {
            #expect(error.reason == .stateMismatch)
        }
    }

    @Test func anOutcomeThatIsNoCodeIsRefused() throws {
        let secrets = AttemptSecrets()
        let denied = try Self.outcome("error=access_denied&state=\(secrets.state)")
        do throws(CallbackError) {
            _ = try Delivery(validated: denied, secrets: secrets, redirectURI: Self.redirect)
            Issue.record("an authorization_error made a delivery")
        } catch {
            #expect(error.reason == .invalidConfiguration)
        }
    }
}
