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
@_spi(Testing) import CallbackRouter
import CallbackSystem
import CallbackTestSupport
import Testing

/// A receiver that holds its answer to an accepted callback until the app says how the
/// sign-in ended: the browser never reads "Signed in" before the app has its tokens.
@Suite struct LoopbackAnswerHoldTests {
    static let state = "st-hold-0123456789abcdef0123"

    static func holding(_ hold: Duration, successURL: String? = nil, failureURL: String? = nil) throws(LoopbackError) -> LoopbackReceiver {
        var configuration = LoopbackReceiver.Configuration(successURL: successURL, failureURL: failureURL)
        configuration.answerHold = hold
        return try LoopbackReceiver(configuration)
    }

    @Test func thePageSaysSignedInOnlyOnceTheAppFinished() async throws {
        let receiver = try Self.holding(.seconds(60))
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        let outcome = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        #expect(outcome.kind == .authorizationCode)
        #expect(Readiness.isReadable(browser.fd) == false, "the wait returned, and the browser has no page yet")
        receiver.finish(.signedIn)
        let response = browser.readAll()
        #expect(response.statusCode == 200)
        #expect(response.body.contains("Signed in"))
    }

    @Test func aFailureTheAppReportsIsTheFailurePageWithItsSentenceEscaped() async throws {
        let receiver = try Self.holding(.seconds(60))
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        receiver.finish(.failed("The token endpoint refused the code: invalid_client <b>"))
        receiver.finish(.signedIn) // only the first call counts
        let response = browser.readAll()
        #expect(response.statusCode == 200)
        #expect(response.body.contains("Sign-in failed"))
        #expect(response.body.contains("The token endpoint refused the code: invalid_client &lt;b&gt;"))
        #expect(!response.body.contains("Signed in"))
        #expect(!response.body.contains("<b>"))
    }

    @Test func pastTheHoldThePageSaysTheSignInIsFinishingInTheApp() async throws {
        let receiver = try Self.holding(.milliseconds(200))
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        let response = browser.readAll()
        #expect(response.statusCode == 200)
        #expect(response.body.contains("Finishing the sign-in"))
        #expect(!response.body.contains("Signed in"))
        receiver.finish(.signedIn) // too late: returns at once, changes nothing
    }

    @Test func theTerminalIsNamedWhenThePagesReturnThere() async throws {
        var configuration = LoopbackReceiver.Configuration()
        configuration.pages = try LoopbackPages(appName: "callback-router", returnTo: .terminal)
        configuration.answerHold = .milliseconds(100)
        let receiver = try LoopbackReceiver(configuration)
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        #expect(browser.readAll().body.contains("the terminal says how the sign-in ends"))
    }

    @Test(arguments: ["/callback?error=access_denied&state=\(state)", "/callback?code=c&error=x&state=\(state)"])
    func aProviderErrorOrARefusalIsAnsweredAtOnce(target: String) async throws {
        let receiver = try Self.holding(.seconds(60))
        let browser = try sendRequest(port: receiver.port, target)
        _ = try? await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        // Never finished: a held page would not come within readAll's 5 s.
        let response = browser.readAll()
        #expect(response.statusCode != nil)
        #expect(!response.body.contains("Finishing the sign-in"))
    }

    @Test func theAppsOwnPagesFollowTheEnding() async throws {
        for (ending, location) in [
            (LoopbackSignInEnding.signedIn, "https://app.example/ok"), (.failed("no"), "https://app.example/failed"),
        ] {
            let receiver = try Self.holding(.seconds(60), successURL: "https://app.example/ok", failureURL: "https://app.example/failed")
            let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
            _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
            receiver.finish(ending)
            let response = browser.readAll()
            #expect(response.statusCode == 303)
            #expect(response.header("Location") == location)
        }
    }

    @Test func aRouterWaitHoldsTheAnswerToo() async throws {
        let router = try LoopbackRouterRefusalTests.makeRouter()
        let receiver = try Self.holding(.seconds(60))
        let attempt = try router.beginLogin(on: "desktop")
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(20)) }
        while !router.isWaiting(for: attempt) { try await Task.sleep(for: .milliseconds(5)) }
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(attempt.state)")
        _ = try await waiting.value
        #expect(Readiness.isReadable(browser.fd) == false)
        receiver.finish(.signedIn)
        #expect(browser.readAll().body.contains("Signed in"))
    }

    @Test(arguments: [Duration.zero, .seconds(-1), .seconds(61)])
    func aHoldThatIsNotAFewSecondsIsRefused(hold: Duration) throws {
        do {
            _ = try Self.holding(hold)
            Issue.record("accepted \(hold)")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.detail.contains("answerHold"))
        }
    }

    @Test func withoutAHoldFinishChangesNothing() async throws {
        let receiver = try LoopbackReceiver()
        let browser = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        receiver.finish(.failed("ignored"))
        #expect(browser.readAll().body.contains("Signed in"))
    }
}
