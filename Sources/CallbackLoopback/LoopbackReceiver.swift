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

import CallbackRouter
import CallbackSystem

/// An RFC 8252 §7.3 loopback receiver: bound when made, so its ``redirectURI`` (with the
/// port actually bound) goes into the authorization request; then it serves one wait.
///
/// ```swift
/// let receiver = try LoopbackReceiver()                 // http://127.0.0.1:PORT/callback
/// let attempt = try router.beginLogin(on: "desktop")         // route: http://127.0.0.1/callback
/// let request = try receiver.authorizationRequest(for: attempt, endpoint: authorize, clientID: id)
/// openBrowser(request.url)
/// let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(300))
/// ```
///
/// Guarantees: only the loopback literal is bound; a request is answered only when its
/// `Host` is the redirect URI's authority (DNS rebinding) and it is a navigation; HEAD,
/// OPTIONS and prefetches never consume the login; pages carry no script and never the
/// state or code; on Linux a connection from another user's process is refused (403)
/// before its request is read (``Configuration/allowOtherUsers``); the ``startURL``
/// reveals the authorization URL once. Not protected: another process of the same user
/// (or, on macOS, of any user) can connect to the port like the browser does; the state
/// (or, with a router, the attempt's state) is what ties the callback to this login.
/// Cancelling the waiting task closes the socket.
///
/// ## Single use
///
/// A receiver serves one wait, whichever of ``callback(for:router:timeout:log:)-(LoginAttempt,_,_,_)``,
/// ``callback(expecting:timeout:log:)`` or ``receive(expecting:until:log:)`` it is: the wait
/// closes the port when it ends. A second wait, after the first or beside it, throws at once
/// `CallbackError(.invalidConfiguration)` whose detail says the receiver is single-use: a
/// mistake in the app that waiting longer or trying again never fixes (as an attempt of
/// another route is), not a `cancelled` or `timeout` a user caused. Make a new receiver for
/// the next login; ``init(for:_:)`` binds a restored login's port again.
public final class LoopbackReceiver: Sendable {
    /// How the receiver listens.
    public struct Configuration: Sendable {
        /// The loopback address to bind.
        public var host: LoopbackHost
        /// The ports to try, in order: the first free one is bound. Empty (the default):
        /// one the system picks (RFC 8252 §7.3). `0` in the list also means that.
        public var ports: [Int]
        /// The callback path, starting with `/` (default `/callback`).
        public var path: String
        /// How long one connection may take to send its request and take the answer.
        public var connectionTimeout: Duration
        /// How long to let the browser read the last page before the wait returns.
        public var lingerTimeout: Duration
        /// The largest request head (request line and fields) accepted; 16 KiB.
        public var maxHeadBytes: Int
        /// Connections still sending their request beyond this close the oldest of them,
        /// never the newest one; answered connections that linger until the peer closes do
        /// not count (they are bounded apart, at four times this).
        public var maxConnections: Int
        /// After an accepted callback, send the browser here (303 See Other) instead of the
        /// built-in page: the app's own "you are signed in" page. `http` or `https` only.
        public var successURL: String?
        /// After a provider error or a refused callback of this login, send the browser here (303).
        public var failureURL: String?
        /// How the callback arrives: ``LoopbackResponseMode/query`` (default) or ``LoopbackResponseMode/formPost``.
        public var responseMode: LoopbackResponseMode
        /// The largest form_post body accepted (16 KiB); larger is 413, never a partial parse.
        public var maxBodyBytes: Int
        /// Also accept the callback URL pasted on this descriptor (a terminal: `0`), one
        /// per line, for remote and SSH sessions where the browser cannot reach the port.
        /// A pasted URL is judged exactly as a request (same parser, redirect URI, state);
        /// the first valid callback, pasted or requested, wins, exactly once. The receiver
        /// reads it only during a wait and never closes it.
        public var pasteDescriptor: Int32?
        /// `false` (the default): on Linux, a connection from a process of another user of
        /// this computer is answered 403 before its request is read, and never ends or
        /// disturbs the wait. The owner of a loopback connection is the uid the kernel gives
        /// the peer's socket, asked by the connection's exact address pair (netlink
        /// `NETLINK_SOCK_DIAG`; `/proc/net/tcp` and `tcp6`, capped, only where netlink is
        /// refused); when none can be found the connection is refused too (fail closed). `true` turns the
        /// check off, for the rare setup where the browser runs as another user. Other
        /// systems (macOS) offer no such lookup: there the check does not run, and the
        /// one-time ``LoopbackReceiver/startURL`` is what keeps the login to its user.
        public var allowOtherUsers: Bool
        /// What the built-in pages say about the app: its name and where the person
        /// returns (``LoopbackPages``). The default names no app and says "return to the application".
        public var pages = LoopbackPages()
        /// nil (the default): the page for an accepted callback is sent at once. Set (a few
        /// seconds, ``LoopbackReceiver/defaultAnswerHold``): the answer to an accepted callback
        /// of this login that is not a provider error is held until the app says how the
        /// sign-in ended (``LoopbackReceiver/finish(_:)``: "Signed in", or "Sign-in failed" with
        /// its sentence), so that the browser never says "Signed in" before the app has its
        /// tokens; past this long the page says the sign-in is finishing in the app (or the
        /// terminal) and nothing waits longer. A refused callback and a provider error are
        /// answered at once. At most ``LoopbackReceiver/longestAnswerHold``.
        public var answerHold: Duration?
        /// The user whose connections are answered; nil: this process's effective uid.
        /// Not API: lets a test that cannot switch users see its own connections refused.
        var acceptedUser: UInt32?

        /// A configuration; the defaults are a receiver on 127.0.0.1, a port the system
        /// picks, path `/callback`, the query response mode and the limits documented above.
        public init(
            host: LoopbackHost = .ipv4, ports: [Int] = [], path: String = "/callback",
            connectionTimeout: Duration = .seconds(10), lingerTimeout: Duration = .seconds(1),
            maxHeadBytes: Int = 16 * 1024, maxConnections: Int = 64,
            successURL: String? = nil, failureURL: String? = nil,
            responseMode: LoopbackResponseMode = .query, maxBodyBytes: Int = 16 * 1024,
            pasteDescriptor: Int32? = nil, allowOtherUsers: Bool = false
        ) {
            self.allowOtherUsers = allowOtherUsers
            self.pasteDescriptor = pasteDescriptor
            self.responseMode = responseMode
            self.maxBodyBytes = maxBodyBytes
            self.successURL = successURL
            self.failureURL = failureURL
            self.host = host
            self.ports = ports
            self.path = path
            self.connectionTimeout = connectionTimeout
            self.lingerTimeout = lingerTimeout
            self.maxHeadBytes = maxHeadBytes
            self.maxConnections = maxConnections
        }
    }

    /// The configuration the receiver was made with (its port list, path, limits, pages).
    public let configuration: Configuration
    let server: LoopbackServer
    /// Set by the first wait: a receiver serves one (see "Single use").
    let used = Locked(false)

    /// The port actually bound.
    public var port: Int { server.port }
    /// `http://127.0.0.1:PORT/callback`: the literal and the port actually bound.
    public var redirectURI: String { server.redirectURI }

    /// Binds the first free port of `configuration.ports` (or one the system picks).
    ///
    /// - Throws: ``LoopbackError/invalidConfiguration`` for a bad path or port,
    ///   ``LoopbackError/addressInUse`` when every listed port is taken,
    ///   ``LoopbackError/permissionDenied``, ``LoopbackError/unavailable``.
    public init(_ configuration: Configuration = Configuration()) throws(LoopbackError) {
        guard Self.isValidPath(configuration.path) else {
            throw LoopbackError(
                .invalidConfiguration,
                "the path must start with '/' and hold only URL path characters (no '?', '#', spaces or '%' that is not an escape)")
        }
        guard configuration.ports.allSatisfy({ (0 ... 65535).contains($0) }) else {
            throw LoopbackError(.invalidConfiguration, "a port is outside 0…65535")
        }
        for (name, url) in [("successURL", configuration.successURL), ("failureURL", configuration.failureURL)] {
            guard let url else { continue }
            guard Self.isRedirectTarget(url) else {
                throw LoopbackError(.invalidConfiguration, "\(name) must be an absolute http or https URL")
            }
        }
        guard configuration.maxHeadBytes > 0, configuration.maxConnections > 0, configuration.maxBodyBytes >= 0 else {
            throw LoopbackError(.invalidConfiguration, "maxHeadBytes and maxConnections must be positive")
        }
        guard configuration.connectionTimeout > .zero, configuration.lingerTimeout >= .zero else {
            throw LoopbackError(.invalidConfiguration, "connectionTimeout must be positive and lingerTimeout not negative")
        }
        if let hold = configuration.answerHold, hold <= .zero || hold > Self.longestAnswerHold {
            throw LoopbackError(
                .invalidConfiguration,
                "answerHold must be positive and at most \(Self.longestAnswerHold) (a browser gives up on a page it waits for longer)")
        }
        self.configuration = configuration
        let ports = configuration.ports.isEmpty ? [0] : configuration.ports
        var lastFailure: SystemError?
        var bound: LoopbackServer?
        for port in ports {
            var settings = LoopbackConfiguration(receiver: configuration, port: port)
            settings.connectionTimeout = Self.bounded(configuration.connectionTimeout)
            settings.lingerTimeout = Self.bounded(configuration.lingerTimeout)
            do {
                bound = try LoopbackServer(configuration: settings)
                break
            } catch {
                lastFailure = error
                // Only a taken port moves on to the next one; anything else is final.
                guard error.code == SystemError.Code.addressInUse else { break }
            }
        }
        guard let bound else {
            let listed = ports.map(String.init).joined(separator: ",")
            throw LoopbackError(lastFailure ?? SystemError("bind", code: 0), address: configuration.host.description, ports: listed)
        }
        server = bound
    }

    /// Binds exactly the host, port and path of `redirectURI`, a loopback redirect URI a
    /// login already sent (`http://127.0.0.1:49152/callback`): for a login restored after a
    /// cold start (``CallbackRouter/restore(_:key:)-(SealedAttempt,_)``), whose browser comes
    /// back to the port the first receiver had. `configuration`'s host, ports and path are
    /// replaced by the redirect URI's; its other settings apply.
    ///
    /// ✅ `http://127.0.0.1:49152/callback`, `http://[::1]:49152/cb`,
    /// `http://localhost:49152/callback` (binds both literals, as ``LoopbackHost/localhost``).
    /// ❌ `https://…`, another host (`http://example.com:80/…`, `http://127.0.0.2:…`), no
    /// port or port 0 (the browser would go to port 80), userinfo, a query or a fragment.
    ///
    /// - Throws: ``LoopbackError/invalidConfiguration`` for a redirect URI that is not such a
    ///   loopback one; ``LoopbackError/addressInUse`` when the port is taken (another
    ///   program has it now: the login cannot be finished here), and as ``init(_:)``.
    public convenience init(redirectURI: String, _ configuration: Configuration = Configuration()) throws(LoopbackError) {
        try self.init(Self.configuration(binding: redirectURI, from: configuration))
    }

    /// Binds the port and path of `attempt`'s exact redirect URI
    /// (``LoginAttempt/redirectURI``, as begun with ``CallbackRouter/beginLogin(on:redirectURI:lifetime:)``
    /// and kept by its sealed record): ``init(redirectURI:_:)`` with it. Then
    /// ``callback(for:router:timeout:log:)-(LoginAttempt,_,_,_)`` serves the restored attempt.
    ///
    /// ```swift
    /// let attempt = try router.restore(storedRecord)          // after a cold start
    /// let receiver = try LoopbackReceiver(for: attempt)       // the same port as before
    /// let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(300))
    /// ```
    ///
    /// - Throws: ``LoopbackError/invalidConfiguration`` when the attempt's redirect URI is
    ///   not loopback or names no port (begun with ``CallbackRouter/beginLogin(on:lifetime:)``:
    ///   begin with the receiver's redirect URI so that the port is kept); else as
    ///   ``init(redirectURI:_:)``.
    public convenience init(for attempt: LoginAttempt, _ configuration: Configuration = Configuration()) throws(LoopbackError) {
        guard attempt.redirectURI.isLoopback else {
            throw LoopbackError(
                .invalidConfiguration,
                "the attempt's redirect URI (\(attempt.redirectURI)) is not a loopback one: no receiver can listen for it")
        }
        guard attempt.redirectURI.url.port != nil else {
            throw LoopbackError(
                .invalidConfiguration,
                "the attempt's redirect URI (\(attempt.redirectURI)) names no port, so the port its browser returns to is unknown: begin the login with router.beginLogin(on:redirectURI: receiver.redirectURI)"
            )
        }
        try self.init(redirectURI: attempt.redirectURI.url.string, configuration)
    }

    /// `configuration` with the host, the one port and the path of the loopback `redirectURI`.
    static func configuration(binding redirectURI: String, from configuration: Configuration) throws(LoopbackError) -> Configuration {
        func refuse(_ why: String) -> LoopbackError {
            LoopbackError(.invalidConfiguration, "\(redirectURI) is not a loopback redirect URI a receiver can bind: \(why)")
        }
        guard let url = try? CallbackURL(parsing: redirectURI) else { throw refuse("it is not a valid URL") }
        guard url.scheme == "http" else { throw refuse("a loopback redirect URI is http (RFC 8252 §7.3)") }
        guard url.userinfo == nil else { throw refuse("it carries userinfo") }
        let host: LoopbackHost
        switch url.host {
        case let literal? where literal.kind == .ipv4 && literal.addressBytes == [127, 0, 0, 1]: host = .ipv4
        case let literal? where literal.kind == .ipv6 && literal.isLoopbackAddress: host = .ipv6
        case let name? where name.kind == .registeredName && name.text == "localhost": host = .localhost
        default: throw refuse("its host is not 127.0.0.1, [::1] or localhost")
        }
        guard let port = url.port, (1 ... 65535).contains(port) else {
            throw refuse("it names no port (the browser returns to the port the login sent)")
        }
        guard url.query == nil, url.fragment == nil, isValidPath(url.path) else {
            throw refuse("a receiver's redirect URI is a path, without query or fragment")
        }
        var configuration = configuration
        configuration.host = host
        configuration.ports = [port]
        configuration.path = url.path
        return configuration
    }

    /// An absolute `http`/`https` URL our parser accepts (so no CR, LF or space can split
    /// the `Location` header it goes into).
    static func isRedirectTarget(_ url: String) -> Bool {
        guard let parsed = try? CallbackURL(parsing: url), parsed.scheme == "http" || parsed.scheme == "https",
            parsed.host?.text.isEmpty == false
        else { return false }
        return url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// `http://127.0.0.1:PORT/start/<256 random bits, base64url>`: a short link that
    /// redirects (302) to the URL given to ``setAuthorizationURL(_:)``, so a user whose
    /// terminal wraps or cuts the long authorization URL can still get there. Answers 404
    /// until that URL is set.
    ///
    /// It reveals the authorization URL (its state, PKCE challenge and nonce) **once**: the
    /// first GET uses it up, and every later one gets 410 ("this link was already used")
    /// without the URL; `HEAD` (link scanners) neither reveals nor uses it. Its path cannot
    /// be guessed, and `GET /` or any other path reveals nothing. Give it only to the
    /// browser: whoever follows it first holds the login. ❌ Not protected: a process that
    /// reads the browser's command line (`ps`) can race the browser for it; on Linux it is
    /// refused unless it runs as this user (``Configuration/allowOtherUsers``).
    public var startURL: String { "http://\(server.authority)\(server.startPath)" }

    /// Whether the ``startURL`` has been followed (its one GET): a command that started a
    /// browser can tell, after a while, that none came, and say so.
    public var startURLWasUsed: Bool { server.startLink.withLock { $0.used } }

    /// The authorization URL the ``startURL`` redirects to.
    /// - Throws: `invalid_configuration` unless it is an absolute `http`/`https` URL.
    public func setAuthorizationURL(_ url: String) throws(CallbackError) {
        guard Self.isRedirectTarget(url) else {
            throw CallbackError(.invalidConfiguration, "the authorization URL must be an absolute http or https URL")
        }
        server.startLink.withLock { $0.authorizationURL = url }
    }

    /// A path the URL parser reads back unchanged, with no query or fragment.
    public static func isValidPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= 1024,
            let url = try? CallbackURL(parsing: "http://127.0.0.1" + path)
        else { return false }
        return url.path == path && url.query == nil && url.fragment == nil
    }

    /// The longest wait honoured, about ten years: a longer one (`.seconds(Int64.max)`, how
    /// a caller writes "forever") waits this long instead of overflowing a clock.
    static let longestWait: Duration = .seconds(315_360_000)

    /// `timeout` within `0 ... longestWait`: zero or negative times out at once.
    static func bounded(_ timeout: Duration) -> Duration {
        min(max(timeout, .zero), longestWait)
    }

    /// Stops the wait in progress (it returns `stopped`, or `cancelled` from the async
    /// APIs) and closes the listening socket; a page already promised is still sent.
    public func close() { server.requestStop() }

    /// The authorization request for `attempt` with this receiver's redirect URI (the port
    /// actually bound), the attempt's state, PKCE challenge and nonce.
    public func authorizationRequest(
        for attempt: LoginAttempt, endpoint: String, clientID: String,
        scope: String? = "openid",
        extraParameters: [(String, String)] = []
    ) throws(CallbackError) -> AuthorizationRequest {
        try checkPort(of: attempt)
        return try AuthorizationRequest(
            endpoint: endpoint, clientID: clientID, redirectURI: redirectURI, scope: scope,
            state: attempt.state, pkce: attempt.pkce, nonce: attempt.nonce,
            extraParameters: extraParameters)
    }

    // MARK: Waiting without a router

    /// Serves until a callback for this login ends the wait, the deadline passes, or
    /// ``close()`` is called; blocks the calling thread (a command-line tool's main thread).
    /// `log` gets one line per request that did not end the wait, free of secrets.
    /// A receiver is single-use: a second wait throws `invalid_configuration` at once.
    public func receive(
        expecting expectations: LoopbackExpectations, until deadline: ContinuousClock.Instant,
        log: (String) -> Void = { _ in }
    ) throws(CallbackError) -> LoopbackWaitResult {
        let validation = try LoopbackValidation(expectations, redirectURI: redirectURI, allowLocalhost: configuration.host == .localhost)
        try claimTheWait()
        return Self.waitResult(server.run(validation: validation, until: deadline, log: log))
    }

    /// Waits for the callback of this login without blocking a thread of the caller's.
    ///
    /// Returns the outcome (a provider failure such as `authorization_error` too); throws
    /// the refusal of a callback that carried the expected state, `timeout`, or `cancelled`
    /// (the task was cancelled or ``close()`` was called: the socket is closed). Any
    /// `timeout` is accepted: zero or less times out at once, and one beyond about ten years
    /// (`.seconds(Int64.max)`, "forever") waits ten years.
    ///
    /// A receiver is single-use: a second wait (after this one, or beside it) throws
    /// `invalid_configuration` at once, never `cancelled` or a timeout.
    public func callback(
        expecting expectations: LoopbackExpectations, timeout: Duration,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(CallbackError) -> CallbackOutcome {
        let validation = try LoopbackValidation(expectations, redirectURI: redirectURI, allowLocalhost: configuration.host == .localhost)
        try claimTheWait()
        let deadline = ContinuousClock.now.advanced(by: Self.bounded(timeout))
        let result = await serve(judge: LoopbackServer.judge(validation), until: deadline, log: log)
        switch Self.waitResult(result) {
        case .callback(let outcome):
            return try outcome.get()
        case .timedOut(let ignored):
            let extra = ignored == 0 ? "" : " (\(ignored) request\(ignored == 1 ? "" : "s") to the callback path ignored)"
            throw CallbackError(.timeout, "no callback for this login arrived within \(timeout)\(extra)")
        case .stopped:
            throw CallbackError(.cancelled, "the wait for the callback was cancelled")
        }
    }

    // MARK: Waiting with a router

    /// Serves `attempt`'s callback through `router`: each callback request is handed to
    /// ``CallbackRouter/handle(_:)-(String)``, and this returns what the router delivers to
    /// the attempt, with the router's guarantees: exactly once, `timeout`, `cancelled`
    /// (task cancellation, ``CallbackRouter/cancel(_:)`` or ``close()``), `attempt_expired`.
    /// When it returns, the socket is closed.
    ///
    /// The attempt's route must have a loopback redirect URI with this receiver's host and
    /// path (any port matches, RFC 8252 §7.3); send ``authorizationRequest(for:endpoint:clientID:scope:extraParameters:)``.
    /// An attempt begun with an exact redirect URI (``CallbackRouter/beginLogin(on:redirectURI:lifetime:)``,
    /// or restored from its sealed record) must name this receiver's port: its browser returns
    /// there (``init(for:_:)`` binds it again after a cold start); another port is
    /// `invalid_configuration`. A receiver is single-use: a second wait throws
    /// `invalid_configuration` at once (see the type's "Single use").
    /// A callback for another attempt of the router is delivered to that attempt; one that
    /// reaches no attempt is answered and ignored. `timeout` is bounded as in
    /// ``callback(expecting:timeout:log:)``.
    public func callback(
        for attempt: LoginAttempt, router: CallbackRouter, timeout: Duration,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(CallbackError) -> Delivery {
        guard let own = try? CallbackURL(parsing: redirectURI), attempt.redirectURI.isLoopback,
            attempt.redirectURI.matches(own)
        else {
            throw CallbackError(
                .invalidConfiguration,
                "the attempt's redirect URI (\(attempt.redirectURI)) is not this receiver's (\(redirectURI)): the route needs a loopback redirect URI with the same host and path"
            )
        }
        try checkPort(of: attempt)
        try claimTheWait()
        let judge = Self.routerJudge(router, attempt: attempt)
        // The router ends the wait; the server's own deadline is only a backstop. The thread
        // starts here, synchronously: a child task could wait for a free cooperative thread
        // while the browser's request is already there.
        let timeout = Self.bounded(timeout)
        let backstop = ContinuousClock.now.advanced(by: timeout + .seconds(5))
        let completion = LoopbackCompletion()
        let server = self.server
        if !DetachedThread.start({ completion.finish(server.run(judge: judge, until: backstop, log: log)) }) {
            throw CallbackError(.cancelled, "no thread could be started for the receiver")
        }
        let result: Result<Delivery, CallbackError>
        do { result = .success(try await router.callback(for: attempt, timeout: timeout)) } catch { result = .failure(error) }
        server.requestStop()
        _ = await completion.value()
        return try result.get()
    }

    /// Serves `logout`'s callback through `router`, as
    /// ``callback(for:router:timeout:log:)-(LoginAttempt,_,_,_)`` serves a login's: the
    /// provider's redirect to the post-logout redirect URI is delivered once as
    /// `logout_complete` (a login's callback never completes it). The route's redirect URI
    /// is the post-logout one; send ``endSessionURL(for:)``, which names the port bound.
    public func callback(
        for logout: LogoutAttempt, router: CallbackRouter, timeout: Duration,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(CallbackError) -> Delivery {
        try await callback(for: logout.attempt, router: router, timeout: timeout, log: log)
    }

    /// `logout`'s end-session URL with `post_logout_redirect_uri` set to this receiver's
    /// ``redirectURI`` (the port actually bound): the route's redirect URI names no port
    /// (RFC 8252 §7.3), and the provider must send the browser back to this one. Like
    /// ``LogoutAttempt/url`` it carries the `id_token_hint`, a secret: open it, never log it.
    ///
    /// - Throws: `invalid_configuration` when the logout's route is not this receiver's
    ///   (another host or path), or its request has no `post_logout_redirect_uri`.
    public func endSessionURL(for logout: LogoutAttempt) throws(CallbackError) -> String {
        guard let own = try? CallbackURL(parsing: redirectURI), logout.attempt.redirectURI.isLoopback,
            logout.attempt.redirectURI.matches(own)
        else {
            throw CallbackError(
                .invalidConfiguration,
                "the logout's post-logout redirect URI (\(logout.attempt.redirectURI)) is not this receiver's (\(redirectURI)): the route needs a loopback redirect URI with the same host and path"
            )
        }
        // The request's URL ends with its own parameters, encoded in order: swap the one
        // value, keep everything else (the endpoint's query, the id_token_hint) as built.
        let parameters = logout.request.parameters
        guard parameters.contains(where: { $0.name == "post_logout_redirect_uri" || $0.name == "returnTo" }) else {
            throw CallbackError(.invalidConfiguration, "the end-session request names no post-logout redirect URI")
        }
        func encoded(_ list: [Parameter]) -> String {
            list.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
        }
        let replaced = parameters.map { parameter in
            parameter.name == "post_logout_redirect_uri" || parameter.name == "returnTo"
                ? Parameter(name: parameter.name, value: redirectURI) : parameter
        }
        let url = logout.request.url
        let suffix = encoded(parameters)
        guard url.hasSuffix(suffix) else {
            throw CallbackError(.invalidConfiguration, "the end-session request URL does not end with its parameters")
        }
        return String(url.dropLast(suffix.count)) + encoded(replaced)
    }

    static func routerJudge(_ router: CallbackRouter, attempt: LoginAttempt) -> LoopbackJudge {
        { url in
            do throws(CallbackError) {
                let delivery = try router.handle(url)
                let failure = delivery.outcome.kind.isProviderFailure
                let evaluation = LoopbackEvaluation(
                    kind: failure ? .providerFailure : .success, result: .success(delivery.outcome),
                    providerError: failure ? delivery.outcome.value("error") : nil, reason: nil,
                    carriesExpectedState: delivery.attempt == attempt)
                // Delivered to an attempt (this one, or another login of the app): its page is true.
                return LoopbackJudgement(evaluation: evaluation, disposition: .accepted)
            } catch {
                // The router reaches an attempt only through a URL it can parse. One it
                // refuses that still carries this attempt's state (`code=%FF`, 65
                // parameters, overlong UTF-8: only the holder of the state can send it) ends
                // the attempt with that refusal, as it does without a router; any other is
                // no attempt's, and its page must not say the login ended.
                let tied = LoopbackValidation.carries(rawURL: url, state: attempt.state)
                if tied { router.refuse(attempt, with: error) }
                let evaluation = LoopbackEvaluation(
                    kind: .rejected, result: .failure(error), providerError: nil,
                    reason: error.reason, carriesExpectedState: tied)
                return LoopbackJudgement(evaluation: evaluation, disposition: tied ? .accepted : .ignored)
            }
        }
    }

    // MARK: One wait

    /// The detail of the refusal of a second wait (reason `invalid_configuration`).
    static let singleUseDetail =
        "this receiver is single-use: it already served a wait, which closed its port; make a new LoopbackReceiver for another wait (LoopbackReceiver(for: attempt) binds a restored login's port again)"

    /// Takes the receiver's one wait; throws the single-use refusal when it is taken.
    private func claimTheWait() throws(CallbackError) {
        let first = used.withLock { used in
            defer { used = true }
            return !used
        }
        guard first else { throw CallbackError(.invalidConfiguration, Self.singleUseDetail) }
    }

    /// Refuses an attempt whose exact redirect URI names another port than this receiver's:
    /// its browser goes there, and the token request must send what the authorization sent.
    private func checkPort(of attempt: LoginAttempt) throws(CallbackError) {
        guard let sent = attempt.redirectURI.url.port, sent != port else { return }
        throw CallbackError(
            .invalidConfiguration,
            "the attempt was begun with the redirect URI \(attempt.redirectURI), whose browser returns to port \(sent), and this receiver listens on port \(port): bind that port with LoopbackReceiver(for: attempt)"
        )
    }

    // MARK: Running the loop

    private func serve(
        judge: @escaping LoopbackJudge, until deadline: ContinuousClock.Instant,
        log: @escaping @Sendable (String) -> Void
    ) async -> LoopbackServerOutcome {
        let server = self.server
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LoopbackServerOutcome, Never>) in
                let started = DetachedThread.start {
                    continuation.resume(returning: server.run(judge: judge, until: deadline, log: log))
                }
                // No thread to be had: run here rather than fail; it blocks this one instead.
                if !started { continuation.resume(returning: server.run(judge: judge, until: deadline, log: log)) }
            }
        } onCancel: {
            server.requestStop()
        }
    }

    static func waitResult(_ result: LoopbackServerOutcome) -> LoopbackWaitResult {
        switch result {
        case .finished(let evaluation): return .callback(evaluation.result)
        case .timedOut(let ignored): return .timedOut(ignoredRequests: ignored)
        case .stopped: return .stopped
        }
    }
}
