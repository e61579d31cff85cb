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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackRouter
import CallbackSystem
import CallbackTestSupport

/// A small OpenID provider for `login --device` on 127.0.0.1 (real sockets, real curl):
/// its discovery document, its device authorization endpoint (`/device`) answering
/// `deviceAnswer`, and its token endpoint (`/token`) answering `tokenAnswers` in turn (the
/// last one repeats). Every request's body is recorded with the time it arrived. Its
/// authorization endpoint (`/authorize`) signs the browser in at once: a redirect to the
/// request's `redirect_uri` with a code and the state (or `authorizeError` and the state).
final class DeviceProvider: @unchecked Sendable {
    struct Answer: Sendable {
        let status: Int
        let body: String
        /// A redirect's target (status 302).
        var location: String?
    }

    let port: UInt16
    private let listener: Int32
    private let state = Locked(State())
    private var thread: BlockingThread<Void>?

    struct State {
        var stopped = false
        var tokenAnswers: [Answer] = []
        /// What `/authorize` sends back instead of a code (`access_denied`), nil: a code.
        var authorizeError: String?
        var served = 0
        /// Each request: its request line, its body, and when it arrived (monotonic milliseconds).
        var requests: [(line: String, body: String, at: Int64)] = []
    }

    var issuer: String { "http://127.0.0.1:\(port)" }
    var requests: [(line: String, body: String, at: Int64)] { state.withLock { $0.requests } }
    /// The sign-ins the authorization endpoint saw (each a browser sent there).
    var authorizations: Int { requests.filter { $0.line.hasPrefix("GET /authorize?") }.count }
    /// The bodies of the token endpoint's requests (the polls), in order.
    var polls: [(body: String, at: Int64)] { requests.filter { $0.line.hasPrefix("POST /token ") }.map { ($0.body, $0.at) } }

    /// A provider offering the device flow (`withDeviceEndpoint`), or one without it.
    /// `signingAlgorithms` is its discovery document's `id_token_signing_alg_values_supported`.
    init(deviceAnswer: Answer, tokenAnswers: [Answer], withDeviceEndpoint: Bool = true, signingAlgorithms: [String] = ["RS256"]) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw HarnessError("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw HarnessError("bind")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        state.withLock { $0.tokenAnswers = tokenAnswers }
        let issuer = "http://127.0.0.1:\(port)"
        let device = withDeviceEndpoint ? #","device_authorization_endpoint":"\#(issuer)/device""# : ""
        let discovery = Answer(
            status: 200,
            body: #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token""#
                + #","jwks_uri":"\#(issuer)/jwks","code_challenge_methods_supported":["S256"]"#
                + #","response_types_supported":["code"],"subject_types_supported":["public"]"#
                + #","id_token_signing_alg_values_supported":[\#(signingAlgorithms.map { "\"\($0)\"" }.joined(separator: ","))]"#
                + #"\#(device)}"#)
        thread = BlockingThread { [self] in serve(discovery: discovery, device: deviceAnswer) }
    }

    /// What the token endpoint answers from now on, in turn.
    func setTokenAnswers(_ answers: [Answer]) {
        state.withLock { $0.tokenAnswers = answers }
    }

    /// What `/authorize` answers from now on: an error code, or nil for a code.
    func setAuthorizeError(_ error: String?) {
        state.withLock { $0.authorizeError = error }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        _ = thread?.join()
        thread = nil
        close(listener)
    }

    private func serve(discovery: Answer, device: Answer) {
        while !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let (line, body) = Self.readRequest(connection)
            let answer: Answer = state.withLock { state in
                state.requests.append((line, body, SystemClock.monotonicMilliseconds()))
                if line.hasPrefix("GET /.well-known/openid-configuration ") { return discovery }
                if line.hasPrefix("POST /device ") { return device }
                if line.hasPrefix("GET /authorize?") { return Self.signedIn(line, error: state.authorizeError) }
                if line.hasPrefix("POST /token "), !state.tokenAnswers.isEmpty {
                    defer { state.served += 1 }
                    return state.tokenAnswers[min(state.served, state.tokenAnswers.count - 1)]
                }
                return Answer(status: 404, body: #"{"error":"not_found"}"#)
            }
            let reason = answer.status == 200 ? "OK" : answer.status == 302 ? "Found" : "Bad Request"
            let location = answer.location.map { "Location: \($0)\r\n" } ?? ""
            let text =
                "HTTP/1.1 \(answer.status) \(reason)\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n\(location)"
                + "Content-Length: \(answer.body.utf8.count)\r\nConnection: close\r\n\r\n\(answer.body)"
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                var sent = 0
                while sent < raw.count {
                    let n = send(connection, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                    if n <= 0 { break }
                    sent += n
                }
            }
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }

    /// The authorization endpoint's answer to `line` (`GET /authorize?… HTTP/1.1`): back to
    /// its `redirect_uri` with a code and its state, or with `error` and its state.
    private static func signedIn(_ line: String, error: String?) -> Answer {
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        guard let request = try? CallbackURL(parsing: "http://127.0.0.1" + target),
            let redirect = try? request.queryParameters.value(named: "redirect_uri"),
            let state = try? request.queryParameters.value(named: "state")
        else { return Answer(status: 400, body: #"{"error":"invalid_request"}"#) }
        let answer = error.map { "error=\($0)" } ?? "code=CODE-signed-in"
        return Answer(status: 302, body: "", location: "\(redirect)?\(answer)&state=\(state)")
    }

    /// The request line and the body of `Content-Length` bytes.
    private static func readRequest(_ connection: Int32) -> (String, String) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var expected: Int?
        var headLength = 0
        while expected.map({ bytes.count < $0 }) ?? true {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) > 0 else { break }
            let n = recv(connection, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            bytes.append(contentsOf: buffer[0 ..< n])
            if expected == nil, let end = headEnd(bytes) {
                headLength = end + 4
                let head = String(decoding: bytes[0 ..< end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").compactMap { line -> Int? in
                        let parts = line.split(separator: ":", maxSplits: 1)
                        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                        return Int(parts[1].trimmingPrefix(" "))
                    }.first ?? 0
                expected = headLength + length
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let line = text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        return (line, headLength > 0 ? String(decoding: bytes[headLength...], as: UTF8.self) : "")
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0 ... bytes.count - 4 where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
