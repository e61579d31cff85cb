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
@_spi(Testing) @testable import CallbackRouter

/// Issue 33: in an app, `router.handle(url)` that refuses a callback carrying a pending
/// attempt's state ends that attempt's wait at once with the refusal, as the loopback
/// receiver does; a callback with any other state (or none) ends nothing.
@Suite(.timeLimit(.minutes(1))) struct RouterRefusedCallbackTests {
    private static let redirect = "com.example.app:/oauth2redirect"

    private static func router(handler: CallbackHandler? = nil) throws -> CallbackRouter {
        var builder = RouterBuilder()
        builder.add(
            Route(
                "app", redirectURI: try RedirectURI(redirect), dialect: .oauth2, issuer: "https://issuer.example",
                handler: handler))
        builder.add(Route("fragment", redirectURI: try RedirectURI("com.example.app:/implicit"), dialect: .oauth2, responseMode: .fragment))
        return try builder.build()
    }

    /// The refusals a callback carrying the state can meet: its syntax, its dialect's rules, its issuer.
    static let refusedQueries: [String] = [
        "code=%FF&state=STATE", // a code that is not UTF-8
        "code=a&code=b&state=STATE", // a parameter twice
        "state=STATE", // no code
        "code=c&state=STATE&iss=https%3A%2F%2Fevil.example", // another issuer
        "code=c&state=STATE&x=%ZZ", // a percent sign that encodes nothing
        (0 ..< 70).map { "p\($0)=1" }.joined(separator: "&") + "&code=c&state=STATE", // too many parameters
    ]

    private static func url(_ query: String, state: String, path: String = redirect) -> String {
        path + "?" + query.replacingOccurrences(of: "STATE", with: state)
    }

    /// What `handle` threw for `url`.
    private static func refusal(_ router: CallbackRouter, _ url: String) -> CallbackError? {
        do { try router.handle(url) } catch { return error }
        return nil
    }

    /// The error the wait for `attempt` ended with; nil when it was a delivery.
    private static func waitError(_ router: CallbackRouter, _ attempt: LoginAttempt, timeout: Duration) async -> CallbackError? {
        do { _ = try await router.callback(for: attempt, timeout: timeout) } catch { return error }
        return nil
    }

    @Test(arguments: refusedQueries)
    func aRefusedCallbackWithAPendingAttemptsStateEndsItsWaitAtOnce(query: String) async throws {
        let router = try Self.router()
        let attempt = try router.beginLogin(on: "app")
        async let waited = Self.waitError(router, attempt, timeout: .seconds(300))
        while !router.isWaiting(for: attempt) { await Task.yield() }
        let thrown = try #require(Self.refusal(router, Self.url(query, state: attempt.state)))
        // Ended inside `handle`: nobody waits any more, nothing is pending.
        let stillWaiting = router.isWaiting(for: attempt) // a local: a failing #expect must not reflect the router
        #expect(!stillWaiting)
        #expect(router.pendingCount == 0)
        router.cancel(attempt) // ends a wait today's main left open (then the reason below is `cancelled`)
        let error = try #require(await waited)
        #expect(error.reason == thrown.reason)
        #expect(error.reason != ReasonCode.cancelled && error.reason != ReasonCode.timeout)
        // The genuine callback after it is refused (`cancelled`; `replayed` after a bad
        // `iss`, which is the attempt's answer), and a second wait is told the attempt ended.
        let later = Self.refusal(router, Self.url("code=c&state=STATE", state: attempt.state))?.reason
        #expect(later == (query.contains("iss=") ? .replayed : .cancelled))
        #expect(throws: CallbackError.self) { try router.handle(Self.url("code=c&state=STATE", state: attempt.state)) }
        await #expect(throws: CallbackError.self) { try await router.callback(for: attempt, timeout: .seconds(1)) }
    }

    @Test(arguments: refusedQueries)
    func aRefusedCallbackWithAnotherStateEndsNothing(query: String) async throws {
        let router = try Self.router()
        let attempt = try router.beginLogin(on: "app")
        let other = try router.beginLogin(on: "app")
        router.cancel(other) // an ended attempt's state is refused too, and ends nothing else
        async let waited = router.callback(for: attempt, timeout: .seconds(30))
        while !router.isWaiting(for: attempt) { await Task.yield() }
        for state in ["forged", String(attempt.state.dropLast()), attempt.state + "x", other.state, ""] {
            #expect(Self.refusal(router, Self.url(query, state: state)) != nil)
        }
        // The state twice, or in no query at all: no tie.
        let twice = Self.url(query, state: attempt.state) + "&state=" + attempt.state
        #expect(Self.refusal(router, twice) != nil)
        #expect(Self.refusal(router, Self.redirect + "#" + query.replacingOccurrences(of: "STATE", with: attempt.state)) != nil)
        // On another route (a mix-up): no tie either.
        #expect(Self.refusal(router, Self.url(query, state: attempt.state, path: "com.example.app:/implicit")) != nil)
        let stillWaiting = router.isWaiting(for: attempt)
        #expect(stillWaiting)
        #expect(router.pendingCount == 1)
        try router.handle(Self.url("code=real&state=STATE", state: attempt.state))
        #expect(try await waited.outcome.value("code") == "real")
    }

    @Test func aRefusalNobodyAwaitedIsKeptForTheNextWait() async throws {
        let router = try Self.router()
        let attempt = try router.beginLogin(on: "app")
        let thrown = try #require(Self.refusal(router, Self.url("code=%FF&state=STATE", state: attempt.state)))
        #expect(router.pendingCount == 0)
        let error = try #require(await Self.waitError(router, attempt, timeout: .seconds(5)))
        #expect(error.reason == thrown.reason)
    }

    @Test func aRouteHandlerHearsTheRefusalOnce() throws {
        let heard = Locked<[ReasonCode]>([])
        let router = try Self.router(handler: { result in
            if case .failure(let error) = result { heard.withLock { $0.append(error.reason) } }
        })
        let attempt = try router.beginLogin(on: "app")
        let thrown = try #require(Self.refusal(router, Self.url("code=a&code=b&state=STATE", state: attempt.state)))
        _ = Self.refusal(router, Self.url("code=a&code=b&state=STATE", state: attempt.state))
        #expect(heard.withLock { $0 } == [thrown.reason])
    }

    @Test func aFragmentRoutesRefusalIsTiedByTheFragmentsState() async throws {
        let router = try Self.router()
        let attempt = try router.beginLogin(on: "fragment")
        async let waited = Self.waitError(router, attempt, timeout: .seconds(300))
        while !router.isWaiting(for: attempt) { await Task.yield() }
        #expect(Self.refusal(router, "com.example.app:/implicit#code=%FF&state=\(attempt.state)") != nil)
        let stillWaiting = router.isWaiting(for: attempt)
        #expect(!stillWaiting)
        router.cancel(attempt)
        let error = try #require(await waited)
        #expect(error.reason != ReasonCode.cancelled)
    }

    @Test func aLogoutIsEndedByARefusedCallbackWithItsState() async throws {
        let router = try Self.router()
        let logout = try router.beginLogout(
            on: "app", endSessionEndpoint: "https://issuer.example/logout", clientID: "c")
        #expect(Self.refusal(router, Self.url("state=STATE&x=%ZZ", state: logout.attempt.state)) != nil)
        #expect(router.pendingCount == 0)
    }
}
