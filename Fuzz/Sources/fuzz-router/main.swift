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

// fuzz-router: a fuzzer-driven sequence of begin / handle / cancel / advance-clock /
// pendingCount on a router with six routes (stateful and stateless dialects, a loopback
// route, issuers, a fragment-mode route, routes with and without a handler), checked
// against a shadow model of which attempts are pending and how each one ended.
//
// Each input is a program; every operation's result must be exactly what the model
// predicts (a violation traps; libFuzzer keeps the reproducer):
// - a callback is delivered at most once, only to the pending attempt whose state it
//   carries on the route it was begun on (or the single attempt of a stateless route),
//   never after its expiry, its cancellation or its answer: then the rejection is
//   `attempt_expired`, `cancelled` or `replayed` while remembered, `unknown_state` after;
// - a route's handler hears of a callback exactly when the callback ends an attempt,
//   with the same result the caller gets;
// - `begin` refuses with `conflict` exactly when too many attempts are pending or a
//   stateless route already has one; `pendingCount` equals the model's count and never
//   exceeds the router's bound (expired attempts are swept at most once a second of
//   clock time, on `begin`, `pendingCount` and after every `handle`, accepted or not: the
//   model sweeps at the same moments).
// - a task awaiting an attempt (`callback(for:timeout:)`) is resumed exactly once, with the
//   result the attempt ended with (the delivery or tied rejection, `cancelled` from
//   `cancel` or its task's cancellation, `attempt_expired` from a sweep); the route's
//   handler then hears nothing; a result nobody received on a route without a handler is
//   kept and given to the first later waiter; a second waiter gets `conflict`; a wait with
//   a zero timeout is answered at once (a kept result, else `timeout`, ending the attempt).
// Time is a `ManualAttemptClock`; the URL of a callback is built from a template (route,
// which attempt's state, issuer variant) and optionally followed by raw fuzz bytes. Each
// waiter is a real task: after starting one the harness spins until the router reports it
// registered (`isWaiting`, SPI) or it has its answer, so every step stays deterministic.
@_spi(Testing) import CallbackRouter
import Glibc
import Synchronization
import FuzzSupport

struct RouteSpec {
    let id: RouteID
    let redirect: String
    let dialect: Dialect
    let issuer: String?
    let requiresIssuer: Bool
    let mode: ResponseMode
    let lifetime: Duration
    let hasHandler: Bool
    /// The success parameters of the dialect, without state and iss.
    let body: String
}

let specs: [RouteSpec] = [
    RouteSpec(
        id: "oauth", redirect: "com.example.app:/oauth2redirect", dialect: .oauth2, issuer: "https://issuer.example",
        requiresIssuer: true, mode: .query, lifetime: .seconds(600), hasHandler: true, body: "code=SplxlOBeZQQYbYS6WxSbIA"),
    RouteSpec(
        id: "loopback", redirect: "http://127.0.0.1/callback", dialect: .oauth2, issuer: "https://issuer.example",
        requiresIssuer: false, mode: .query, lifetime: .seconds(60), hasHandler: true, body: "code=4%2F0AX4XfWh"),
    RouteSpec(
        id: "clerk", redirect: "com.example.clerk://callback", dialect: .clerk, issuer: nil,
        requiresIssuer: false, mode: .query, lifetime: .seconds(120), hasHandler: false,
        body: "rotating_token_nonce=rtn_1&created_session_id=sess_2"),
    RouteSpec(
        id: "prelude", redirect: "com.example.prelude://oauth-callback", dialect: .prelude, issuer: nil,
        requiresIssuer: false, mode: .query, lifetime: .seconds(30), hasHandler: true,
        body: "challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdF85ZjhlN2QifQ.hqAixS8iCYIY97RagJ1SH9zkXvvwpvntgUQ0WNC__sc"),
    RouteSpec(
        id: "zephr", redirect: "com.example.zephr:/cb", dialect: .zephr, issuer: nil,
        requiresIssuer: false, mode: .fragment, lifetime: .seconds(300), hasHandler: true,
        body: "action=login&status=success&session_id=s1&tracking_id=t1"),
    RouteSpec(
        id: "ory", redirect: "com.example.ory:/return", dialect: .ory, issuer: "https://ory.example",
        requiresIssuer: false, mode: .query, lifetime: .seconds(5), hasHandler: false, body: "code=ory_ac_1"),
]
let redirectURIs: [RedirectURI] = specs.map { try! RedirectURI($0.redirect) } // fixed, valid fixtures
let maxPending = 12
// Zero, negative and longer than 30 days are refused (invalid_configuration): every lifetime
// `begin` accepts must seal and restore (issue 24).
let lifetimes: [Duration?] = [
    nil, nil, .seconds(0), .milliseconds(500), .seconds(1), .seconds(5), .seconds(90), nil, .seconds(-1),
    .seconds(31 * 24 * 3600),
]
let steps: [Duration] = [
    .milliseconds(100), .milliseconds(500), .milliseconds(999), .seconds(1), .seconds(5), .seconds(30),
    .seconds(59), .seconds(60), .seconds(300), .seconds(600), .seconds(1200), .nanoseconds(1),
]

/// What the handlers heard, per run.
final class Heard: Sendable {
    let results = Mutex<[(route: RouteID, result: Result<Delivery, CallbackError>)]>([])
    func record(_ route: RouteID, _ result: Result<Delivery, CallbackError>) {
        results.withLock { $0.append((route, result)) }
    }
    func take() -> [(route: RouteID, result: Result<Delivery, CallbackError>)] {
        results.withLock {
            let all = $0; $0.removeAll(); return all
        }
    }
}

// MARK: The model

enum Ending { case answered, cancelled, expired, timedOut }

/// What a waiter, a handler or a caller got, compared by the attempt delivered or the reason.
enum Answer: Equatable {
    case delivered(UInt64)
    case refused(ReasonCode)

    init(_ result: Result<Delivery, CallbackError>) {
        switch result {
        case .success(let delivery): self = .delivered(delivery.attempt.id)
        case .failure(let error): self = .refused(error.reason)
        }
    }
}

/// One task awaiting an attempt: its answer once resumed.
final class WaitSlot: Sendable {
    let answer = Mutex<Answer?>(nil)
    let task = Mutex<Task<Void, Never>?>(nil)

    var current: Answer? { answer.withLock { $0 } }

    /// Spins until the task has recorded its answer (bounded: a waiter never resumed traps).
    func awaitAnswer(_ what: @autoclosure () -> String) -> Answer {
        for _ in 0 ..< 500_000 {
            if let answer = current { return answer }
            sched_yield()
        }
        fatalError("a waiter was never resumed: \(what())")
    }
}

struct ModelAttempt {
    let attempt: LoginAttempt
    let route: Int
    var ending: Ending?
    var forgetAt = ClockInstant(nanoseconds: .max)
    /// The tombstone was forgotten by a sweep (a waiter then hears `unknown_state`).
    var swept = false
    /// A result nobody received (no waiter, no handler), kept for a later waiter.
    var unclaimed: (answer: Answer, forgetAt: ClockInstant)?
    /// The task registered as this attempt's waiter, and the answer it must get.
    var waiter: WaitSlot?
    var lifetime: Int64 { attempt.expiresAt.nanoseconds &- attempt.createdAt.nanoseconds }
}

struct Model {
    var attempts: [ModelAttempt] = []
    var lastStatelessEnding: [Int: (ending: Ending, forgetAt: ClockInstant)] = [:]
    var delivered: Set<UInt64> = []
    /// Waiters resumed by the last operation, with the answer each must have got.
    var resumed: [(slot: WaitSlot, expected: Answer, why: String)] = []

    var pendingCount: Int { attempts.filter { $0.ending == nil }.count }

    /// Ends a pending attempt; its waiter, if any, is resumed with `answer`.
    mutating func end(_ index: Int, as ending: Ending, now: ClockInstant, answer: Answer? = nil) {
        let a = attempts[index]
        let forgetAt = max(now, a.attempt.expiresAt).advanced(by: .nanoseconds(a.lifetime))
        attempts[index].ending = ending
        attempts[index].forgetAt = forgetAt
        if specs[a.route].dialect.isStateless { lastStatelessEnding[a.route] = (ending, forgetAt) }
        if let slot = attempts[index].waiter {
            attempts[index].waiter = nil
            resumed.append((slot, answer ?? .refused(reason(ofEnding: ending)), "attempt #\(a.attempt.id) ended \(ending)"))
        }
    }

    /// The router sweeps what is due on every call (an agenda, issue 24), not once a second.
    mutating func sweep(now: ClockInstant) {
        for i in attempts.indices where attempts[i].ending == nil && now >= attempts[i].attempt.expiresAt {
            end(i, as: .expired, now: now)
        }
        for i in attempts.indices {
            if attempts[i].ending != nil && now >= attempts[i].forgetAt { attempts[i].swept = true }
            if let kept = attempts[i].unclaimed, now >= kept.forgetAt { attempts[i].unclaimed = nil }
        }
    }

    /// Checks that every waiter the last operation resumed got what it had to.
    mutating func checkResumed() {
        for (slot, expected, why) in resumed {
            let got = slot.awaitAnswer(why)
            check(got == expected, "a waiter got \(got), the model expected \(expected) (\(why))")
        }
        resumed.removeAll()
    }
}

/// What a task waiting for an attempt that ended this way hears (the tombstone's reason;
/// `cancelled` and `attempt_expired` also when its wait is what ends it).
func reason(ofEnding ending: Ending) -> ReasonCode { reason(of: ending) }

func reason(of ending: Ending) -> ReasonCode {
    switch ending {
    case .answered: return .replayed
    case .cancelled: return .cancelled
    case .expired: return .attemptExpired
    case .timedOut: return .timeout
    }
}

// MARK: The program

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = Reader(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    let clock = ManualAttemptClock(start: ClockInstant(nanoseconds: 1_000_000_000))
    let heard = Heard()
    var builder = RouterBuilder()
    for (spec, redirect) in zip(specs, redirectURIs) {
        let id = spec.id
        let handler: CallbackHandler = { result in heard.record(id, result) }
        builder.add(
            Route(
                spec.id, redirectURI: redirect, dialect: spec.dialect, issuer: spec.issuer,
                requiresIssuer: spec.requiresIssuer, responseMode: spec.mode, attemptLifetime: spec.lifetime,
                handler: spec.hasHandler ? handler : nil))
    }
    let router: CallbackRouter
    do { router = try builder.build(clock: clock, maxPendingAttempts: maxPending) } catch {
        fatalError("the fixture routes do not build: \(error)")
    }
    var model = Model()
    var operations = 0
    var slots: [WaitSlot] = []

    while !reader.atEnd && operations < 200 {
        operations += 1
        let op = reader.next()
        defer { model.checkResumed() }
        switch op % 10 {
        case 0, 1:
            begin(router, &model, clock: clock, routeChoice: reader.next(), lifetimeChoice: reader.next())
        case 2, 3:
            let url = callbackURL(&reader, model: model)
            handle(router, &model, heard: heard, clock: clock, url: url)
        case 4:
            let raw = reader.take(Int(reader.next() % 64))
            let url = specs[Int(op >> 3) % specs.count].redirect + String(decoding: raw, as: UTF8.self)
            handle(router, &model, heard: heard, clock: clock, url: url)
        case 5:
            guard !model.attempts.isEmpty else { continue }
            let index = Int(reader.next()) % model.attempts.count
            router.cancel(model.attempts[index].attempt)
            if model.attempts[index].ending == nil { model.end(index, as: .cancelled, now: clock.now()) }
            check(heard.take().isEmpty, "cancel called a handler")
        case 6:
            clock.advance(by: steps[Int(reader.next()) % steps.count])
        case 8:
            guard !model.attempts.isEmpty else { continue }
            wait(
                router, &model, clock: clock, index: Int(reader.next()) % model.attempts.count,
                zeroTimeout: (op / 10) % 4 == 0, slots: &slots)
        case 9:
            // A waiting task is cancelled: its attempt ends as cancelled.
            guard let index = model.attempts.indices.first(where: { model.attempts[$0].waiter != nil }) else { continue }
            let slot = model.attempts[index].waiter!
            slot.task.withLock { $0 }?.cancel()
            model.end(index, as: .cancelled, now: clock.now())
        default:
            model.sweep(now: clock.now())
            let count = router.pendingCount
            check(count == model.pendingCount, "pendingCount \(count), the model has \(model.pendingCount)")
            check(count <= maxPending, "pendingCount \(count) beyond the bound \(maxPending)")
        }
    }
    // No task outlives the input: the ones still waiting are cancelled, and must say so.
    model.checkResumed()
    for index in model.attempts.indices {
        guard let slot = model.attempts[index].waiter else { continue }
        check(slot.current == nil, "a waiter was resumed early")
        slot.task.withLock { $0 }?.cancel()
        model.end(index, as: .cancelled, now: clock.now())
    }
    model.checkResumed()
    for slot in slots { _ = slot.awaitAnswer("a task left at the end") }
    return 0
}

/// Starts a task awaiting attempt `index` and predicts its registration or its answer.
func wait(
    _ router: CallbackRouter, _ model: inout Model, clock: ManualAttemptClock, index: Int, zeroTimeout: Bool,
    slots: inout [WaitSlot]
) {
    let attempt = model.attempts[index].attempt
    let now = clock.now()
    // A wait that registers also ends at the attempt's expiry, by a timer that sleeps the
    // rest of the lifetime in real time, while this harness moves time by hand: a waiter
    // registered with 1 ns left was ended as attempt_expired at once, and the model,
    // following the hand-moved clock, expected it still waiting (found by this fuzzer: a
    // second waiter answered attempt_expired where the model said conflict). So a wait
    // that would register is started only with at least 10 s left, more than an input may
    // run (libFuzzer's -timeout=5); the timer's own path is WaitDurationTests.aForeverTimeoutWaitsUntilTheAttemptExpires'.
    let before = model.attempts[index]
    let registers = before.unclaimed == nil && before.ending == nil && now < attempt.expiresAt && before.waiter == nil && !zeroTimeout
    if registers && attempt.expiresAt.nanoseconds &- now.nanoseconds < 10_000_000_000 { return }
    let slot = WaitSlot()
    slots.append(slot)
    // The prediction, made before the task runs (the clock does not move meanwhile).
    var immediate: Answer?
    let a = model.attempts[index]
    if let kept = a.unclaimed {
        immediate = kept.answer
        model.attempts[index].unclaimed = nil
    } else if a.ending == nil {
        if now >= attempt.expiresAt {
            model.end(index, as: .expired, now: now)
            immediate = .refused(.attemptExpired)
        } else if a.waiter != nil {
            immediate = .refused(.conflict)
        } else if zeroTimeout {
            model.end(index, as: .timedOut, now: now)
            immediate = .refused(.timeout)
        }
    } else if !a.swept {
        immediate = .refused(reason(ofEnding: a.ending!))
    } else {
        immediate = .refused(.unknownState)
    }
    let task = Task {
        let answer: Answer
        do {
            answer = .delivered(try await router.callback(for: attempt, timeout: zeroTimeout ? .zero : .seconds(3600)).attempt.id)
        } catch {
            answer = .refused((error as? CallbackError)?.reason ?? ReasonCode(rawValue: "untyped"))
        }
        slot.answer.withLock { $0 = answer }
    }
    slot.task.withLock { $0 = task }
    if let immediate {
        let got = slot.awaitAnswer("an immediate answer for attempt #\(attempt.id)")
        check(got == immediate, "a new waiter got \(got), the model expected \(immediate)")
        return
    }
    // Registered: spin until the router has it (its own task does the registering).
    for _ in 0 ..< 500_000 {
        if router.isWaiting(for: attempt) { break }
        check(slot.current == nil, "a waiter that should wait was answered \(slot.current!)")
        sched_yield()
    }
    check(router.isWaiting(for: attempt), "a waiter never registered")
    model.attempts[index].waiter = slot
}

func begin(_ router: CallbackRouter, _ model: inout Model, clock: ManualAttemptClock, routeChoice: UInt8, lifetimeChoice: UInt8) {
    let routeIndex = Int(routeChoice) % (specs.count + 1)
    let lifetime = lifetimes[Int(lifetimeChoice) % lifetimes.count]
    // A Clerk login is sometimes a magic link bound to its flow (issue 34.3).
    let flowID: String? = routeIndex < specs.count && specs[routeIndex].dialect == .clerk && routeChoice & 0x80 != 0 ? "sia_fuzz" : nil
    let result = Result { () throws(CallbackError) in
        if let flowID { return try router.beginLogin(on: specs[routeIndex].id, flowID: flowID, lifetime: lifetime) }
        return try router.beginLogin(on: routeIndex < specs.count ? specs[routeIndex].id : "no-such-route", lifetime: lifetime)
    }
    guard routeIndex < specs.count else {
        guard case .failure(let error) = result, error.reason == .noRoute else { fatalError("begin on an unknown route: \(result)") }
        return
    }
    if let lifetime, lifetime <= .zero || lifetime > SealedAttempt.maximumLifetime {
        guard case .failure(let error) = result, error.reason == .invalidConfiguration else {
            fatalError("begin should refuse the lifetime \(lifetime): \(result)")
        }
        return
    }
    let now = clock.now()
    model.sweep(now: now)
    let spec = specs[routeIndex]
    let statelessBusy = spec.dialect.isStateless && model.attempts.contains { $0.route == routeIndex && $0.ending == nil }
    if model.pendingCount >= maxPending || statelessBusy {
        guard case .failure(let error) = result, error.reason == .conflict else {
            fatalError("begin should be a conflict (pending \(model.pendingCount), stateless busy \(statelessBusy)): \(result)")
        }
        return
    }
    guard case .success(let attempt) = result else { fatalError("begin failed: \(result)") }
    check(
        attempt.route == spec.id && attempt.dialect == spec.dialect && attempt.expectedIssuer == spec.issuer,
        "the attempt does not describe its route")
    check(attempt.createdAt == now && attempt.expiresAt == now.advanced(by: lifetime ?? spec.lifetime), "wrong deadline")
    check(attempt.flowID == flowID, "the attempt does not carry the flow it was begun with")
    check(attempt.state.utf8.count >= 22, "a state shorter than 128 bits")
    check(
        !model.attempts.contains { $0.attempt.state == attempt.state || $0.attempt.id == attempt.id },
        "a state or id was handed out twice")
    check(!attempt.description.contains(attempt.state), "an attempt's description shows its state")
    model.attempts.append(ModelAttempt(attempt: attempt, route: routeIndex))
}

/// A callback for a route, carrying some attempt's state (or a wrong one, or none), an
/// issuer variant, and perhaps raw fuzz bytes after it.
func callbackURL(_ reader: inout Reader, model: Model) -> String {
    let route = Int(reader.next()) % specs.count
    let spec = specs[route]
    let variant = reader.next()
    var parameters: [String] = []
    if spec.id == "clerk" && variant & 0x41 == 0x41 {
        // Clerk's failure: unbound, it must end no attempt.
        parameters.append("__clerk_status=failed&__clerk_error_code=oauth_access_denied")
    } else if spec.id == "clerk" && variant & 0x41 == 0x40 {
        // A magic link, for the flow a bound attempt waits for or another one.
        parameters.append("flow_id=" + (variant & 0x08 == 0 ? "sia_fuzz" : "sia_other") + "&approval_token=apt_1")
    } else {
        parameters.append(variant & 0x01 == 0 ? spec.body : "error=access_denied&error_description=no")
    }
    if !spec.dialect.isStateless || variant & 0x02 != 0 {
        switch (variant >> 2) & 0x03 {
        case 0, 1:
            if !model.attempts.isEmpty {
                parameters.append("state=" + model.attempts[Int(reader.next()) % model.attempts.count].attempt.state)
            }
        case 2: parameters.append("state=" + "A" + String(repeating: "x", count: 42))
        default: break
        }
    }
    switch (variant >> 4) & 0x03 {
    case 1: parameters.append("iss=" + (spec.issuer ?? "https://issuer.example").replacingColonsAndSlashes())
    case 2: parameters.append("iss=https%3A%2F%2Fevil.example")
    default: break
    }
    var base = spec.redirect
    if spec.id == "loopback" && variant & 0x40 != 0 { base = "http://127.0.0.1:" + String(49152 + Int(reader.next())) + "/callback" }
    let joined = parameters.joined(separator: "&")
    var url = spec.mode == .query ? base + "?" + joined : base + "#" + joined
    if variant & 0x80 != 0 { url += String(decoding: reader.take(Int(reader.next() % 16)), as: UTF8.self) }
    return url
}

extension String {
    func replacingColonsAndSlashes() -> String {
        var out = ""
        for c in self {
            switch c {
            case ":": out += "%3A"
            case "/": out += "%2F"
            default: out.append(c)
            }
        }
        return out
    }
}

/// What the router must answer, from the same public pieces it is built of (parser,
/// redirect matching, classifier) plus the model for everything about attempts.
func handle(_ router: CallbackRouter, _ model: inout Model, heard: Heard, clock: ManualAttemptClock, url text: String) {
    let result = Result { () throws(CallbackError) in try router.handle(text) }
    let now = clock.now()
    let calls = heard.take()
    // Every handle sweeps after its own callback's attempt is settled.
    defer { model.sweep(now: now) }

    func expectFailure(_ reason: ReasonCode, _ why: String) {
        guard case .failure(let error) = result, error.reason == reason else {
            fatalError("expected \(reason) (\(why)), got \(result)")
        }
        check(calls.isEmpty, "a handler heard of a callback that reached no attempt (\(reason))")
    }

    /// A refusal of the syntax or the dialect on route `routeIndex`: when the raw text
    /// carries exactly one state that is a pending, unexpired attempt's on that route, that
    /// attempt ends with the refusal (issue 33), heard by its waiter, else its handler.
    func expectRefusal(_ reason: ReasonCode, _ why: String, routeIndex: Int?) {
        guard let routeIndex, !specs[routeIndex].dialect.isStateless,
            let state = modelRawState(text, fragment: specs[routeIndex].mode == .fragment),
            let index = model.attempts.firstIndex(where: {
                $0.ending == nil && $0.route == routeIndex && Array($0.attempt.state.utf8) == state
                    && now < $0.attempt.expiresAt
            })
        else { return expectFailure(reason, why) }
        guard case .failure(let error) = result, error.reason == reason else {
            fatalError("expected \(reason) (\(why), tied), got \(result)")
        }
        let target = model.attempts[index]
        model.end(index, as: .cancelled, now: now, answer: .refused(reason))
        if target.waiter != nil {
            check(calls.isEmpty, "a handler heard of a refusal a waiting task received")
        } else if specs[routeIndex].hasHandler {
            check(calls.count == 1 && calls[0].result.failureReason == reason, "the handler did not hear the tied refusal once")
        } else {
            check(calls.isEmpty, "a route without a handler called one")
            model.attempts[index].unclaimed = (.refused(reason), target.attempt.expiresAt.advanced(by: .nanoseconds(target.lifetime)))
        }
    }

    let url: CallbackURL
    do { url = try CallbackURL(parsing: text) } catch {
        let end = text.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        let prefix = end.flatMap { try? CallbackURL(parsing: String(text[..<$0])) }
        let routeIndex = prefix.flatMap { prefix in redirectURIs.firstIndex(where: { $0.matches(prefix) }) }
        return expectRefusal(error.reason, "syntax", routeIndex: routeIndex)
    }
    guard let routeIndex = redirectURIs.firstIndex(where: { $0.matches(url) }) else {
        return expectFailure(url.userinfo != nil ? .userinfoNotAllowed : .noRoute, "route")
    }
    let spec = specs[routeIndex]
    let outcome: CallbackOutcome
    do {
        outcome = try CallbackClassifier.classify(url, dialect: spec.dialect, expecting: CallbackExpectations(responseMode: spec.mode))
    } catch {
        // As the router: no login's answer may be the end of a logout (whose state comes in
        // the query), and a logout reading that refuses it says why instead.
        var reason = error.reason
        if reason == .missingParameter || reason == .parametersInQuery {
            do {
                _ = try CallbackClassifier.classifyLogout(url, dialect: spec.dialect, profiles: [], allowingNoState: false)
            } catch  where error.reason == .parametersInFragment {
            } catch { reason = error.reason }
        }
        return expectRefusal(reason, "dialect", routeIndex: routeIndex)
    }
    // No state and no secret (Clerk's failure, an error without state on Clerk): reported,
    // and no attempt ends.
    if outcome.isUnbound { return expectFailure(.stateMissing, "unbound") }

    let index: Int?
    var remembered: Ending?
    if spec.dialect.isStateless {
        index = model.attempts.firstIndex { $0.route == routeIndex && $0.ending == nil }
        if index == nil, let last = model.lastStatelessEnding[routeIndex], now < last.forgetAt { remembered = last.ending }
    } else {
        guard let state = outcome.state else { return expectFailure(.stateMissing, "no state") }
        let match = model.attempts.firstIndex { $0.attempt.state == state }
        if let match, model.attempts[match].ending == nil, model.attempts[match].route == routeIndex {
            index = match
        } else {
            index = nil
            if let match, let ending = model.attempts[match].ending, now < model.attempts[match].forgetAt { remembered = ending }
        }
    }
    guard let index else {
        return expectFailure(remembered.map(reason(of:)) ?? .unknownState, "no pending attempt")
    }
    // A magic link for another flow than a flow-bound attempt's is another login's: refused,
    // and the attempt stays pending (before the expiry check: nothing is claimed).
    if outcome.kind == .magicLink, let expected = model.attempts[index].attempt.flowID, outcome.flowID != expected {
        return expectFailure(.stateMismatch, "another flow's magic link")
    }

    // The callback ends this attempt.
    let target = model.attempts[index]
    let expired = now >= target.attempt.expiresAt
    var expected: ReasonCode? = expired ? .attemptExpired : nil
    if expected == nil, let issuer = spec.issuer {
        if let iss = outcome.issuer {
            expected = iss == issuer ? nil : .issuerMismatch
        } else if spec.requiresIssuer {
            expected = .issuerMissing
        }
    }
    let waiter = target.waiter
    model.end(index, as: expired ? .expired : .answered, now: now, answer: Answer(result))
    if waiter == nil && !spec.hasHandler {
        model.attempts[index].unclaimed = (Answer(result), target.attempt.expiresAt.advanced(by: .nanoseconds(target.lifetime)))
    }

    switch result {
    case .success(let delivery):
        check(expected == nil, "delivered, but the model expected \(expected!)")
        check(delivery.attempt.id == target.attempt.id && delivery.route == spec.id, "delivered to the wrong attempt")
        if !spec.dialect.isStateless { check(delivery.outcome.state == target.attempt.state, "delivered with another state") }
        check(model.delivered.insert(target.attempt.id).inserted, "attempt #\(target.attempt.id) delivered twice")
    case .failure(let error):
        check(expected == error.reason, "the model expected \(expected.map(\.rawValue) ?? "a delivery"), got \(error)")
    }
    if waiter != nil {
        check(calls.isEmpty, "a handler heard of a callback a waiting task received")
    } else if spec.hasHandler {
        check(calls.count == 1 && calls[0].route == spec.id, "the handler heard \(calls.count) results")
        switch (calls[0].result, result) {
        case (.success(let a), .success(let b)): check(a.attempt.id == b.attempt.id, "the handler got another delivery")
        case (.failure(let a), .failure(let b)): check(a.reason == b.reason, "the handler got another rejection")
        default: fatalError("the handler and the caller got different results")
        }
    } else {
        check(calls.isEmpty, "a route without a handler called one")
    }
}

extension Result where Failure == CallbackError {
    var failureReason: ReasonCode? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}

/// The model's own reading of the one raw `state` of a callback (in its query, or its
/// fragment), percent-decoded: nil when none, two, or one that does not decode.
func modelRawState(_ text: String, fragment: Bool) -> [UInt8]? {
    let bytes = Array(text.utf8)
    let hash = bytes.firstIndex(of: UInt8(ascii: "#"))
    var part: ArraySlice<UInt8>
    if fragment {
        guard let hash else { return nil }
        part = bytes[(hash + 1)...]
    } else {
        guard let q = bytes.firstIndex(of: UInt8(ascii: "?")), q < (hash ?? bytes.endIndex) else { return nil }
        part = bytes[(q + 1) ..< (hash ?? bytes.endIndex)]
    }
    func decode(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = [], i = raw.startIndex
        while i < raw.endIndex {
            if raw[i] == UInt8(ascii: "%") {
                guard i + 2 < raw.endIndex, let v = UInt8(String(decoding: raw[(i + 1) ... (i + 2)], as: UTF8.self), radix: 16),
                    raw[(i + 1) ... (i + 2)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
                else { return nil }
                out.append(v); i += 3
            } else {
                out.append(raw[i] == UInt8(ascii: "+") ? 0x20 : raw[i]); i += 1
            }
        }
        return out
    }
    var found: [[UInt8]?] = []
    for pair in part.split(separator: UInt8(ascii: "&")) {
        let eq = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
        guard decode(pair[..<eq]) == Array("state".utf8) else { continue }
        found.append(eq == pair.endIndex ? [] : decode(pair[(eq + 1)...]))
    }
    guard found.count == 1 else { return nil }
    return found[0]
}
