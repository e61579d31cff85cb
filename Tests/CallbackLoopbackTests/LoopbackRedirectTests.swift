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

/// The app's own outcome pages (303) and the short start URL (302).
@Suite struct LoopbackRedirectTests {
    static let state = "st-redirect-0123456789abcdef"

    @Test func successURLRedirectsTheBrowserAfterAnAcceptedCallback() async throws {
        let receiver = try LoopbackReceiver(.init(successURL: "https://app.example/signed-in", failureURL: "https://app.example/failed"))
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        let response = browser.readAll()
        #expect(response.statusCode == 303)
        #expect(response.text.contains("\r\nLocation: https://app.example/signed-in\r\n"))
    }

    @Test(arguments: ["/callback?error=access_denied&state=\(state)", "/callback?code=c&error=x&state=\(state)"])
    func failureURLRedirectsAfterAProviderErrorOrATiedRefusal(target: String) async throws {
        let receiver = try LoopbackReceiver(.init(successURL: "https://app.example/ok", failureURL: "https://app.example/failed"))
        let browser = try sendRequest(port: receiver.port, target)
        _ = try? await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        let response = browser.readAll()
        #expect(response.statusCode == 303)
        #expect(response.text.contains("\r\nLocation: https://app.example/failed\r\n"))
    }

    @Test func aForeignCallbackIsNotRedirected() async throws {
        let receiver = try LoopbackReceiver(.init(successURL: "https://app.example/ok", failureURL: "https://app.example/failed"))
        let stranger = try sendRequest(port: receiver.port, "/callback?code=c&state=other")
        let result = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(300)))
        guard case .timedOut = result else { Issue.record("\(result)"); return }
        #expect(stranger.readAll().statusCode == 400, "only this login's outcome goes to the app's pages")
    }

    @Test(arguments: ["javascript:alert(1)", "/relative", "https://a.example/x\r\nSet-Cookie: a=b", "ftp://a.example/", "https:///x"])
    func refusesRedirectTargetsThatAreNotHTTPURLs(url: String) throws {
        do {
            _ = try LoopbackReceiver(.init(successURL: url))
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
        let receiver = try LoopbackReceiver()
        expectSyncReason(.invalidConfiguration) { try receiver.setAuthorizationURL(url) }
    }

    @Test func startURLRedirectsToTheAuthorizationURLOnceKnown() async throws {
        let receiver = try LoopbackReceiver()
        let start = String(receiver.startURL.dropFirst("http://127.0.0.1:\(receiver.port)".count))
        #expect(start.hasPrefix("/start/"))
        let early = try sendRequest(port: receiver.port, start)
        try receiver.setAuthorizationURL("https://id.example/authorize?client_id=a&state=s")
        // The early request may be served before or after the URL is set: 404 or 302.
        let late = try sendRequest(port: receiver.port, start)
        let finish = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        let first = early.readAll(), second = late.readAll()
        // Exactly one of them is given the URL: the link is used once.
        let redirect = first.statusCode == 302 ? first : second
        #expect(redirect.statusCode == 302)
        #expect(redirect.text.contains("\r\nLocation: https://id.example/authorize?client_id=a&state=s\r\n"))
        #expect(first.statusCode == 404 && second.statusCode == 302 || first.statusCode == 302 && second.statusCode == 410)
        #expect(finish.readAll().statusCode == 200, "the start URL does not end the wait")
    }

    @Test func startURLBeforeTheAuthorizationURLIsKnownIs404() throws {
        let receiver = try LoopbackReceiver()
        let early = try sendRequest(port: receiver.port, String(receiver.startURL.dropFirst("http://127.0.0.1:\(receiver.port)".count)))
        _ = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(300)))
        #expect(early.readAll().statusCode == 404)
    }
}

/// `host: .localhost`: 127.0.0.1 and ::1 on one port, only `Host: localhost:PORT`.
@Suite struct LoopbackLocalhostTests {
    static let state = "st-localhost-0123456789abcdef"

    static func request(_ port: Int, host: String, state: String = LoopbackLocalhostTests.state, ipv6: Bool = false) throws -> RawClient {
        let client = try RawClient(port: port, ipv6: ipv6)
        client.send("GET /callback?code=c&state=\(state) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        return client
    }

    @Test func bindsBothLiteralsAndNamesLocalhost() async throws {
        let receiver = try LoopbackReceiver(.init(host: .localhost))
        #expect(receiver.redirectURI == "http://localhost:\(receiver.port)/callback")
        let literal = try Self.request(receiver.port, host: "127.0.0.1:\(receiver.port)")
        let other = try Self.request(receiver.port, host: "evil.example:\(receiver.port)")
        let v6 = try? Self.request(receiver.port, host: "localhost:\(receiver.port)", ipv6: true)
        let v4 = try Self.request(receiver.port, host: "localhost:\(receiver.port)")
        let outcome = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        #expect(outcome.value("code") == "c")
        #expect(literal.readAll().statusCode == 403, "only Host: localhost:PORT is answered")
        #expect(other.readAll().statusCode == 403)
        let answers = [v6?.readAll().statusCode, v4.readAll().statusCode].compactMap { $0 }
        #expect(answers.contains(200), "one of them ended the wait")
    }

    @Test func theIPv6SideEndsTheWaitToo() async throws {
        let receiver = try LoopbackReceiver(.init(host: .localhost))
        guard let v6 = try? Self.request(receiver.port, host: "localhost:\(receiver.port)", ipv6: true) else {
            return // no IPv6 on this machine: 127.0.0.1 alone is bound, as documented
        }
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        #expect(v6.readAll().statusCode == 200)
    }

    @Test func worksWithARouterRouteNamedLocalhost() async throws {
        var builder = RouterBuilder()
        builder.add(
            Route(
                "cli", redirectURI: try RedirectURI("http://localhost/callback", policy: .native, allowsLocalhost: true),
                dialect: .oauth2))
        let router = try builder.build()
        let receiver = try LoopbackReceiver(.init(host: .localhost))
        let attempt = try router.beginLogin(on: "cli")
        let browser = try Self.request(receiver.port, host: "localhost:\(receiver.port)", state: attempt.state)
        let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(20))
        #expect(delivery.attempt == attempt)
        #expect(browser.readAll().statusCode == 200)
    }
}
