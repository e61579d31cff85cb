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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackRouter
import CallbackSystem

/// Waits, in-process, for the callback URL of one login on a custom scheme: the receiving
/// side of ``CallbackHandoff``. Made before the browser is opened, so that the URL is either
/// delivered to it or found in the spool.
///
/// ```swift
/// let attempt = try router.beginLogin(on: "desktop")                  // route: myapp:/callback
/// let receiver = try HandoffReceiver(scheme: "myapp", state: attempt.state, environment: env)
/// openBrowser(try attempt.authorizationRequest(endpoint: authorize, clientID: id).url)
/// let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(300))
/// ```
///
/// From `init` to ``close()`` (or deinit) a thread of its own runs ``BlockingHandoffReceiver``'s
/// wait (the one wait of the hand-off) and queues what it receives, so `open` is never kept
/// waiting by a task that has not started yet. That thread looks in the spool once, when the
/// receiver starts (a callback that came before is queued first), then answers `open` on the
/// socket: while the socket exists, `open` hands this receiver's callbacks to it, not to the
/// spool. Only processes of the same user reach the socket; a URL whose state is not
/// `state`, or that has none while `state` is set (`myapp:x`, a forged `error=`), goes to
/// another receiver (or the spool), never here: it does not end the wait.
///
/// Single use: ``callback(for:router:timeout:)-(LoginAttempt,_,_)`` closes the receiver when
/// it returns; a second one, or a ``nextCallbackURL(timeout:)`` after it, throws at once
/// `CallbackError(.invalidConfiguration)` whose detail says the receiver is single-use (a
/// mistake in the app, which trying again never fixes; never `cancelled` or a timeout).
/// Make a new receiver for the next login.
public final class HandoffReceiver: Sendable {
    private struct State {
        var queue: [String] = []
        var waiter: (token: UInt64, continuation: CheckedContinuation<Result<String, CallbackError>, Never>)?
        /// The waiter's timeout; cancelled when the waiter is resumed otherwise.
        var timer: Task<Void, Never>?
        var nextToken: UInt64 = 0
        /// Set when the receiver stops (closed, conflict, socket failure): every later wait gets it.
        var ended: CallbackError?
        var stopRequested = false
        /// Set by ``callback(for:router:timeout:)``: the receiver's one wait through a router.
        var served = false
        /// Why the receiver was closed, when not by ``close()`` (`cancelled`): the single-use refusal.
        var closedBecause: CallbackError?
    }

    private let state = Locked(State())
    /// The scheme whose callbacks this receiver takes, lowercased as registered.
    public let scheme: String

    /// Creates the receiver's socket and starts answering on it. `state` is the login's
    /// state; nil for dialects without one (then at most one receiver of the scheme may wait,
    /// and it takes from the spool only a callback spooled after it was made: make it before
    /// the browser is opened).
    public init(scheme: String, state expectedState: String?, environment: [String: String]) throws(DesktopError) {
        let parsed: CallbackScheme
        do { parsed = try CallbackScheme(validating: scheme) } catch { throw .usage("scheme: \(error.detail)") }
        let receiver = Handover(try BlockingHandoffReceiver(scheme: parsed, state: expectedState, environment: environment))
        self.scheme = parsed.name
        let state = self.state
        let started = DetachedThread.start { Self.serve(receiver.value, state: state) }
        if !started {
            receiver.value.close()
            throw .unavailable("cannot start the receiver's thread")
        }
    }

    deinit { close() }

    /// Stops answering and removes the socket (within 100 ms); a wait in progress ends with
    /// `cancelled`. Callbacks not yet taken are dropped.
    public func close() {
        state.withLock { $0.stopRequested = true }
    }

    /// The next callback URL for this receiver: from the spool, or delivered by `open`.
    /// Throws `timeout`, `conflict` (two receivers could take it), `cancelled` (task
    /// cancellation or ``close()``), or `invalid_configuration` once a router's wait
    /// (``callback(for:router:timeout:)-(LoginAttempt,_,_)``) has used the receiver. The URL is not validated here: hand it to a
    /// ``CallbackRouter`` or ``CallbackValidator``.
    public func nextCallbackURL(timeout: Duration) async throws(CallbackError) -> String {
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            return state.nextToken
        }
        let result: Result<String, CallbackError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate = state.withLock { state -> Result<String, CallbackError>? in
                    if let closed = state.closedBecause { return .failure(closed) }
                    if !state.queue.isEmpty { return .success(state.queue.removeFirst()) }
                    if let ended = state.ended { return .failure(ended) }
                    if state.waiter != nil { return .failure(CallbackError(.conflict, "another task is already waiting on this receiver")) }
                    state.waiter = (token, continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                let state = self.state
                let timer = Task {
                    do { try await Task.sleep(for: Self.sleepable(timeout)) } catch { return }
                    Self.endWait(state, token: token, with: CallbackError(.timeout, "no callback for this login arrived within \(timeout)"))
                }
                let attached = state.withLock { state -> Bool in
                    guard state.waiter?.token == token else { return false }
                    state.timer = timer
                    return true
                }
                if !attached { timer.cancel() }
                if Task.isCancelled {
                    Self.endWait(state, token: token, with: CallbackError(.cancelled, "the task waiting for the callback was cancelled"))
                }
            }
        } onCancel: {
            Self.endWait(state, token: token, with: CallbackError(.cancelled, "the task waiting for the callback was cancelled"))
        }
        return try result.get()
    }

    /// The longest a wait sleeps: a year. Any `Duration` is a valid timeout (`.seconds(Int64.max)`
    /// is how a caller writes "forever"), but `Task.sleep` traps past what its clock holds and
    /// `timeout + .seconds(5)` overflows near `Int64.max` seconds; a wait of a year is forever
    /// for a login (and a router's wait ends at its attempt's expiry, at most 30 days, anyway).
    static func sleepable(_ timeout: Duration) -> Duration {
        let year = Duration.seconds(365 * 24 * 3600)
        return timeout > year ? year : timeout
    }

    private static func endWait(_ state: Locked<State>, token: UInt64, with error: CallbackError) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<String, CallbackError>, Never>? in
            guard let waiter = state.waiter, waiter.token == token else { return nil }
            state.waiter = nil
            state.timer?.cancel()
            state.timer = nil
            return waiter.continuation
        }
        waiter?.resume(returning: .failure(error))
    }

    /// Receives callbacks and hands each to `router` until the router delivers to
    /// `attempt` (exactly once, with its `timeout`, `cancelled`, `attempt_expired`); then
    /// closes the receiver. Single-use: a second call throws `invalid_configuration` at once.
    public func callback(for attempt: LoginAttempt, router: CallbackRouter, timeout: Duration) async throws(CallbackError) -> Delivery {
        let first = state.withLock { state in
            defer { state.served = true }
            return !state.served
        }
        guard first else { throw Self.singleUse }
        let feeding = Task { [self] in
            while !Task.isCancelled {
                let url: String
                do { url = try await nextCallbackURL(timeout: Self.sleepable(timeout) + .seconds(5)) } catch { return }
                _ = try? router.handle(url)
            }
        }
        let result: Result<Delivery, CallbackError>
        do { result = .success(try await router.callback(for: attempt, timeout: timeout)) } catch { result = .failure(error) }
        state.withLock { state in
            state.closedBecause = Self.singleUse
            state.stopRequested = true
        }
        feeding.cancel()
        _ = await feeding.value
        return try result.get()
    }

    /// Receives callbacks and hands each to `router` until the router delivers to
    /// `logout` (OpenID Connect RP-Initiated Logout 1.0: the provider's redirect to the
    /// post-logout redirect URI, delivered once as `logout_complete`; a login's callback
    /// never completes it), as ``callback(for:router:timeout:)-(LoginAttempt,_,_)`` does
    /// for a login; then closes the receiver.
    ///
    /// Make the receiver with the state the end-session request sent,
    /// `logout.request.state` (nil for Auth0's `returnTo`, which returns none: then the
    /// route must accept logouts without state, and at most one receiver of the scheme may
    /// wait).
    public func callback(for logout: LogoutAttempt, router: CallbackRouter, timeout: Duration) async throws(CallbackError) -> Delivery {
        try await callback(for: logout.attempt, router: router, timeout: timeout)
    }

    /// The refusal of a wait on a receiver a router's wait has used.
    static var singleUse: CallbackError {
        CallbackError(
            .invalidConfiguration,
            "this receiver is single-use: a wait through the router already used it and closed its socket; make a new HandoffReceiver for another login"
        )
    }

    /// The receiver's thread: ``BlockingHandoffReceiver``'s wait (the one wait of the
    /// hand-off), in slices of 100 ms so that ``close()`` is seen promptly; the spool is read
    /// in the first slice only, when the receiver starts.
    private static func serve(_ receiver: BlockingHandoffReceiver, state: Locked<State>) {
        defer { receiver.close() }
        func deliver(_ url: String) {
            let waiter = state.withLock { state -> CheckedContinuation<Result<String, CallbackError>, Never>? in
                guard let waiter = state.waiter else {
                    state.queue.append(url)
                    return nil
                }
                state.waiter = nil
                state.timer?.cancel()
                state.timer = nil
                return waiter.continuation
            }
            waiter?.resume(returning: .success(url))
        }
        func end(_ error: CallbackError) {
            let waiter = state.withLock { state -> CheckedContinuation<Result<String, CallbackError>, Never>? in
                state.ended = error
                state.timer?.cancel()
                state.timer = nil
                defer { state.waiter = nil }
                return state.waiter?.continuation
            }
            waiter?.resume(returning: .failure(error))
        }
        do {
            var readingSpool = true
            while true {
                if let closing = state.withLock({ state -> CallbackError? in
                    state.stopRequested ? state.closedBecause ?? CallbackError(.cancelled, "the receiver was closed") : nil
                }) {
                    end(closing)
                    return
                }
                let arrival = try receiver.wait(until: .after(milliseconds: 100), readingSpool: readingSpool)
                readingSpool = false
                switch arrival {
                case .callback(let url): deliver(url)
                case .timedOut: continue
                case .conflict:
                    end(
                        CallbackError(
                            .conflict,
                            "another receiver of '\(receiver.scheme)' could take the same callback, so none got it: another login is already in progress"
                        ))
                    return
                }
            }
        } catch {
            end(CallbackError(.cancelled, "the hand-off socket failed: \(error)"))
        }
    }
}

/// Moves a value used by one thread at a time into the receiver's thread.
private struct Handover<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

#endif
