import CallbackRouter
import CallbackSystem

/// How the receiver listens and how long it waits.
struct LoopbackConfiguration: Sendable {
    var address: LoopbackAddress = .ipv4
    /// 0: a port the kernel picks (the default; RFC 8252 §7.3).
    var port: Int = 0
    /// The callback path, starting with `/`.
    var path: String = "/callback"
    /// How long to wait for a callback that ends the wait.
    var timeout: Duration = .seconds(300)
    /// How long one connection may take to send its request head and take the answer.
    var connectionTimeout: Duration = .seconds(10)
    /// How long to wait for the browser to close after the last answer, before exiting.
    var lingerTimeout: Duration = .seconds(1)
    /// The largest request head (request line and fields) accepted.
    var maxHeadBytes = 16 * 1024
    /// Connections still sending their request beyond this close the oldest of them (never
    /// the newest). Answered connections (lingering until the peer closes) do not count:
    /// they have their own bound, ``maxAnsweredConnections``.
    var maxConnections = 64
    /// Answered connections beyond this (a peer that keeps every answered socket open)
    /// close the oldest answered one.
    var maxAnsweredConnections: Int { maxConnections * 4 }
    /// `false` (the default): on Linux, a connection from a process of another user is
    /// answered 403 before its request is read. `true`: the check is off.
    var allowOtherUsers = false
    /// The uid whose connections are answered; nil: ours (`geteuid()`). Tests set another.
    var acceptedUser: UInt32?
    /// Where the browser goes (303) after an accepted callback, instead of the built-in page.
    var successURL: String?
    /// Where the browser goes (303) after a provider error or a refused callback of this login.
    var failureURL: String?
    /// `false`: the callback is a GET with a query. `true` (OIDC Form Post Response Mode):
    /// a POST with an `application/x-www-form-urlencoded` body; a GET does not end the wait.
    var formPost = false
    /// The largest form_post body accepted; larger is 413, never a partial parse.
    var maxBodyBytes = 16 * 1024
    /// A descriptor (the terminal) from which pasted callback URLs are read, one per line,
    /// and judged exactly as a request's; nil: none.
    var pasteDescriptor: Int32?
}

/// How the wait ended.
enum LoopbackResult: Sendable {
    /// A callback ended the wait (success, provider failure, or a refused answer that
    /// carried the expected state).
    case finished(LoopbackEvaluation)
    /// The deadline passed; `ignored` requests reached the callback path without ending it.
    case timedOut(ignored: Int)
    /// ``LoopbackServer/requestStop()`` ended the wait (task cancellation, or the router
    /// delivered the callback to its waiter).
    case stopped(ignored: Int)
}

/// What the receiver makes of one callback request.
struct LoopbackJudgement: Sendable {
    enum Disposition: Sendable, Equatable {
        /// This callback ends the wait: it is the result.
        case endsWait
        /// Accepted and answered with its page, but the wait is ended by someone else (the
        /// router's waiter), through ``LoopbackServer/requestStop()``.
        case accepted
        /// Not this login's: answered, and the wait goes on.
        case ignored
    }

    var evaluation: LoopbackEvaluation
    var disposition: Disposition
}

/// Decides what one callback URL means; called on the server's thread.
typealias LoopbackJudge = @Sendable (_ callbackURL: String) -> LoopbackJudgement

/// The RFC 8252 §7.3 receiver: one listening socket on a loopback address and a
/// single-threaded `poll` loop that serves every connection at once.
///
/// Concurrency without threads: each connection is a non-blocking descriptor with its
/// own buffer and deadline, so a preconnected socket that never speaks, a peer that
/// trickles one byte a second, or junk cannot delay the browser's real request.
///
/// `@unchecked Sendable`: ``run(judge:until:log:)`` owns the mutable state and runs on one
/// thread at a time (a second concurrent run is refused); from other threads only
/// ``requestStop()`` is called, which writes one byte to a pipe the loop polls.
final class LoopbackServer: @unchecked Sendable {
    let configuration: LoopbackConfiguration
    /// The port actually bound.
    let port: Int
    /// The listening sockets: one, or two for `localhost` (127.0.0.1 and ::1, one port).
    private var listeners: [Int32]
    /// The self-pipe that wakes the loop for ``requestStop()``: [read end, write end].
    private let wakeup: (read: Int32, write: Int32)
    private let running = Locked(false)
    /// The one-time start link: `/start/<256 random bits, base64url>`.
    let startPath = "/start/" + AttemptSecrets.randomToken()
    /// The authorization URL the start link reveals, once known, and whether it has.
    let startLink = Locked(StartLink())

    struct StartLink {
        var authorizationURL: String?
        var used = false
    }

    /// `http://127.0.0.1:PORT/path`: the IP literal actually bound, the port actually bound.
    var redirectURI: String { "http://\(authority)\(configuration.path)" }

    /// What a browser following ``redirectURI`` sends as `Host`.
    var authority: String { "\(configuration.address.uriHost):\(port)" }

    init(configuration: LoopbackConfiguration) throws(SystemError) {
        self.configuration = configuration
        let (fds, port) = try Self.bind(configuration)
        guard let wakeup = NonBlockingIO.makeWakeupPipe() else {
            let failure = SystemError("pipe")
            for fd in fds { close(fd) }
            throw failure
        }
        self.listeners = fds
        self.port = port
        self.wakeup = wakeup
    }

    /// Binds the literal, or for `localhost` 127.0.0.1 and then ::1 on the same port (a
    /// kernel-picked port taken on ::1 is tried again with another, a few times). A system
    /// without IPv6 (`EADDRNOTAVAIL`, `EAFNOSUPPORT`) gets 127.0.0.1 alone.
    private static func bind(_ configuration: LoopbackConfiguration) throws(SystemError) -> ([Int32], Int) {
        guard configuration.address == .localhost else {
            let (fd, port) = try LoopbackTCP.listen(ipv6: configuration.address == .ipv6, port: configuration.port)
            return ([fd], port)
        }
        var lastFailure = SystemError("bind", code: EADDRINUSE)
        for _ in 0 ..< (configuration.port == 0 ? 8 : 1) {
            let (v4, port) = try LoopbackTCP.listen(ipv6: false, port: configuration.port)
            do {
                let (v6, _) = try LoopbackTCP.listen(ipv6: true, port: port)
                return ([v4, v6], port)
            } catch {
                if error.code == EADDRNOTAVAIL || error.code == EAFNOSUPPORT { return ([v4], port) }
                close(v4)
                lastFailure = error
                guard error.code == EADDRINUSE else { throw error }
            }
        }
        throw lastFailure
    }

    deinit {
        for listener in listeners { close(listener) }
        close(wakeup.read)
        close(wakeup.write)
    }

    /// Ends a wait in progress from any thread: the listening socket is closed at once, a
    /// page being sent is finished (within the linger timeout), and ``run(judge:until:log:)``
    /// returns ``LoopbackResult/stopped(ignored:)`` unless a callback already ended it. A
    /// stop requested before the run starts ends it as soon as it starts.
    func requestStop() {
        NonBlockingIO.signal(wakeup.write)
    }

    private func stopListening() {
        for listener in listeners { close(listener) }
        listeners = []
    }

    // MARK: - Deciding what to answer

    /// What the receiver does with one complete request head.
    struct Decision {
        var response: LoopbackResponse
        /// Set when this request ends the wait.
        var verdict: LoopbackEvaluation?
        /// Set when the request reached validation and was not accepted.
        var ignoredReason: String?
        /// One line for stderr, free of secrets (no query, no foreign path).
        var log: String?
        /// Accepted without ending the wait here (the router's waiter ends it): the page
        /// must still be sent in full before a stop closes the connection.
        var accepted = false
    }

    func decide(_ head: HTTPRequestHead, validation: LoopbackValidation) -> Decision {
        decide(head, body: nil, judge: Self.judge(validation))
    }

    /// The judge of a wait with the receiver's own validation (no router).
    static func judge(_ validation: LoopbackValidation) -> LoopbackJudge {
        { url in
            let evaluation = validation.evaluate(callbackURL: url)
            return LoopbackJudgement(evaluation: evaluation, disposition: validation.endsWait(evaluation) ? .endsWait : .ignored)
        }
    }

    func decide(_ head: HTTPRequestHead, body: [UInt8]? = nil, judge: LoopbackJudge) -> Decision {
        // Host first: a page on another origin that reaches us through DNS rebinding
        // learns nothing, not even which paths exist.
        let hosts = head.values(of: "host")
        guard hosts.count == 1 else {
            return Decision(
                response: .refusal(.badRequest, "A request needs exactly one Host header."),
                log: "answered 400 to a request with \(hosts.count) Host headers")
        }
        guard isExpectedHost(hosts[0]) else {
            return Decision(
                response: .refusal(.forbidden, "This server answers only requests addressed to \(authority)."),
                log: "answered 403 to a request addressed to another host (DNS rebinding defence)")
        }
        // A cross-site subresource (img, fetch, script…) carries Sec-Fetch-Mode other than
        // navigate; only a top-level or frame navigation is a redirect from the provider.
        let modes = head.values(of: "sec-fetch-mode")
        if modes.count > 1 || (modes.count == 1 && modes[0].lowercased() != "navigate") {
            return Decision(
                response: .refusal(.forbidden, "Only a browser navigation is accepted here."),
                log: "answered 403 to a non-navigation request (Sec-Fetch-Mode)")
        }
        if body == nil, !head.values(of: "transfer-encoding").isEmpty {
            return Decision(
                response: .refusal(.notImplemented, "Request bodies are not accepted."),
                log: "answered 501 to a request with Transfer-Encoding")
        }
        let lengths = head.values(of: "content-length")
        if body == nil, lengths.contains(where: { $0 != "0" }) {
            return Decision(
                response: .refusal(.contentTooLarge, "Request bodies are not accepted."),
                log: "answered 413 to a request with a body")
        }
        if head.target == "*" {
            guard head.method == "OPTIONS" else {
                return Decision(response: .refusal(.badRequest, "Bad request."), log: "answered 400 to a '*' target")
            }
            return Decision(response: LoopbackResponse(status: .noContent, page: nil, allow: "GET, HEAD, OPTIONS"))
        }
        if head.path.utf8.count == startPath.utf8.count, constantTimeEquals(String(head.path), startPath) {
            return decideStart(head)
        }
        guard head.path == configuration.path else {
            return Decision(response: .refusal(.notFound, "Not found."), log: "answered 404 to a request for another path")
        }
        let allowed = configuration.formPost ? "POST, HEAD, OPTIONS" : "GET, HEAD, OPTIONS"
        let callbackMethod = configuration.formPost ? "POST" : "GET"
        switch head.method {
        case callbackMethod:
            break
        case "HEAD":
            // Link scanners and prefetchers probe with HEAD: never a callback.
            return Decision(
                response: LoopbackResponse(status: .ok, page: .waiting, omitBody: true),
                log: "answered HEAD on the callback path without consuming the login")
        case "OPTIONS":
            return Decision(
                response: LoopbackResponse(status: .noContent, page: nil, allow: allowed),
                log: "answered OPTIONS on the callback path without consuming the login")
        case "GET":
            // form_post: a GET (a prefetch, a stale link, a query-mode answer) never ends the wait.
            return Decision(
                response: .refusal(.methodNotAllowed, "This sign-in expects the provider's form (POST).", allow: allowed),
                ignoredReason: "get_in_form_post",
                log: "answered 405 to a GET on the callback path: this login expects a form_post; still waiting")
        default:
            return Decision(
                response: .refusal(.methodNotAllowed, "Only \(callbackMethod) is accepted here.", allow: allowed),
                log: "answered 405 to a method other than \(callbackMethod), HEAD or OPTIONS on the callback path")
        }

        var callbackURL = "http://\(authority)\(head.target)"
        if configuration.formPost {
            guard head.target == configuration.path else {
                return Decision(
                    response: .refusal(.badRequest, "The form must be posted to the callback path without a query."),
                    log: "answered 400 to a form_post whose target carries a query")
            }
            let types = head.values(of: "content-type")
            guard types.count == 1, Self.isFormURLEncoded(types[0]) else {
                return Decision(
                    response: .refusal(.unsupportedMediaType, "The form must be application/x-www-form-urlencoded."),
                    log: "answered 415 to a form_post that is not application/x-www-form-urlencoded")
            }
            let bytes = body ?? []
            // The body becomes the query of the same URL, read by the same parser with the
            // same limits. A '#' would make the rest a fragment the parser sets aside: refuse
            // it rather than read half of the form.
            guard !bytes.contains(UInt8(ascii: "#")) else {
                return Decision(
                    response: .refusal(.badRequest, "The form is malformed."),
                    log: "answered 400 to a form_post body with a raw '#'")
            }
            callbackURL += "?" + String(decoding: bytes, as: UTF8.self)
        }

        let judgement = judge(callbackURL)
        let evaluation = judgement.evaluation
        if judgement.disposition != .ignored {
            let ends = judgement.disposition == .endsWait
            var decision: Decision
            switch evaluation.kind {
            case .success:
                let loggedOut = (try? evaluation.result.get())?.kind == .logoutComplete
                decision = Decision(
                    response: configuration.successURL.map { .redirect(.seeOther, to: $0) }
                        ?? LoopbackResponse(status: .ok, page: loggedOut ? .signedOut : .success))
            case .providerFailure:
                let code = LoopbackPage.displayableErrorCode(evaluation.providerError)
                decision = Decision(
                    response: configuration.failureURL.map { .redirect(.seeOther, to: $0) }
                        ?? LoopbackResponse(status: .ok, page: .providerError(code: code)))
            case .rejected:
                decision = Decision(
                    response: configuration.failureURL.map { .redirect(.seeOther, to: $0) }
                        ?? LoopbackResponse(status: .badRequest, page: .rejected),
                    log: "refused the callback for this login: \(reasonOf(evaluation))")
            }
            if ends { decision.verdict = evaluation } else { decision.accepted = true }
            return decision
        }
        let reason = reasonOf(evaluation)
        return Decision(
            response: LoopbackResponse(status: .badRequest, page: .ignored), ignoredReason: reason,
            log: "ignored a callback that does not belong to this login (\(reason)); still waiting")
    }

    /// The short start URL: a terminal that wraps or cuts a long authorization URL still
    /// gets the user there. Its path is a secret of the one who started the login, and it
    /// reveals the authorization URL (its state, challenge and nonce) once: anyone else who
    /// follows it later learns nothing, and the user sees that someone did.
    private func decideStart(_ head: HTTPRequestHead) -> Decision {
        switch head.method {
        case "GET":
            let (destination, wasUsed) = startLink.withLock { link -> (String?, Bool) in
                guard let url = link.authorizationURL, !link.used else { return (nil, link.used) }
                link.used = true
                return (url, false)
            }
            if let destination {
                return Decision(
                    response: .redirect(.found, to: destination), log: "redirected the start URL to the authorization URL (once)")
            }
            if wasUsed {
                return Decision(
                    response: .refusal(
                        .gone,
                        "This sign-in link was already used. If that was not you, stop the sign-in in the application and start it again."),
                    log: "answered 410 to the start URL: it was already used")
            }
            return Decision(
                response: .refusal(.notFound, "The sign-in is not ready yet."),
                log: "answered 404 to the start URL: no authorization URL is known yet")
        case "HEAD":
            // Link scanners and prefetchers probe with HEAD: it neither reveals nor uses the link.
            return Decision(
                response: LoopbackResponse(status: .ok, page: .waiting, omitBody: true),
                log: "answered HEAD on the start URL without revealing or using it")
        default:
            return Decision(
                response: .refusal(.methodNotAllowed, "Only GET is accepted here.", allow: "GET, HEAD"),
                log: "answered 405 to a method other than GET or HEAD on the start URL")
        }
    }

    private func reasonOf(_ evaluation: LoopbackEvaluation) -> String {
        evaluation.reason?.rawValue ?? "accepted"
    }

    /// The exact authority of the redirect URI. `localhost` and other spellings of the
    /// address are refused: a browser following our redirect URI sends the literal.
    func isExpectedHost(_ value: String) -> Bool {
        let host = configuration.address.uriHost
        return value == authority || (port == 80 && value == host)
    }

    // MARK: - The loop

    private enum Phase {
        case reading(HTTPHeadScanner)
        /// A form_post callback's body: the head was `buffer[..<headLength]`, the body is
        /// the `bodyLength` bytes after it.
        case readingBody(HTTPRequestHead, headLength: Int, bodyLength: Int)
        case writing([UInt8], sent: Int)
        case draining
    }

    private struct Connection {
        let fd: Int32
        var buffer: [UInt8] = []
        var phase: Phase
        var deadline: ContinuousClock.Instant
        let serial: Int
        var isFinal = false

        var isReading: Bool {
            switch phase {
            case .reading, .readingBody: return true
            default: return false
            }
        }

        /// Its answer is being sent or was sent: it only lingers until the peer closes.
        var isAnswered: Bool { !isReading }
    }

    /// Serves until a callback ends the wait or the timeout passes. `log` gets one line per
    /// request that did not end the wait.
    /// `deadline` defaults to ``LoopbackConfiguration/timeout`` from now.
    func run(
        validation: LoopbackValidation, until deadline: ContinuousClock.Instant? = nil,
        log: (String) -> Void = { _ in }
    ) -> LoopbackResult {
        run(judge: Self.judge(validation), until: deadline, log: log)
    }

    /// Serves until a judgement ends the wait, ``requestStop()`` is called, or the deadline
    /// passes. A server serves one wait: a second run (or one while another is running)
    /// finds the listening socket closed and returns `.stopped` at once.
    func run(
        judge: LoopbackJudge, until deadline: ContinuousClock.Instant? = nil,
        log: (String) -> Void = { _ in }
    ) -> LoopbackResult {
        guard
            running.withLock({ running in
                if running { return false }
                running = true
                return true
            }), !listeners.isEmpty
        else { return .stopped(ignored: 0) }
        let clock = ContinuousClock()
        let deadline = deadline ?? clock.now.advanced(by: configuration.timeout)
        var connections: [Connection] = []
        var serial = 0
        var verdict: LoopbackEvaluation?
        var stopped = false
        var finishBy: ContinuousClock.Instant?
        var ignored = 0
        var paste = configuration.pasteDescriptor
        var pasteBuffer: [UInt8] = []
        var discardingLongLine = false
        defer {
            for connection in connections { close(connection.fd) }
            stopListening()
        }

        while true {
            var now = clock.now
            connections.removeAll { connection in
                guard now >= connection.deadline else { return false }
                close(connection.fd)
                return true
            }
            if verdict != nil || stopped {
                let finalPending = connections.contains { $0.isFinal }
                if !finalPending || now >= (finishBy ?? now) {
                    if let verdict { return .finished(verdict) }
                    return .stopped(ignored: ignored)
                }
            } else if now >= deadline {
                return .timedOut(ignored: ignored)
            }

            // The wake-up pipe first, then the listener while it is open, then the connections.
            var fds: [pollfd] = [pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
            for listener in listeners { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            let pasteIndex = fds.count
            let pasting = verdict == nil && !stopped ? paste : nil
            if let pasting { fds.append(pollfd(fd: pasting, events: Int16(POLLIN), revents: 0)) }
            var wake = (verdict == nil && !stopped) ? deadline : (finishBy ?? deadline)
            for connection in connections {
                let events: Int16
                switch connection.phase {
                case .reading, .readingBody, .draining: events = Int16(POLLIN)
                case .writing: events = Int16(POLLOUT)
                }
                fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
                wake = min(wake, connection.deadline)
            }
            let ready = poll(&fds, nfds_t(fds.count), Self.milliseconds(until: wake, now: now))
            if ready < 0 {
                if errno == EINTR { continue }
                // Nothing sensible is left to wait on; let the deadline decide.
                usleep(10_000)
                continue
            }
            if ready == 0 { continue }
            now = clock.now

            if fds[0].revents != 0, !stopped {
                stopped = true
                if finishBy == nil { finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1)) }
                stopListening()
                // Only the pages already promised (accepted callbacks) are still finished.
                connections.removeAll { connection in
                    if connection.isFinal { return false }
                    close(connection.fd)
                    return true
                }
                continue
            }
            // The descriptors after the pipe's and the listener's are the connections, in
            // order, as they were before this round's accepts.
            let listening = listeners
            let firstConnection = 1 + listening.count + (pasting == nil ? 0 : 1)
            if let pasting, fds[pasteIndex].revents != 0 {
                let limit = configuration.maxHeadBytes
                switch NonBlockingIO.readAvailable(pasting, into: &pasteBuffer, limit: 4096) {
                case .closed:
                    paste = nil
                    log("the terminal closed: pasted URLs are no longer read")
                case .wouldBlock:
                    break
                case .transferred:
                    while let newline = pasteBuffer.firstIndex(of: 0x0A) {
                        var line = Array(pasteBuffer[..<newline])
                        pasteBuffer.removeSubrange(...newline)
                        if discardingLongLine {
                            discardingLongLine = false
                            continue
                        }
                        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
                        while let first = line.first, first == 0x20 || first == 0x09 { line.removeFirst() }
                        guard !line.isEmpty else { continue }
                        let text = String(decoding: line, as: UTF8.self)
                        // Like a request for another path (404), a URL of another place is
                        // not a callback of this receiver: it is ignored, never final.
                        guard isOwnCallbackURL(text) else {
                            ignored += 1
                            log(
                                "the pasted line is not a URL of this receiver (\(redirectURI)); paste the whole URL from the browser's address bar"
                            )
                            continue
                        }
                        let judgement = judge(text)
                        switch judgement.disposition {
                        case .endsWait:
                            verdict = judgement.evaluation
                            log("the pasted URL ended the wait")
                        case .accepted:
                            log("the pasted URL was accepted")
                        case .ignored:
                            ignored += 1
                            log(
                                "the pasted line is not this login's callback (\(judgement.evaluation.reason?.rawValue ?? "not accepted")); paste the whole URL from the browser's address bar"
                            )
                        }
                        if verdict != nil { break }
                    }
                    if pasteBuffer.count > limit {
                        pasteBuffer.removeAll()
                        discardingLongLine = true
                        log("a pasted line is longer than \(limit) bytes: ignored")
                    }
                }
                if verdict != nil {
                    if finishBy == nil { finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1)) }
                    stopListening()
                    continue
                }
            }
            // Connections that are ready are read first: a browser's request already sent
            // is served before a flood of new connections can push it out.
            let events = fds[firstConnection...].map(\.revents)
            var closed: [Int] = []
            for i in connections.indices where events[i] != 0 {
                if service(&connections[i], now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log) {
                    closed.append(i)
                }
                if verdict != nil && finishBy == nil {
                    finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1))
                    // The login is consumed: later requests find nobody listening.
                    stopListening()
                }
            }
            for i in closed.reversed() {
                close(connections[i].fd)
                connections.remove(at: i)
            }
            var tables: LoopbackPeerOwner.Tables?
            for (offset, listener) in listening.enumerated() where fds[1 + offset].revents != 0 {
                for _ in 0 ..< configuration.maxConnections {
                    // A callback served above (or just now) closed the listeners.
                    guard !listeners.isEmpty, case .connection(let fd) = LoopbackTCP.accept(listener) else { break }
                    serial += 1
                    var connection = Connection(
                        fd: fd, phase: .reading(HTTPHeadScanner(limit: configuration.maxHeadBytes)),
                        deadline: now.advanced(by: configuration.connectionTimeout), serial: serial)
                    if let refusal = otherUserRefusal(fd, tables: &tables) {
                        // Answered before a byte of its request is read; it never reaches the
                        // judge, so it can neither end nor disturb the wait.
                        log(refusal.log)
                        startWriting(&connection, refusal.response)
                    }
                    // A new connection is worth a read attempt now: browsers send at once.
                    if service(&connection, now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log) {
                        close(connection.fd)
                    } else {
                        connections.append(connection)
                    }
                    if verdict != nil && finishBy == nil {
                        finishBy = now.advanced(by: configuration.lingerTimeout + .seconds(1))
                        stopListening()
                    }
                    enforceLimits(on: &connections, newest: serial)
                }
            }
        }
    }

    /// Keeps at most ``LoopbackConfiguration/maxConnections`` connections that are still
    /// sending their request, and ``LoopbackConfiguration/maxAnsweredConnections`` answered
    /// ones, by closing the oldest of each kind: never the newest connection (it may be the
    /// browser's), never one whose page is a promise (an accepted callback).
    private func enforceLimits(on connections: inout [Connection], newest: Int) {
        for answered in [false, true] {
            let limit = answered ? configuration.maxAnsweredConnections : configuration.maxConnections
            var count = connections.reduce(0) { $0 + ($1.isAnswered == answered ? 1 : 0) }
            while count > limit {
                guard
                    let oldest = connections.indices.filter({
                        connections[$0].isAnswered == answered && !connections[$0].isFinal && connections[$0].serial != newest
                    }).min(by: { connections[$0].serial < connections[$1].serial })
                else { break }
                close(connections[oldest].fd)
                connections.remove(at: oldest)
                count -= 1
            }
        }
    }

    /// On Linux, unless ``LoopbackConfiguration/allowOtherUsers``: the 403 for a connection
    /// whose socket belongs to another user than ours, or whose owner cannot be found (fail
    /// closed). The kernel's tables are read once per batch of accepts, again on a miss (a
    /// connection newer than the copy).
    private func otherUserRefusal(_ fd: Int32, tables: inout LoopbackPeerOwner.Tables?) -> (response: LoopbackResponse, log: String)? {
        #if os(Linux)
        guard !configuration.allowOtherUsers else { return nil }
        var owner: UInt32?
        if let (peer, local) = LoopbackPeerOwner.endpoints(of: fd) {
            if tables != nil { owner = tables?.owner(of: peer, connectedTo: local) }
            if owner == nil {
                var fresh = LoopbackPeerOwner.Tables()
                owner = fresh.owner(of: peer, connectedTo: local)
                tables = fresh
            }
        }
        let me = configuration.acceptedUser ?? geteuid()
        if owner == me { return nil }
        let who = owner.map { "user id \($0)" } ?? "a process whose user could not be determined"
        return (
            .refusal(
                .forbidden,
                "This sign-in receiver answers only the user who started it. This connection comes from another user of this computer (or one that could not be identified), so it was refused before its request was read. If your browser runs as another user on purpose, start the sign-in with the option that allows other users."
            ),
            "answered 403 to a connection from \(who), not this user (\(me)), before reading its request; still waiting"
        )
        #else
        return nil
        #endif
    }

    /// Moves one connection forward. Returns true when it is finished and must be closed.
    private func service(
        _ connection: inout Connection, now: ContinuousClock.Instant, judge: LoopbackJudge,
        verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> Bool {
        switch connection.phase {
        case .readingBody(let head, let headLength, let bodyLength):
            let room = headLength + bodyLength - connection.buffer.count
            if room > 0 {
                switch NonBlockingIO.read(connection.fd, into: &connection.buffer, limit: min(room, 4096)) {
                case .closed: return true
                case .wouldBlock: return false
                case .transferred: break
                }
            }
            guard connection.buffer.count >= headLength + bodyLength else { return false }
            let body = Array(connection.buffer[headLength ..< headLength + bodyLength])
            startWriting(
                &connection,
                respond(
                    to: head, body: body, connection: &connection, judge: judge, verdict: &verdict,
                    ignored: &ignored, log: log))
            return serviceWrite(&connection, now: now)
        case .reading(var scanner):
            let room = configuration.maxHeadBytes + 1 - connection.buffer.count
            switch NonBlockingIO.read(connection.fd, into: &connection.buffer, limit: min(room, 4096)) {
            case .closed: return true
            case .wouldBlock: return false
            case .transferred: break
            }
            let state = scanner.scan(connection.buffer)
            connection.phase = .reading(scanner)
            switch state {
            case .incomplete:
                return false
            case .refused(let status):
                log("answered \(status.code) to a malformed or oversized request")
                startWriting(&connection, LoopbackResponse.refusal(status, status.reason + "."))
            case .complete(let length):
                let response: LoopbackResponse
                switch HTTPRequestHead.parse(connection.buffer[..<length]) {
                case .failure(let status):
                    log("answered \(status.code) to a malformed request")
                    response = .refusal(status, status.reason + ".")
                case .success where verdict != nil:
                    // Two callbacks in one round: only the first one ends the wait, and
                    // the page must not tell the second one it succeeded.
                    log("answered 410 to a request that arrived after the wait ended")
                    response = .refusal(.gone, "This sign-in has already finished.")
                case .success(let head):
                    switch bodyPlan(head) {
                    case .none:
                        response = respond(
                            to: head, body: nil, connection: &connection, judge: judge, verdict: &verdict,
                            ignored: &ignored, log: log)
                    case .refuse(let status, let line):
                        log(line)
                        response = .refusal(
                            status, status == .contentTooLarge ? "The form is larger than this receiver accepts." : status.reason + ".")
                    case .read(let bodyLength):
                        connection.phase = .readingBody(head, headLength: length, bodyLength: bodyLength)
                        // The body may be in the buffer already.
                        return service(&connection, now: now, judge: judge, verdict: &verdict, ignored: &ignored, log: log)
                    }
                }
                startWriting(&connection, response)
            }
            return serviceWrite(&connection, now: now)
        case .writing:
            return serviceWrite(&connection, now: now)
        case .draining:
            var discard: [UInt8] = []
            while true {
                discard.removeAll(keepingCapacity: true)
                switch NonBlockingIO.read(connection.fd, into: &discard, limit: 4096) {
                case .closed: return true
                case .wouldBlock: return false
                case .transferred: continue
                }
            }
        }
    }

    private func respond(
        to head: HTTPRequestHead, body: [UInt8]?, connection: inout Connection, judge: LoopbackJudge,
        verdict: inout LoopbackEvaluation?, ignored: inout Int, log: (String) -> Void
    ) -> LoopbackResponse {
        if verdict != nil {
            log("answered 410 to a request that arrived after the wait ended")
            return .refusal(.gone, "This sign-in has already finished.")
        }
        let decision = decide(head, body: body, judge: judge)
        if verdict == nil, let ending = decision.verdict {
            verdict = ending
            connection.isFinal = true
        }
        if decision.accepted { connection.isFinal = true }
        if decision.ignoredReason != nil { ignored += 1 }
        if let line = decision.log { log(line) }
        return decision.response
    }

    /// A pasted URL addressed to this receiver: `http`, its host and port, its path.
    func isOwnCallbackURL(_ text: String) -> Bool {
        guard let url = try? CallbackURL(parsing: text), url.scheme == "http", let host = url.host,
            host.text.lowercased() == configuration.address.uriHost, url.port == port
        else { return false }
        return url.path == configuration.path
    }

    /// `application/x-www-form-urlencoded`, optionally with parameters (`; charset=UTF-8`).
    static func isFormURLEncoded(_ value: String) -> Bool {
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = type.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        return String(trimmed).lowercased() == "application/x-www-form-urlencoded"
    }

    enum BodyPlan: Equatable {
        case none
        case read(Int)
        case refuse(HTTPStatus, String)
    }

    /// Whether a request's body is read: only a form_post callback's, and only within the
    /// limit (413 above it, before a byte of it is read: never a partial parse).
    func bodyPlan(_ head: HTTPRequestHead) -> BodyPlan {
        guard configuration.formPost, head.method == "POST", head.path == configuration.path else { return .none }
        if !head.values(of: "transfer-encoding").isEmpty {
            return .refuse(.notImplemented, "answered 501 to a form_post with Transfer-Encoding (a length is required)")
        }
        let lengths = head.values(of: "content-length")
        guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.utf8.count <= 9,
            text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text)
        else {
            return .refuse(.badRequest, "answered 400 to a form_post without one valid Content-Length")
        }
        guard length <= configuration.maxBodyBytes else {
            return .refuse(.contentTooLarge, "answered 413 to a form_post body of \(length) bytes (limit \(configuration.maxBodyBytes))")
        }
        return .read(length)
    }

    private func startWriting(_ connection: inout Connection, _ response: LoopbackResponse) {
        connection.buffer = []
        connection.phase = .writing(response.bytes, sent: 0)
    }

    private func serviceWrite(_ connection: inout Connection, now: ContinuousClock.Instant) -> Bool {
        guard case .writing(let bytes, var sent) = connection.phase else { return false }
        while sent < bytes.count {
            switch NonBlockingIO.write(connection.fd, bytes, from: sent) {
            case .closed: return true
            case .wouldBlock:
                connection.phase = .writing(bytes, sent: sent)
                return false
            case .transferred(let count): sent += count
            }
        }
        // Half-close and read until the peer closes: closing with unread bytes would send
        // a reset that can destroy the answer before the browser reads it.
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.phase = .draining
        connection.deadline = min(connection.deadline, now.advanced(by: configuration.lingerTimeout))
        return false
    }

    /// Milliseconds from `now` to `instant`, rounded up, for `poll`.
    static func milliseconds(until instant: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int32 {
        guard instant > now else { return 0 }
        let (seconds, attoseconds) = now.duration(to: instant).components
        // A deadline years away (a caller's "forever") must not overflow: poll again later.
        guard seconds < Int64(Int32.max / 1000) else { return Int32.max }
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}
