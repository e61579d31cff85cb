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

/// A one-time start link on 127.0.0.1 for a login whose callback does not come back over
/// loopback (a custom scheme through the desktop's hand-off): the browser is opened on
/// ``url``, `http://127.0.0.1:PORT/start/<256 random bits>`, never on the authorization URL,
/// so the login's `state`, PKCE challenge and nonce are in no process's command line (every
/// local user can read `/proc/PID/cmdline`).
///
/// ```swift
/// let attempt = try router.beginLogin(on: "desktop")      // route: com.example.app:/callback
/// let request = try attempt.authorizationRequest(endpoint: authorize, clientID: id)
/// let receiver = try HandoffReceiver(scheme: "com.example.app", state: attempt.state, environment: environment)
/// let link = try LoopbackStartLink(authorizationURL: request.url)
/// defer { link.close() }
/// openBrowser(link.url)                                   // the start link, never request.url
/// let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(300))
/// ```
///
/// It is the loopback receiver's start link (``LoopbackReceiver/startURL``) served alone, by
/// the same server on a thread of its own, from `init` until ``close()`` (or its
/// ``Configuration/lifetime``): the first `GET` of the start path redirects (302) to the
/// authorization URL and uses the link up; later ones get 410 ("already used") without it;
/// `HEAD` neither reveals nor uses it. Every other path is 404 and nothing is ever taken for
/// a callback: only the provider's redirect, through the scheme, ends the login. The
/// receiver's edge holds here too: only the exact `Host` `127.0.0.1:PORT`, navigations only,
/// and on Linux a connection from another user's process is answered 403 before its request
/// is read (``Configuration/allowOtherUsers``).
///
/// ❌ Not protected: a process that reads the browser's command line can race the browser for
/// the link (on Linux only one of this user's own; on macOS any), and the user then sees
/// "this link was already used" and must not go on.
public final class LoopbackStartLink: Sendable {
    /// How the start link listens and how long it is served.
    public struct Configuration: Sendable {
        /// The loopback address to bind (``LoopbackHost/ipv4`` by default).
        public var host: LoopbackHost
        /// How long the link is served at most when ``LoopbackStartLink/close()`` is never
        /// called (default 10 minutes; bounded to about ten years, zero or less: not at all).
        public var lifetime: Duration
        /// How long one connection may take to send its request and take the answer.
        public var connectionTimeout: Duration
        /// Connections still sending their request beyond this close the oldest of them.
        public var maxConnections: Int
        /// `false` (the default): on Linux another user's connection is answered 403 before
        /// its request is read, as ``LoopbackReceiver/Configuration/allowOtherUsers`` says.
        public var allowOtherUsers: Bool
        /// What the built-in pages (the 410, the 403) say about the app.
        public var pages: LoopbackPages
        /// The user whose connections are answered; nil: this process's effective uid.
        /// Not API: lets a test that cannot switch users see its own connections refused.
        var acceptedUser: UInt32?

        /// A configuration; the defaults serve on 127.0.0.1, a port the system picks, for at
        /// most 10 minutes, to this user only.
        public init(
            host: LoopbackHost = .ipv4, lifetime: Duration = .seconds(600), connectionTimeout: Duration = .seconds(10),
            maxConnections: Int = 64, allowOtherUsers: Bool = false, pages: LoopbackPages = LoopbackPages()
        ) {
            self.host = host
            self.lifetime = lifetime
            self.connectionTimeout = connectionTimeout
            self.maxConnections = maxConnections
            self.allowOtherUsers = allowOtherUsers
            self.pages = pages
        }
    }

    let server: LoopbackServer
    private let ended: Ending

    /// The thread's "served, port closed" signal, which ``close()`` waits for. Its pipe is
    /// made in `init` and only read or written afterwards (closed when this is released).
    private final class Ending: @unchecked Sendable {
        let pipe: (read: Descriptor, write: Descriptor)
        init() throws(SystemError) { pipe = try NonBlockingIO.makeWakeupPipe() }
    }

    /// `http://127.0.0.1:PORT/start/<256 random bits, base64url>`: what to give the browser.
    public var url: String { "http://\(server.authority)\(server.startPath)" }

    /// The port actually bound.
    public var port: Int { server.port }

    /// Whether the link has been followed (its one GET): a caller that started a browser can
    /// tell, after a while, that none came, and say so.
    public var wasUsed: Bool { server.startLink.withLock { $0.used } }

    /// Binds a port on the loopback address and serves the start link for
    /// `authorizationURL` on a thread of its own until ``close()``. `log` gets one line per
    /// request answered, free of secrets (no authorization URL, no start path), on that thread.
    ///
    /// - Throws: ``LoopbackError/invalidConfiguration`` unless `authorizationURL` is an
    ///   absolute `http`/`https` URL and the limits are positive; ``LoopbackError/unavailable``
    ///   when no port, pipe or thread can be had.
    public init(
        authorizationURL: String, _ configuration: Configuration = Configuration(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(LoopbackError) {
        guard LoopbackReceiver.isRedirectTarget(authorizationURL) else {
            throw LoopbackError(.invalidConfiguration, "the authorization URL must be an absolute http or https URL")
        }
        guard configuration.connectionTimeout > .zero, configuration.maxConnections > 0 else {
            throw LoopbackError(.invalidConfiguration, "connectionTimeout and maxConnections must be positive")
        }
        var receiver = LoopbackReceiver.Configuration(
            host: configuration.host, connectionTimeout: LoopbackReceiver.bounded(configuration.connectionTimeout),
            maxConnections: configuration.maxConnections, allowOtherUsers: configuration.allowOtherUsers)
        receiver.pages = configuration.pages
        receiver.acceptedUser = configuration.acceptedUser
        let settings = LoopbackConfiguration(receiver: receiver, servesCallbacks: false)
        let server: LoopbackServer
        do {
            server = try LoopbackServer(configuration: settings)
            ended = try Ending()
        } catch {
            throw LoopbackError(error, address: configuration.host.description, ports: "0")
        }
        server.startLink.withLock { $0.authorizationURL = authorizationURL }
        self.server = server
        let deadline = ContinuousClock.now.advanced(by: LoopbackReceiver.bounded(configuration.lifetime))
        let ended = self.ended
        guard
            DetachedThread.start({
                // Nothing is a callback here: the judge is never asked, and would end nothing.
                _ = server.run(judge: Self.noCallback, until: deadline, log: log)
                NonBlockingIO.signal(ended.pipe.write)
            })
        else {
            server.stopListening()
            throw LoopbackError(.unavailable, "no thread could be started to serve the start link")
        }
    }

    deinit { server.requestStop() }

    /// Stops serving and closes the port; returns once it is closed (a link being followed
    /// at that instant gets no answer). Calling it again does nothing.
    public func close() {
        server.requestStop()
        var entries = [PollEntry(readable: ended.pipe.read.rawValue)]
        Readiness.pollUninterrupted(&entries, until: Deadline.after(milliseconds: 5000))
    }

    static let noCallback: LoopbackJudge = { _ in
        let refusal = CallbackError(.noRoute, "a start link receives no callback")
        return LoopbackJudgement(
            evaluation: LoopbackEvaluation(
                kind: .rejected, result: .failure(refusal), providerError: nil, reason: refusal.reason, carriesExpectedState: false),
            disposition: .ignored)
    }
}
