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

@testable import CallbackLoopback
import CallbackRouter
import CallbackSystem
import CallbackTestSupport
import Testing

/// OIDC Form Post Response Mode: the callback is a POSTed form, read by the same parser.
@Suite struct LoopbackFormPostTests {
    static let state = "st-formpost-0123456789abcdef"

    static func post(
        port: Int, body: String, contentType: String = "application/x-www-form-urlencoded",
        length: String? = nil, extra: String = ""
    ) -> String {
        "POST /callback HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(length ?? String(body.utf8.count))\r\n\(extra)\r\n" + body
    }

    static func formPostReceiver(maxBodyBytes: Int = 16 * 1024) throws -> LoopbackReceiver {
        try LoopbackReceiver(.init(responseMode: .formPost, maxBodyBytes: maxBodyBytes))
    }

    @Test func aPostedFormIsTheCallback() async throws {
        let receiver = try Self.formPostReceiver()
        let client = try RawClient(port: receiver.port)
        client.send(Self.post(port: receiver.port, body: "code=c%2B1&state=\(Self.state)&iss=https%3A%2F%2Fid.example"))
        let outcome = try await receiver.callback(expecting: .init(dialect: .oauth2, state: Self.state), timeout: .seconds(20))
        #expect(outcome.value("code") == "c+1")
        #expect(outcome.value("iss") == "https://id.example")
        #expect(client.readAll().statusCode == 200)
    }

    @Test func aBodyThatArrivesLaterIsWaitedFor() async throws {
        let receiver = try Self.formPostReceiver()
        let body = "code=late&state=\(Self.state)"
        let client = try RawClient(port: receiver.port)
        client.send(
            "POST /callback HTTP/1.1\r\nHost: 127.0.0.1:\(receiver.port)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\ncode="
        )
        let sender = Handover(client)
        _ = DetachedThread.start { sender.value.send(String(body.dropFirst(5))) }
        let outcome = try await receiver.callback(expecting: .init(state: Self.state), timeout: .seconds(20))
        #expect(outcome.value("code") == "late")
    }

    @Test func aGetNeverEndsAFormPostWait() throws {
        let receiver = try Self.formPostReceiver()
        let get = try sendRequest(port: receiver.port, "/callback?code=c&state=\(Self.state)")
        let result = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(400)))
        guard case .timedOut(let ignored) = result else { Issue.record("a GET ended the wait: \(result)"); return }
        #expect(ignored == 1)
        let response = get.readAll()
        #expect(response.statusCode == 405)
        #expect(response.text.contains("Allow: POST, HEAD, OPTIONS"))
    }

    @Test func aBodyOverTheLimitIs413AndNeverParsed() throws {
        let receiver = try Self.formPostReceiver(maxBodyBytes: 64)
        let body = "code=c&state=\(Self.state)&pad=" + String(repeating: "x", count: 64)
        let client = try RawClient(port: receiver.port)
        client.send(Self.post(port: receiver.port, body: body))
        let result = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(400)))
        guard case .timedOut = result else { Issue.record("an oversized form was parsed: \(result)"); return }
        #expect(client.readAll().statusCode == 413)
    }

    @Test(arguments: [
        ("text/plain", "code=c&state=\(state)", nil as String?, "", 415),
        ("application/x-www-form-urlencoded", "code=c&state=\(state)#x", nil, "", 400),
        ("application/x-www-form-urlencoded", "code=c&state=\(state)", "abc", "", 400),
        ("application/x-www-form-urlencoded", "code=c&state=\(state)", nil, "Transfer-Encoding: chunked\r\n", 501),
        ("application/x-www-form-urlencoded", "code=c&state=\(state)", "99999999999", "", 400),
    ])
    func refusesMalformedForms(contentType: String, body: String, length: String?, extra: String, status: Int) throws {
        let receiver = try Self.formPostReceiver()
        let client = try RawClient(port: receiver.port)
        client.send(Self.post(port: receiver.port, body: body, contentType: contentType, length: length, extra: extra))
        let result = try receiver.receive(expecting: .init(state: Self.state), until: .now.advanced(by: .milliseconds(400)))
        guard case .timedOut = result else { Issue.record("a malformed form ended the wait: \(result)"); return }
        #expect(client.readAll().statusCode == status)
    }

    @Test func theFormGoesThroughTheRouterToo() async throws {
        let router = try RouterFixture.router(
            RouterFixture.oauth2("web", redirect: "http://127.0.0.1/callback"), clock: SystemAttemptClock())
        let receiver = try Self.formPostReceiver()
        let attempt = try router.beginLogin(on: "web")
        let client = try RawClient(port: receiver.port)
        client.send(Self.post(port: receiver.port, body: "code=routed&state=\(attempt.state)"))
        let delivery = try await receiver.callback(for: attempt, router: router, timeout: .seconds(20))
        #expect(delivery.outcome.value("code") == "routed")
    }
}
