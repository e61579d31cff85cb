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

/// The receiver's request pipeline without sockets, for the fuzzer (`Fuzz/Sources/fuzz-http`):
/// the head scanner (all at once and one byte at a time), the strict head parser, the
/// form_post body plan and the decision, with invariants that trap when broken. Not API.
@_spi(Fuzzing) public enum LoopbackFuzzing {
    /// The state the fuzzed requests are checked against.
    public static let expectedState = "fuzz-state-0123456789abcdef"

    private static let servers: [LoopbackServer] = {
        var query = LoopbackConfiguration()
        query.maxHeadBytes = 2048
        var form = query
        form.responseMode = .formPost
        form.maxBodyBytes = 512
        var alone = query
        alone.servesCallbacks = false
        // Bound once per process: decide() never touches the socket.
        let servers = [
            try! LoopbackServer(configuration: query), try! LoopbackServer(configuration: form),
            try! LoopbackServer(configuration: alone),
        ]
        for server in servers { server.startLink.withLock { $0.authorizationURL = authorizationURL } }
        return servers
    }()

    /// The authorization URL the start link would reveal: no request that does not name the
    /// start link's random path may see it.
    static let authorizationURL = "https://id.example/authorize?marker=fuzz-authorization-url-0123456789"

    /// Runs `request` (a head, then possibly a body) through the pipeline of the query-mode
    /// or the form_post receiver.
    /// `PORT` in `request` is replaced by the port actually bound, so that `Host:
    /// 127.0.0.1:PORT` can pass the Host check.
    public static func check(request raw: [UInt8], formPost: Bool) {
        checkStartLinkAlone(request: raw)
        let server = servers[formPost ? 1 : 0]
        let bytes = replacingPort(raw, with: Array(String(server.port).utf8))
        let limit = server.configuration.maxHeadBytes

        var whole = HTTPHeadScanner(limit: limit)
        let atOnce = whole.scan(bytes)
        var incremental = HTTPHeadScanner(limit: limit)
        var stepped = HTTPHeadScanner.State.incomplete
        var buffer: [UInt8] = []
        for byte in bytes {
            buffer.append(byte)
            stepped = incremental.scan(buffer)
            if stepped != .incomplete { break }
        }
        precondition(atOnce == stepped, "the head scanner decides differently one byte at a time: \(atOnce) vs \(stepped)")

        guard case .complete(let length) = atOnce else { return }
        precondition(length <= limit && length <= bytes.count)
        guard case .success(let head) = HTTPRequestHead.parse(bytes[..<length]) else { return }
        precondition(!head.method.isEmpty && head.method.utf8.allSatisfy(HTTPRequestHead.isTokenByte))
        precondition(head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        precondition(head.target.hasPrefix("/") || head.target == "*")
        precondition(
            head.fields.allSatisfy { field in
                !field.name.isEmpty && field.name.utf8.allSatisfy { HTTPRequestHead.isTokenByte($0) && !($0 >= 0x41 && $0 <= 0x5A) }
            })

        let validation = try! LoopbackValidation(LoopbackExpectations(state: expectedState), redirectURI: server.redirectURI)
        var body: [UInt8]? = nil
        switch server.bodyPlan(head) {
        case .none:
            break
        case .refuse(let status, _):
            precondition([400, 413, 501].contains(status.code))
            return
        case .read(let count):
            precondition(formPost && count <= server.configuration.maxBodyBytes, "a body over the limit would be read")
            guard bytes.count - length >= count else { return } // the peer would still be sending
            body = Array(bytes[length ..< length + count])
        }
        let decision = server.decide(head, body: body, judge: LoopbackServer.judge(validation))
        let response = decision.response.bytes(server.configuration.pages)
        precondition(response.starts(with: Array("HTTP/1.1 ".utf8)))
        if let verdict = decision.verdict {
            // Only a callback carrying the expected state ends a wait that expects one, and
            // only from the callback path, by the mode's method.
            precondition(verdict.carriesExpectedState, "a callback without the expected state ended the wait")
            precondition(head.path == server.configuration.path)
            precondition(head.method == (formPost ? "POST" : "GET"))
            if formPost {
                precondition(body.map { !$0.contains(UInt8(ascii: "#")) } ?? false)
            }
            if case .success(let outcome) = verdict.result, let code = outcome.value("code"), code.utf8.count >= 8 {
                precondition(!String(decoding: response, as: UTF8.self).contains(code), "the page reflects the code")
            }
        }
        // The authorization URL (its state, challenge, nonce) only behind the start link.
        if head.path != server.startPath {
            precondition(
                !String(decoding: response, as: UTF8.self).contains("fuzz-authorization-url"), "a page revealed the authorization URL")
        }
        // The state never reaches a page.
        precondition(!String(decoding: response, as: UTF8.self).contains(expectedState), "the page reflects the state")
    }

    /// The start link served alone (``LoopbackStartLink``): no request is ever judged as a
    /// callback or ends anything, and none but the start path's sees the authorization URL.
    static func checkStartLinkAlone(request raw: [UInt8]) {
        let server = servers[2]
        let bytes = replacingPort(raw, with: Array(String(server.port).utf8))
        var scanner = HTTPHeadScanner(limit: server.configuration.maxHeadBytes)
        guard case .complete(let length) = scanner.scan(bytes), case .success(let head) = HTTPRequestHead.parse(bytes[..<length])
        else { return }
        precondition(server.bodyPlan(head) == .none, "a start link would read a body")
        let decision = server.decide(head, body: nil) { _ in preconditionFailure("a start link judged a callback") }
        precondition(decision.verdict == nil && !decision.accepted && decision.ignoredReason == nil)
        let response = String(decoding: decision.response.bytes(server.configuration.pages), as: UTF8.self)
        if head.path != server.startPath {
            precondition(!response.contains("fuzz-authorization-url"), "a start link revealed the authorization URL elsewhere")
        }
    }

    static func replacingPort(_ bytes: [UInt8], with port: [UInt8]) -> [UInt8] {
        let marker = Array("PORT".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: marker) {
                out += port
                index += marker.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
