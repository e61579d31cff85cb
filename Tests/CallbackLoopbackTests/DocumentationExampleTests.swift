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

@testable import CallbackLoopback
import CallbackRouter
import CallbackTestSupport
import Testing

/// The example of docs/loopback.md and docs/getting-started.md, run against a fake browser.
@Suite struct DocumentationExampleTests {
    @Test func theDocumentedLoginWorks() async throws {
        var builder = RouterBuilder()
        builder.add(Route("cli", redirectURI: try RedirectURI("http://127.0.0.1/callback", policy: .native), dialect: .oauth2))
        let router = try builder.build()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "cli")
        let request = try receiver.authorizationRequest(
            for: attempt, endpoint: "https://example.auth0.com/authorize",
            clientID: "abc123", scope: "openid profile")
        #expect(request.url.hasPrefix("https://example.auth0.com/authorize?"))
        // The "browser": the provider redirects to the redirect URI with the code and state.
        let browser = try sendRequest(port: receiver.port, "/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=\(attempt.state)")
        let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(300))
        #expect(delivery.outcome.value("code") == "SplxlOBeZQQYbYS6WxSbIA")
        #expect(browser.readAll().statusCode == 200)
    }
}
