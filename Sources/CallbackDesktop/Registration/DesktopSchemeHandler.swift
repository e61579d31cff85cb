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

/// An app's custom URL scheme as the Linux desktop's `x-scheme-handler`: the desktop entry
/// in `$XDG_DATA_HOME/applications` and the default in `$XDG_CONFIG_HOME/mimeapps.list`.
///
/// ```swift
/// let handler = try DesktopSchemeHandler(scheme: "myapp", environment: env)
/// try handler.register(executablePath: "/usr/bin/callback-router")   // Exec=… open %u
/// ```
///
/// The handler executable is run as `EXECUTABLE open URL`: the `callback-router` helper, or
/// an app binary that calls ``CallbackHandoff/deliver(_:environment:spool:spoolTTLSeconds:)-(String,_,_,_)`` for `open`.
/// Registering twice changes nothing; unregistering restores the default it replaced.
public struct DesktopSchemeHandler: Sendable {
    /// What a registration or unregistration changed.
    public struct Report: Sendable, Equatable {
        /// The `.desktop` file was written (register) or removed (unregister).
        public let changedDesktopFile: Bool
        /// `mimeapps.list` was changed: the scheme's default handler set or restored.
        public let changedMimeApps: Bool
        /// `update-desktop-database` ran (it is optional; false when it is not installed).
        public let mimeCacheRefreshed: Bool
        /// For unregister: whether the default was still ours (false: left as the user set it).
        public let defaultWasOurs: Bool
    }

    let registration: SchemeRegistration

    /// The scheme, lowercased.
    public var scheme: String { registration.scheme.name }
    /// The desktop file this handler writes.
    public var desktopFilePath: String { registration.desktopFilePath }
    /// The desktop file's name (`ID.desktop`), as `mimeapps.list` names the default handler.
    public var desktopFileName: String { registration.desktopFileName }
    /// The `mimeapps.list` this handler edits (`$XDG_CONFIG_HOME/mimeapps.list`).
    public var mimeAppsListPath: String { registration.directories.mimeAppsList }
    /// The scheme as a validated value (``scheme`` is its name).
    public var callbackScheme: CallbackScheme { registration.scheme }

    /// - Parameters:
    ///   - scheme: the scheme (`myapp`); `http`, `https` and the browser's own are refused.
    ///   - id: the desktop file's name without `.desktop` (default from the scheme).
    ///   - environment: where `HOME` and the `XDG_*` variables come from.
    /// - Throws: ``DesktopError/usage`` for a bad scheme or id, or no `HOME`.
    public init(scheme: String, id: String? = nil, environment: [String: String]) throws(DesktopError) {
        let parsed: CallbackScheme
        do { parsed = try CallbackScheme(validating: scheme) } catch { throw .usage("scheme: \(error.detail)") }
        try self.init(scheme: parsed, id: id, environment: environment)
    }

    /// The handler of a scheme validated already (``CallbackScheme/init(validating:)``).
    ///
    /// - Parameters:
    ///   - scheme: the scheme.
    ///   - id: the desktop file's name without `.desktop` (default
    ///     ``CallbackScheme/defaultDesktopID``): letters, digits, `-`, `_`, `.`, not starting
    ///     with a digit or a dot.
    ///   - environment: where `HOME` and the `XDG_*` variables come from.
    /// - Throws: ``DesktopError/usage`` for a bad id, or when neither `HOME` nor the `XDG_*`
    ///   variables say where to write.
    public init(scheme: CallbackScheme, id: String? = nil, environment: [String: String]) throws(DesktopError) {
        let desktopID = id ?? scheme.defaultDesktopID
        try SchemeRegistration.validateID(desktopID)
        registration = SchemeRegistration(
            scheme: scheme, id: desktopID, directories: try XDGDirectories(environment: environment),
            environment: environment)
    }

    /// Writes the desktop entry (`Exec=EXECUTABLE open %u`) and makes it the default handler.
    @discardableResult
    public func register(executablePath: String) throws(DesktopError) -> Report {
        Report(try registration.register(executablePath: executablePath))
    }

    /// Removes the entry and restores the previous default; nil when nothing was registered.
    @discardableResult
    public func unregister() throws(DesktopError) -> Report? {
        try registration.unregister().map(Report.init)
    }

    /// The desktop file `mimeapps.list` names as the scheme's default, if any.
    public func currentDefault() throws(DesktopError) -> String? { try registration.currentDefault() }

    /// Whether a desktop entry written for this scheme exists.
    public var isRegistered: Bool { (try? registration.readOurEntry()) != nil }
}

extension DesktopSchemeHandler.Report {
    init(_ report: SchemeRegistration.Report) {
        self.init(
            changedDesktopFile: report.changedDesktopFile, changedMimeApps: report.changedMimeApps,
            mimeCacheRefreshed: report.mimeCacheRefreshed, defaultWasOurs: report.defaultWasOurs)
    }
}

/// The hand-off between the process the desktop starts for a callback URL (`open`) and the
/// process waiting for it, through a socket in `$XDG_RUNTIME_DIR` that only the same user
/// can reach, or the spool when nobody waits yet.
public enum CallbackHandoff {
    /// What ``deliver(_:environment:spool:spoolTTLSeconds:)-(String,_,_,_)`` did with a URL. (Not the
    /// router's `Delivery`, a callback that reached its attempt: this one says where the URL went.)
    public enum Receipt: Sendable, Equatable {
        /// A waiting receiver confirmed it has the callback.
        case delivered
        /// Nobody waits yet; the callback waits in the spool for the receiver to come.
        case spooled
    }

    /// The old name of ``Receipt``, which shared its name with the router's `Delivery`.
    @available(*, deprecated, renamed: "Receipt")
    public typealias Delivery = Receipt

    /// How long a spooled callback waits for its receiver unless told otherwise: 600 seconds.
    public static let defaultSpoolTTLSeconds = Spool.defaultTTLSeconds

    /// What the handler executable does with the URL the desktop gives it (`open URL`):
    /// hands it to the one receiver waiting for its scheme and state, else spools it.
    ///
    /// - Throws: ``DesktopError/rejected`` for a URL that is not a callback (validate it
    ///   with ``HandoffURL/init(validating:)`` first for the reason code and offset), and
    ///   what ``deliver(_:environment:spool:spoolTTLSeconds:)-(HandoffURL,_,_,_)`` throws.
    public static func deliver(
        _ url: String, environment: [String: String], spool: Bool = true,
        spoolTTLSeconds: Int = defaultSpoolTTLSeconds
    ) throws(DesktopError) -> Receipt {
        let callback: HandoffURL
        do {
            callback = try HandoffURL(validating: url)
        } catch {
            throw DesktopError(.rejected, message: "the URL is not a callback URL")
        }
        return try deliver(callback, environment: environment, spool: spool, spoolTTLSeconds: spoolTTLSeconds)
    }

    /// Hands a validated callback URL to the one receiver waiting for its scheme and state,
    /// else spools it for `spoolTTLSeconds` (when `spool` is true).
    ///
    /// - Throws: ``DesktopError/conflict`` when two receivers could take it (none gets it),
    ///   ``DesktopError/busy`` when a receiver did not answer (nothing was delivered),
    ///   ``DesktopError/unconfirmed`` when a receiver took it but did not confirm (it is not
    ///   sent again: at most once), ``DesktopError/noReceiver`` when nobody takes it and
    ///   `spool` is false, ``DesktopError/permission`` for a foreign or badly owned runtime
    ///   directory, socket or peer, ``DesktopError/unavailable`` when the system refused.
    public static func deliver(
        _ url: HandoffURL, environment: [String: String], spool: Bool = true,
        spoolTTLSeconds: Int = defaultSpoolTTLSeconds
    ) throws(DesktopError) -> Receipt {
        let sender = HandoffSender(runtime: try RuntimeDirectory.resolve(environment: environment, uid: UserIdentity.real))
        switch try sender.send(url: url.text, route: url.route, spool: .init(enabled: spool, ttlSeconds: spoolTTLSeconds)) {
        case .delivered, .takenFromSpool: return .delivered
        case .spooled: return .spooled
        case .conflict: throw DesktopError(.conflict, message: "two or more receivers could take the callback: delivered to none")
        case .busy: throw DesktopError(.busy, message: "a receiver did not answer: delivered to none")
        case .nobody: throw DesktopError(.noReceiver, message: "nobody is waiting for this callback")
        case .unconfirmed:
            throw DesktopError(
                .unconfirmed, message: "a receiver took the callback but did not confirm; it is not sent again (at most once)")
        }
    }
}

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
