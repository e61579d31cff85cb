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

/// A loopback login across a cold start: the exact redirect URI travels with the
/// attempt into its sealed record, and a receiver made from the restored attempt listens on
/// the port the browser returns to.
@Suite struct LoopbackColdStartTests {
    static func makeRouter() throws -> CallbackRouter {
        try RouterFixture.router(RouterFixture.oauth2("desktop", redirect: "http://127.0.0.1/callback"), clock: SystemAttemptClock())
    }

    @Test func aRestoredAttemptRebindsItsPortAndIsDeliveredWithTheOriginalVerifier() async throws {
        let record: SealedAttempt
        let original: LoginAttempt
        let port: Int
        do {
            // The first process: bind, begin with the receiver's redirect URI, seal, die.
            let router = try Self.makeRouter()
            let receiver = try LoopbackReceiver()
            port = receiver.port
            original = try router.beginLogin(on: "desktop", redirectURI: receiver.redirectURI)
            record = original.sealed()
        } // the receiver is released here: its socket is closed, as the killed process's was
        #expect(!isListening(port: port))

        // The next process: a new router restores the record, a new receiver binds its port.
        let router = try Self.makeRouter()
        let restored = try router.restore(record)
        #expect(restored.redirectURI.url.string == "http://127.0.0.1:\(port)/callback")
        let receiver = try LoopbackReceiver(for: restored)
        #expect(receiver.port == port)
        #expect(receiver.redirectURI == "http://127.0.0.1:\(port)/callback")

        // The browser comes back to the port the first receiver had.
        let browser = try sendRequest(port: port, "/callback?code=c-cold&state=\(original.state)")
        let delivery = try await receiver.callback(for: restored, router: router, timeout: .seconds(20))
        #expect(browser.readAll().statusCode == 200)
        #expect(delivery.outcome.value("code") == "c-cold")
        #expect(delivery.attempt.pkce.verifier == original.pkce.verifier, "the token request redeems with the original verifier")
        #expect(delivery.attempt.redirectURI.url.string == "http://127.0.0.1:\(port)/callback")
        #expect(!isListening(port: port))
    }

    struct Binding: Sendable, CustomTestStringConvertible {
        let uri: String, host: String, path: String
        var testDescription: String { uri }
    }

    @Test(arguments: [
        Binding(uri: "http://127.0.0.1:40123/callback", host: "127.0.0.1", path: "/callback"),
        Binding(uri: "http://[::1]:40124/cb", host: "[::1]", path: "/cb"),
        Binding(uri: "http://localhost:40125/callback", host: "localhost", path: "/callback"),
        Binding(uri: "http://127.0.0.1:40126/", host: "127.0.0.1", path: "/"),
    ])
    func theConfigurationOfALoopbackRedirectURIBindsItsHostPortAndPath(_ binding: Binding) throws {
        let configuration = try LoopbackReceiver.configuration(binding: binding.uri, from: .init(path: "/other", allowOtherUsers: true))
        #expect(configuration.host.description == binding.host)
        #expect(configuration.ports.count == 1 && binding.uri.contains(":\(configuration.ports[0])/"))
        #expect(configuration.path == binding.path)
        #expect(configuration.allowOtherUsers, "the other settings are kept")
    }

    @Test(arguments: [
        "https://127.0.0.1:40123/callback", // not http
        "http://example.com:40123/callback", // not loopback
        "http://127.0.0.2:40123/callback", // not the literal the receiver binds
        "http://127.0.0.1/callback", // no port: the browser would go to 80
        "http://127.0.0.1:0/callback", // port 0 is "any", not the one sent
        "http://user@127.0.0.1:40123/callback",
        "http://127.0.0.1:40123/callback?x=1",
        "http://127.0.0.1:40123/callback#f",
        "myapp:/callback",
        "not a url",
    ])
    func refusesARedirectURIThatIsNotALoopbackOneWithAPort(uri: String) {
        do {
            _ = try LoopbackReceiver(redirectURI: uri)
            Issue.record("bound \(uri)")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.detail.contains("not a loopback redirect URI"), "\(error)")
        }
    }

    @Test func refusesAnAttemptWithoutPortToRebind() throws {
        let router = try Self.makeRouter()
        let attempt = try router.beginLogin(on: "desktop") // the route's redirect URI: no port
        do {
            _ = try LoopbackReceiver(for: attempt)
            Issue.record("bound a receiver for an attempt that names no port")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.detail.contains("names no port"))
        }
    }

    @Test func aReceiverOnAnotherPortRefusesTheAttemptItCannotServe() async throws {
        let router = try Self.makeRouter()
        let first = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop", redirectURI: first.redirectURI)
        let other = try LoopbackReceiver()
        // Its browser returns to `first`'s port: another receiver would wait in vain.
        await expectReason(.invalidConfiguration) {
            try await other.callback(for: attempt, router: router, timeout: .seconds(5))
        }
        expectSyncReason(.invalidConfiguration) {
            try other.authorizationRequest(for: attempt, endpoint: "https://id.example/authorize", clientID: "app")
        }
        #expect(router.pendingCount == 1, "a refused wait leaves the attempt pending")
        _ = first
    }
}
