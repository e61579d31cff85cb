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
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The public, in-process API over real sockets: no subprocess, no CLI.
@Suite struct LoopbackReceiverAPITests {
    static let state = "st-7fQ2x9LmZ0aB3cD4eF5gH6iJ"

    @Test func bindsTheLoopbackLiteralAndNamesThePortInTheRedirectURI() throws {
        let receiver = try LoopbackReceiver()
        #expect(receiver.port > 0)
        #expect(receiver.redirectURI == "http://127.0.0.1:\(receiver.port)/callback")
        let ipv6 = try? LoopbackReceiver(.init(host: .ipv6, path: "/cb"))
        if let ipv6 { #expect(ipv6.redirectURI == "http://[::1]:\(ipv6.port)/cb") }
    }

    @Test(arguments: ["", "callback", "/a b", "/a?b", "/a#b", "/%zz"])
    func refusesABadPath(path: String) {
        #expect(throws: LoopbackError.self) { try LoopbackReceiver(.init(path: path)) }
        do { _ = try LoopbackReceiver(.init(path: path)) } catch { #expect(error.code == .invalidConfiguration) }
    }

    @Test func returnsTheOutcomeOfTheCallbackWithTheExpectedState() async throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        // Connected and sent before the wait: the kernel holds them, in order, until it runs.
        let stranger = try sendRequest(port: port, "/callback?code=c0&state=wrong")
        let genuine = try sendRequest(port: port, "/callback?code=c1&state=\(Self.state)")
        let result = try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(20))
        #expect(stranger.readAll().statusCode == 400, "a callback of another login is answered and ignored")
        let response = genuine.readAll()
        #expect(response.statusCode == 200)
        #expect(!response.text.contains("c1") && !response.text.contains(Self.state), "the page shows no secret")
        #expect(result.kind == .authorizationCode)
        #expect(result.value("code") == "c1")
        #expect(!isListening(port: port), "the socket is closed once the wait has ended")
    }

    @Test func providerFailureIsAnOutcomeAndATiedRefusalIsThrown() async throws {
        let failing = try LoopbackReceiver()
        let denied = try sendRequest(port: failing.port, "/callback?error=access_denied&state=\(Self.state)")
        #expect(try await failing.callback(expecting: .init(state: Self.state), timeout: .seconds(20)).kind == .authorizationError)
        #expect(denied.readAll().statusCode == 200)

        let refusing = try LoopbackReceiver()
        let page = try sendRequest(port: refusing.port, "/callback?code=c&state=\(Self.state)&iss=https%3A%2F%2Fevil.example")
        await expectReason(.issuerMismatch) {
            try await refusing.callback(expecting: .init(state: Self.state, issuer: "https://id.example"), timeout: .seconds(20))
        }
        #expect(page.readAll().statusCode == 400)
    }

    @Test func timesOutWithTheTimeoutReason() async throws {
        let receiver = try LoopbackReceiver()
        await expectReason(.timeout) {
            try await receiver.callback(expecting: .init(state: Self.state), timeout: .milliseconds(200))
        }
        #expect(!isListening(port: receiver.port))
    }

    @Test func taskCancellationEndsTheWaitAndClosesTheSocket() async throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        #expect(isListening(port: port))
        let waiting = Task { try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(60)) }
        waiting.cancel()
        let result = await waiting.result
        expectSyncReason(.cancelled) { try result.get() }
        #expect(!isListening(port: port), "cancellation closed the listening socket")
    }

    @Test func closeStopsAWaitFromAnotherTask() async throws {
        let receiver = try LoopbackReceiver()
        let waiting = Task { try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(60)) }
        receiver.close()
        await expectReason(.cancelled) { try await waiting.value }
    }

    /// A second wait neither throws `cancelled` nor waits out its timeout: it says the
    /// receiver is single-use, at once.
    @Test func aSecondWaitSaysTheReceiverIsSingleUseAtOnce() async throws {
        let receiver = try LoopbackReceiver()
        let request = try sendRequest(port: receiver.port, "/callback?code=c1&state=\(Self.state)")
        defer { request.close() }
        _ = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        let started = ContinuousClock.now
        await expectSingleUse { try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(30)) }
        expectSyncSingleUse {
            try receiver.receive(expecting: .init(state: Self.state), until: ContinuousClock.now.advanced(by: .seconds(30)))
        }
        #expect(ContinuousClock.now - started < .seconds(5), "refused at once, not after the timeout")
    }

    @Test(.timeLimit(.minutes(1))) func aWaitBesideARunningOneSaysTheReceiverIsSingleUse() async throws {
        let receiver = try LoopbackReceiver()
        let first = Task { try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(60)) }
        // The first wait has taken the receiver once its task has run that far.
        while !receiver.used.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        await expectSingleUse { try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(30)) }
        receiver.close()
        await expectReason(.cancelled) { try await first.value }
    }

    @Test func aTimedOutReceiverIsSingleUseToo() async throws {
        let receiver = try LoopbackReceiver()
        await expectReason(.timeout) { try await receiver.callback(expecting: .init(state: Self.state), timeout: .milliseconds(100)) }
        await expectSingleUse { try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(30)) }
    }

    @Test func blockingReceiveReportsTimeoutWithTheIgnoredCount() throws {
        let receiver = try LoopbackReceiver()
        // Connected and sent before the wait starts: the kernel holds both until it runs.
        let client = try RawClient(port: receiver.port)
        defer { client.close() }
        client.send("GET /callback?code=c&state=other HTTP/1.1\r\nHost: 127.0.0.1:\(receiver.port)\r\n\r\n")
        let result = try receiver.receive(
            expecting: .init(state: Self.state),
            until: ContinuousClock.now.advanced(by: .milliseconds(500)))
        guard case .timedOut(let ignored) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(ignored == 1)
        #expect(client.readAll().statusCode == 400)
    }
}

@Suite struct LoopbackPortListTests {
    @Test func bindsTheFirstFreePortOfTheList() throws {
        let taken = try PortSquatter()
        let free = try PortSquatter()
        let freePort = free.port
        _ = consume free // releases the port
        let receiver = try LoopbackReceiver(.init(ports: [taken.port, freePort]))
        #expect(receiver.port == freePort)
    }

    @Test func everyPortTakenIsAddressInUse() throws {
        let first = try PortSquatter()
        let second = try PortSquatter()
        do {
            _ = try LoopbackReceiver(.init(ports: [first.port, second.port]))
            Issue.record("bound a taken port")
        } catch {
            #expect(error.code == .addressInUse)
            #expect(error.description.contains("\(first.port),\(second.port)"))
        }
    }

    @Test(arguments: [[-1], [65536], [80, 70000]])
    func refusesPortsOutOfRange(ports: [Int]) {
        do {
            _ = try LoopbackReceiver(.init(ports: ports))
            Issue.record("accepted \(ports)")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }
}

/// The receiver and the router: `begin` on a loopback route, `await` from the receiver.
@Suite struct LoopbackRouterTests {
    static func makeRouter(path: String = "/callback") throws -> CallbackRouter {
        try RouterFixture.router(RouterFixture.oauth2("desktop", redirect: "http://127.0.0.1\(path)"), clock: SystemAttemptClock())
    }

    @Test func deliversTheAttemptsCallbackExactlyOnce() async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let request = try receiver.authorizationRequest(for: attempt, endpoint: "https://id.example/authorize", clientID: "app")
        #expect(request.url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(receiver.port)%2Fcallback"))
        let unknown = try sendRequest(port: receiver.port, "/callback?code=x&state=not-a-login")
        let genuine = try sendRequest(port: receiver.port, "/callback?code=c1&state=\(attempt.state)")
        let delivered = try await receiver.callback(for: attempt, router: router, timeout: .seconds(20))
        #expect(unknown.readAll().statusCode == 400, "unknown_state reaches no attempt: ignored")
        #expect(genuine.readAll().statusCode == 200)
        #expect(delivered.attempt == attempt)
        #expect(delivered.outcome.value("code") == "c1")
        #expect(!isListening(port: receiver.port))
        expectSyncReason(.replayed) { try router.handle("http://127.0.0.1:\(receiver.port)/callback?code=c1&state=\(attempt.state)") }
        #expect(router.pendingCount == 0)
    }

    @Test func timeoutEndsTheAttemptAndClosesTheSocket() async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        await expectReason(.timeout) {
            try await receiver.callback(for: attempt, router: router, timeout: .milliseconds(200))
        }
        #expect(!isListening(port: receiver.port))
        #expect(router.pendingCount == 0)
    }

    @Test func taskCancellationEndsTheAttemptAndClosesTheSocket() async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(60)) }
        waiting.cancel()
        let result = await waiting.result
        expectSyncReason(.cancelled) { try result.get() }
        #expect(!isListening(port: receiver.port))
        expectSyncReason(.cancelled) { try router.handle("http://127.0.0.1:1/callback?code=c&state=\(attempt.state)") }
    }

    @Test func routerCancelEndsTheWait() async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let waiting = Task { try await receiver.callback(for: attempt, router: router, timeout: .seconds(60)) }
        // The waiter may register after the cancel: either way the attempt ends as cancelled.
        router.cancel(attempt)
        await expectReason(.cancelled) { try await waiting.value }
        #expect(!isListening(port: receiver.port))
    }

    @Test func aTiedRefusalIsDeliveredToTheAttempt() async throws {
        let router = try RouterFixture.router(
            RouterFixture.oauth2("desktop", redirect: "http://127.0.0.1/callback", issuer: "https://id.example"),
            clock: SystemAttemptClock())
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        let page = try sendRequest(port: receiver.port, "/callback?code=c&state=\(attempt.state)&iss=https%3A%2F%2Fevil.example")
        await expectReason(.issuerMismatch) { try await receiver.callback(for: attempt, router: router, timeout: .seconds(20)) }
        #expect(page.readAll().statusCode == 400)
    }

    @Test func aSecondWaitThroughTheRouterSaysTheReceiverIsSingleUse() async throws {
        let router = try Self.makeRouter()
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop", redirectURI: receiver.redirectURI)
        let genuine = try sendRequest(port: receiver.port, "/callback?code=c1&state=\(attempt.state)")
        defer { genuine.close() }
        _ = try await receiver.callback(for: attempt, router: router, timeout: .seconds(20))
        let next = try router.beginLogin(on: "desktop", redirectURI: receiver.redirectURI)
        await expectSingleUse { try await receiver.callback(for: next, router: router, timeout: .seconds(30)) }
        #expect(router.pendingCount == 1, "the refused wait did not touch the next attempt")
    }

    @Test func refusesAnAttemptWhoseRouteIsNotThisReceivers() async throws {
        let router = try Self.makeRouter(path: "/other")
        let receiver = try LoopbackReceiver()
        let attempt = try router.beginLogin(on: "desktop")
        await expectReason(.invalidConfiguration) {
            try await receiver.callback(for: attempt, router: router, timeout: .seconds(1))
        }
    }
}

/// Records an issue unless `body` throws a ``CallbackError`` with `reason`.
func expectReason<T>(
    _ reason: ReasonCode, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    do {
        _ = try await body()
        Issue.record("expected \(reason), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CallbackError {
        #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(reason), got \(error)", sourceLocation: sourceLocation)
    }
}

func expectSyncReason<T>(_ reason: ReasonCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("expected \(reason), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CallbackError {
        #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(reason), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Records an issue unless `body` throws the single-use refusal: `invalid_configuration`
/// whose detail says so.
func expectSingleUse<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T) async {
    do {
        _ = try await body()
        Issue.record("a second wait was served", sourceLocation: sourceLocation)
    } catch let error as CallbackError {
        #expect(error.reason == .invalidConfiguration, "\(error)", sourceLocation: sourceLocation)
        #expect(error.detail.contains("single-use"), "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected the single-use refusal, got \(error)", sourceLocation: sourceLocation)
    }
}

func expectSyncSingleUse<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("a second wait was served", sourceLocation: sourceLocation)
    } catch let error as CallbackError {
        #expect(error.reason == .invalidConfiguration, "\(error)", sourceLocation: sourceLocation)
        #expect(error.detail.contains("single-use"), "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected the single-use refusal, got \(error)", sourceLocation: sourceLocation)
    }
}
