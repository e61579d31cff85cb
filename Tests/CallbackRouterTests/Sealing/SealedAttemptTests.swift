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

private func makeRouter(
    clock: any AttemptClock, handler: CallbackHandler? = nil, logoutHandler: CallbackHandler? = nil,
    maxPendingAttempts: Int = 65_536,
    redirect: String = RouterFixture.appRedirect
) throws -> CallbackRouter {
    try RouterFixture.router(
        RouterFixture.oauth2(
            "op", redirect: redirect, issuer: "https://op.example.com", handler: handler, logoutHandler: logoutHandler),
        RouterFixture.prelude(handler: handler), clock: clock, maxPendingAttempts: maxPendingAttempts)
}

private func reason(_ body: () throws -> Void) -> ReasonCode? {
    do { try body(); return nil } catch { return (error as? CallbackError)?.reason }
}

/// A router that began an attempt and "died", and a fresh one in the relaunched process.
private struct ColdStart {
    let clock = ManualAttemptClock()
    let attempt: LoginAttempt
    let sealed: SealedAttempt
    let router: CallbackRouter

    init(route: RouteID = "op", lifetime: Duration = .seconds(600)) throws {
        let first = try makeRouter(clock: clock)
        attempt = try first.beginLogin(on: route, lifetime: lifetime)
        sealed = attempt.sealed()
        router = try makeRouter(clock: clock)
    }

    var callback: String { "com.example.app:/oauth2redirect?code=c&state=\(attempt.state)" }
}

@Suite struct SealedAttemptFormatTests {
    @Test func writesTheDocumentedVersionedLines() throws {
        let cold = try ColdStart()
        let lines = cold.sealed.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 13 && lines.last == "")
        #expect(
            lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }.dropLast() == [
                "callback-router-sealed-attempt", "purpose", "route", "redirect-uri", "dialect", "issuer", "state",
                "code-verifier", "nonce", "expires", "lifetime", "check",
            ])
        #expect(lines[0] == "callback-router-sealed-attempt 1")
        #expect(lines[1] == "purpose login")
        #expect(lines[2] == "route " + Base64URL.encode(Array("op".utf8)))
        #expect(lines[4] == "dialect oauth2")
        #expect(lines[9] == "expires \(1_767_225_600_000_000_000 + 600_000_000_000)")
        #expect(lines[10] == "lifetime 600000000000")
        #expect(cold.sealed.text.utf8.allSatisfy { $0 == 0x0A || (0x20 ... 0x7E).contains($0) })
    }

    @Test func printsNoSecret() throws {
        let cold = try ColdStart()
        var dumped = ""
        dump(cold.sealed, to: &dumped)
        for text in [cold.sealed.description, cold.sealed.debugDescription, dumped, "\(cold.sealed)"] {
            #expect(text.contains("<redacted, \(cold.sealed.text.utf8.count) bytes>"))
            for secret in [
                cold.attempt.state, cold.attempt.pkce.verifier, cold.attempt.nonce,
                Base64URL.encode(Array(cold.attempt.state.utf8)),
            ] {
                #expect(!text.contains(secret))
            }
        }
    }

    @Test func hmacMatchesRFC4231TestCase2() {
        let mac = HMACSHA256.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(
            mac.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}

@Suite struct RestoreTests {
    @Test func aRestoredAttemptTakesItsCallbackWithItsSecrets() throws {
        let cold = try ColdStart()
        let restored = try cold.router.restore(cold.sealed)
        #expect(restored.state == cold.attempt.state && restored.pkce == cold.attempt.pkce && restored.nonce == cold.attempt.nonce)
        #expect(restored.route == "op" && restored.purpose == .login && restored.expectedIssuer == "https://op.example.com")
        let delivery = try cold.router.handle(cold.callback)
        #expect(delivery.attempt == restored)
        #expect(delivery.attempt.pkce.verifier == cold.attempt.pkce.verifier)
        #expect(reason { try cold.router.handle(cold.callback) } == .replayed)
    }

    @Test func withoutRestoringTheCallbackIsAnUnknownState() throws {
        let cold = try ColdStart()
        #expect(reason { try cold.router.handle(cold.callback) } == .unknownState)
    }

    @Test func aRecordIsRestoredOnce() throws {
        let cold = try ColdStart()
        try cold.router.restore(cold.sealed)
        #expect(reason { try cold.router.restore(cold.sealed) } == .replayed)
        try cold.router.handle(cold.callback)
        #expect(reason { try cold.router.restore(cold.sealed) } == .replayed, "its callback was delivered here")
        #expect(cold.router.pendingCount == 0)
    }

    @Test func anAttemptStillPendingHereIsNotRestoredAgain() throws {
        let clock = ManualAttemptClock()
        let router = try makeRouter(clock: clock)
        let attempt = try router.beginLogin(on: "op")
        #expect(reason { try router.restore(attempt.sealed()) } == .replayed)
        router.cancel(attempt)
        #expect(reason { try router.restore(attempt.sealed()) } == .cancelled)
    }

    @Test func anExpiredRecordIsAttemptExpired() throws {
        let cold = try ColdStart(lifetime: .seconds(60))
        cold.clock.advance(by: .seconds(60))
        #expect(reason { try cold.router.restore(cold.sealed) } == .attemptExpired)
    }

    @Test func aRestoredAttemptExpiresWhenTheSealedOneWould() throws {
        let cold = try ColdStart(lifetime: .seconds(60))
        cold.clock.advance(by: .seconds(50))
        try cold.router.restore(cold.sealed)
        cold.clock.advance(by: .seconds(11))
        #expect(reason { try cold.router.handle(cold.callback) } == .attemptExpired)
    }

    @Test func aClockSetBackDoesNotExtendTheAttempt() throws {
        let clock = ManualAttemptClock()
        let attempt = try makeRouter(clock: clock).beginLogin(on: "op", lifetime: .seconds(60))
        // The relaunched process's calendar is an hour behind: the record looks fresh for 61 minutes.
        let behind = ManualAttemptClock(wallClockStart: 1_767_225_600_000_000_000 - 3_600_000_000_000)
        let router = try makeRouter(clock: behind)
        let restored = try router.restore(attempt.sealed())
        #expect(restored.expiresAt.nanoseconds - behind.now().nanoseconds == 60_000_000_000)
    }

    @Test func aRecordForAnUnknownOrChangedRouteIsNoRoute() throws {
        let clock = ManualAttemptClock()
        let sealed = try makeRouter(clock: clock).beginLogin(on: "op").sealed()
        var builder = RouterBuilder()
        builder.add(Route("other", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        #expect(reason { try builder.build(clock: clock).restore(sealed) } == .noRoute)
        let moved = try makeRouter(clock: clock, redirect: "com.example.app:/elsewhere")
        #expect(reason { try moved.restore(sealed) } == .noRoute)
    }

    @Test func aStatelessRouteStillHoldsOneLogin() throws {
        let cold = try ColdStart(route: "prelude")
        _ = try cold.router.beginLogin(on: "prelude")
        #expect(reason { try cold.router.restore(cold.sealed) } == .conflict)
    }

    @Test func aSealedLogoutIsRestoredAsALogout() throws {
        let clock = ManualAttemptClock()
        let logout = try makeRouter(clock: clock).beginLogout(
            on: "op", endSessionEndpoint: "https://op.example.com/logout",
            clientID: "abc")
        #expect(logout.attempt.sealed().text.contains("\npurpose logout\n"))
        let router = try makeRouter(clock: clock)
        try router.restore(logout.attempt.sealed())
        #expect(reason { try router.handle("com.example.app:/oauth2redirect?code=c&state=\(logout.attempt.state)") } == .unknownState)
        #expect(try router.handle("com.example.app:/oauth2redirect?state=\(logout.attempt.state)").outcome.kind == .logoutComplete)
    }

    @Test func restoresAcrossRoutersOnTheSystemClocks() throws {
        // The real monotonic and calendar clocks, as in two processes: no wall-clock
        // assertion, only that the record is fresh and restores with time left.
        let sealed = try makeRouter(clock: SystemAttemptClock()).beginLogin(on: "op").sealed()
        let clock = SystemAttemptClock()
        let restored = try makeRouter(clock: clock).restore(sealed)
        #expect(restored.expiresAt > clock.now())
        #expect(restored.expiresAt.nanoseconds - clock.now().nanoseconds <= 600_000_000_000)
    }

    @Test func aFullRouterRefusesWithConflict() throws {
        let cold = try ColdStart()
        let router = try makeRouter(clock: cold.clock, maxPendingAttempts: 1)
        _ = try router.beginLogin(on: "op")
        #expect(reason { try router.restore(cold.sealed) } == .conflict)
    }

    @Test func aKeyedRecordNeedsItsKey() throws {
        let cold = try ColdStart()
        let key = Array("0123456789abcdef0123456789abcdef".utf8)
        let keyed = try cold.attempt.sealed(key: key)
        #expect(keyed.text.contains("\nhmac-sha256 "))
        #expect(reason { try cold.router.restore(keyed) } == .invalidRecord)
        #expect(reason { try cold.router.restore(keyed, key: Array("another key, 32 bytes long......".utf8)) } == .invalidRecord)
        #expect(reason { try cold.router.restore(cold.sealed, key: key) } == .invalidRecord, "no downgrade to an unkeyed record")
        try cold.router.restore(keyed, key: key)
        try cold.router.handle(cold.callback)
    }

    @Test func aShortKeyIsRefused() throws {
        let cold = try ColdStart()
        let short = [UInt8](repeating: 7, count: 31)
        #expect(reason { _ = try cold.attempt.sealed(key: short) } == .invalidConfiguration)
        #expect(reason { try cold.router.restore(cold.sealed, key: short) } == .invalidConfiguration)
    }
}

@Suite struct RestoreRefusalTests {
    static let record: String = {
        let clock = ManualAttemptClock()
        return (try? makeRouter(clock: clock).beginLogin(on: "op").sealed().text) ?? ""
    }()

    private func refusal(_ text: String, key: [UInt8]? = nil) -> CallbackError? {
        do {
            try makeRouter(clock: ManualAttemptClock()).restore(text, key: key)
            return nil
        } catch {
            return error as? CallbackError
        }
    }

    @Test func everyTruncationIsInvalid() {
        let bytes = Array(Self.record.utf8)
        #expect(bytes.count > 300)
        for length in 0 ..< bytes.count {
            let error = refusal(String(decoding: bytes[..<length], as: UTF8.self))
            #expect(error?.reason == .invalidRecord, "cut at \(length): \(String(describing: error))")
        }
        #expect(refusal(Self.record) == nil)
    }

    @Test func everyChangedByteIsInvalid() {
        let bytes = Array(Self.record.utf8)
        for index in bytes.indices {
            for replacement: UInt8 in [0x41, 0x2D, 0x0A, 0x20, 0x00, 0xFF] where replacement != bytes[index] {
                var changed = bytes
                changed[index] = replacement
                let error = refusal(String(decoding: changed, as: UTF8.self))
                #expect(error?.reason == .invalidRecord, "byte \(index) → \(replacement): \(String(describing: error))")
            }
        }
    }

    @Test func anotherVersionSaysSo() {
        let error = refusal(Self.record.replacingFirst("callback-router-sealed-attempt 1", with: "callback-router-sealed-attempt 2"))
        #expect(error?.reason == .invalidRecord)
        #expect(error?.detail.contains("version is 2") == true)
    }

    /// Records whose check is right but whose content is not what a record says.
    @Test(arguments: [
        ("state", "state ="), ("state", "state AAAA="), ("state", "state A"), ("state", "state "),
        ("expires", "expires -1"), ("expires", "expires 01"), ("expires", "expires 99999999999999999999"),
        ("lifetime", "lifetime 0"), ("lifetime", "lifetime 2592000000000001"), ("lifetime", "lifetime 9223372036854775807"),
        ("purpose", "purpose admin"), ("dialect", "dialect auto"),
        ("code-verifier", "code-verifier " + Base64URL.encode(Array("short".utf8))),
        ("nonce", "nonce " + Base64URL.encode([0xC3, 0x28])),
    ])
    func malformedValuesAreInvalid(_ field: String, _ line: String) {
        var lines = Self.record.split(separator: "\n").map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix(field + " ") }) else {
            Issue.record("no line \(field)")
            return
        }
        lines[index] = line
        lines.removeLast()
        var text = lines.joined(separator: "\n") + "\n"
        text += "check " + Base64URL.encode(SHA256.hash(text.utf8).prefix(16)) + "\n"
        let error = refusal(text)
        #expect(error?.reason == .invalidRecord, "\(String(describing: error))")
    }

    @Test func anOverlongRecordIsTooLong() {
        #expect(refusal(String(repeating: "a", count: SealedAttempt.maximumLength + 1))?.reason == .tooLong)
    }

    @Test func detailsNameNoSecret() {
        let bytes = Array(Self.record.utf8)
        let secrets = Self.record.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ")
            return ["state", "code-verifier", "nonce"].contains(String(parts[0])) ? String(parts[1]) : nil
        }
        for length in stride(from: 0, to: bytes.count, by: 7) {
            let detail = refusal(String(decoding: bytes[..<length], as: UTF8.self))?.detail ?? ""
            for secret in secrets { #expect(!detail.contains(secret)) }
        }
    }
}

/// The issue's load test: 1,000 sealed attempts (a third of them logouts on the same
/// redirect URI) restored and answered concurrently, each
/// record restored by two racing tasks and its callback sent by both: every attempt is
/// restored once and delivered exactly once.
@Suite struct ConcurrentRestoreTests {
    final class Deliveries: Sendable {
        let ids = Locked<[String: Int]>([:])
        func record(_ result: Result<Delivery, CallbackError>) {
            if case .success(let delivery) = result { ids.withLock { $0[delivery.attempt.state, default: 0] += 1 } }
        }
    }

    @Test func thousandRestoresAndCallbacksAreEachDeliveredOnce() async throws {
        // The route's handler gets the logins, its logoutHandler the logouts.
        let clock = ManualAttemptClock()
        let first = try makeRouter(clock: clock)
        var begun: [LoginAttempt] = []
        for index in 0 ..< 1000 {
            // Every third one a logout: they share the redirect URI with the logins.
            begun.append(
                index % 3 == 2
                    ? try first.beginLogout(on: "op", endSessionEndpoint: "https://op.example.com/logout", clientID: "c").attempt
                    : try first.beginLogin(on: "op"))
        }
        let attempts = begun
        let deliveries = Deliveries()
        let router = try makeRouter(clock: clock, handler: deliveries.record, logoutHandler: deliveries.record)
        let sealed = attempts.map { $0.sealed() }

        let outcomes = await withTaskGroup(of: (Int, Bool, Bool).self) { group in
            for index in 0 ..< 1000 {
                for _ in 0 ..< 2 {
                    group.addTask {
                        let restored = (try? router.restore(sealed[index])) != nil
                        let url =
                            attempts[index].purpose == .logout
                            ? "com.example.app:/oauth2redirect?state=\(attempts[index].state)"
                            : "com.example.app:/oauth2redirect?code=c\(index)&state=\(attempts[index].state)"
                        let delivered = (try? router.handle(url)) != nil
                        return (index, restored, delivered)
                    }
                }
            }
            var restores = [Int](repeating: 0, count: 1000), handled = [Int](repeating: 0, count: 1000)
            for await (index, restored, delivered) in group {
                if restored { restores[index] += 1 }
                if delivered { handled[index] += 1 }
            }
            return (restores, handled)
        }
        #expect(outcomes.0.allSatisfy { $0 == 1 }, "every record restored exactly once")
        #expect(outcomes.1.allSatisfy { $0 == 1 }, "every callback accepted exactly once")
        let counts = deliveries.ids.withLock { $0 }
        #expect(counts.count == 1000 && counts.values.allSatisfy { $0 == 1 })
        #expect(Set(counts.keys) == Set(attempts.map(\.state)))
        #expect(router.pendingCount == 0)
    }
}
