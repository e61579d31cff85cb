import Testing
@_spi(Testing) @testable import CallbackRouter

private func oauthRouter(clock: any AttemptClock = SystemAttemptClock()) throws -> CallbackRouter {
    var builder = RouterBuilder()
    builder.add(Route("app", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
    return try builder.build(clock: clock, maxPendingAttempts: 20_000)
}

private func reason(of body: () async throws -> Delivery) async -> ReasonCode? {
    do { _ = try await body(); return nil } catch { return (error as? CallbackError)?.reason }
}

@Suite struct RouterWaitingTests {
    @Test func resumesTheWaiterWithItsCallback() async throws {
        let router = try oauthRouter()
        let attempt = try router.begin(on: "app")
        async let waited = router.callback(for: attempt, timeout: .seconds(30))
        // Deliver once the waiter may or may not be registered: both orders must work.
        try await Task.sleep(for: .milliseconds(20))
        let handed = try router.handle("com.example.app:/oauth2redirect?code=c&state=\(attempt.state)")
        let delivery = try await waited
        #expect(delivery.attempt == handed.attempt)
        #expect(delivery.outcome.value("code") == "c")
    }

    @Test func returnsACallbackThatArrivedBeforeAnyoneWaited() async throws {
        let router = try oauthRouter()
        let attempt = try router.begin(on: "app")
        try router.handle("com.example.app:/oauth2redirect?code=early&state=\(attempt.state)")
        let delivery = try await router.callback(for: attempt, timeout: .seconds(5))
        #expect(delivery.outcome.value("code") == "early")
        // It was handed over once; a second wait is told so.
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .replayed)
    }

    @Test func timesOutAndLeavesNothingPending() async throws {
        let router = try oauthRouter()
        let attempt = try router.begin(on: "app")
        #expect(await reason { try await router.callback(for: attempt, timeout: .milliseconds(50)) } == .timeout)
        #expect(router.pendingCount == 0)
        #expect(throws: CallbackError.self) { try router.handle("com.example.app:/oauth2redirect?code=c&state=\(attempt.state)") }
    }

    @Test func resumesWithCancelledWhenTheTaskIsCancelled() async throws {
        let router = try oauthRouter()
        let attempt = try router.begin(on: "app")
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        #expect(await task.value == .cancelled)
        #expect(router.pendingCount == 0)
    }

    @Test func resumesWithCancelledWhenTheAttemptIsCancelled() async throws {
        let router = try oauthRouter()
        let attempt = try router.begin(on: "app")
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        try await Task.sleep(for: .milliseconds(20))
        router.cancel(attempt)
        #expect(await task.value == .cancelled)
    }

    @Test func refusesASecondWaiter() async throws {
        let router = try oauthRouter()
        let attempt = try router.begin(on: "app")
        let first = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        try await Task.sleep(for: .milliseconds(20))
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .conflict)
        router.cancel(attempt)
        #expect(await first.value == .cancelled)
    }

    @Test func resumesAnExpiredAttemptsWaiterWithAttemptExpired() async throws {
        let clock = ManualAttemptClock()
        let router = try oauthRouter(clock: clock)
        let attempt = try router.begin(on: "app", lifetime: .seconds(10))
        let task = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(30)) } }
        try await Task.sleep(for: .milliseconds(20))
        clock.advance(by: .seconds(11))
        #expect(router.pendingCount == 0, "the sweep ends the expired attempt")
        #expect(await task.value == .attemptExpired)
    }

    /// Found by the router fuzzer once it drove waiting tasks: a second waiter arriving
    /// after the attempt expired (before any sweep) ended the attempt and dropped the
    /// first waiter, which then waited forever — its timer found no waiter left to end.
    @Test(.timeLimit(.minutes(1))) func aLateSecondWaiterOnAnExpiredAttemptResumesTheFirstToo() async throws {
        let clock = ManualAttemptClock()
        let router = try oauthRouter(clock: clock)
        let attempt = try router.begin(on: "app", lifetime: .seconds(10))
        let first = Task { await reason { try await router.callback(for: attempt, timeout: .seconds(3600)) } }
        while !router.isWaiting(for: attempt) { await Task.yield() }
        clock.advance(by: .seconds(11)) // expired; no sweep has run
        #expect(await reason { try await router.callback(for: attempt, timeout: .seconds(1)) } == .attemptExpired)
        #expect(await first.value == .attemptExpired)
        #expect(!router.isWaiting(for: attempt))
    }

    /// 10,000 attempts begun and answered from many tasks at once: each callback reaches
    /// its own waiter exactly once, every replay is refused, nothing is left pending.
    @Test func deliversTenThousandCallbacksExactlyOnceUnderConcurrency() async throws {
        let router = try oauthRouter()
        let count = 10_000
        let attempts = try (0 ..< count).map { _ in try router.begin(on: "app") }
        #expect(router.pendingCount == count)

        enum Report: Sendable { case waiter(ownCallback: Bool), deliverer(delivered: Bool, replaysRefused: Bool) }
        let reports = await withTaskGroup(of: Report.self) { group in
            for (index, attempt) in attempts.enumerated() {
                group.addTask {
                    let delivery = try? await router.callback(for: attempt, timeout: .seconds(120))
                    return .waiter(ownCallback: delivery?.attempt == attempt && delivery?.outcome.value("code") == "code-\(index)")
                }
                group.addTask {
                    let url = "com.example.app:/oauth2redirect?code=code-\(index)&state=\(attempt.state)"
                    let delivered = (try? router.handle(url)) != nil
                    var replaysRefused = true
                    for _ in 0 ..< 2 {
                        do { try router.handle(url); replaysRefused = false }
                        catch { replaysRefused = replaysRefused && (error as? CallbackError)?.reason == .replayed }
                    }
                    return .deliverer(delivered: delivered, replaysRefused: replaysRefused)
                }
            }
            var reports: [Report] = []
            for await report in group { reports.append(report) }
            return reports
        }
        var ownCallbacks = 0, deliveries = 0, refusedReplays = 0
        for report in reports {
            switch report {
            case .waiter(let own): ownCallbacks += own ? 1 : 0
            case let .deliverer(delivered, refused):
                deliveries += delivered ? 1 : 0
                refusedReplays += refused ? 1 : 0
            }
        }
        #expect(ownCallbacks == count)
        #expect(deliveries == count)
        #expect(refusedReplays == count)
        #expect(router.pendingCount == 0)
    }
}
