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
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// The request-head parser and scanner on their own, and the server's per-connection bound.
@Suite struct LoopbackHTTPParsingTests {
    func parse(_ text: String) -> Result<HTTPRequestHead, HTTPStatus> {
        HTTPRequestHead.parse(ArraySlice(Array(text.utf8)))
    }

    @Test func parsesABrowserRequest() throws {
        let head = try parse(
            """
            GET /callback?code=a&state=b HTTP/1.1\r
            Host: 127.0.0.1:5000\r
            Sec-Fetch-Mode: navigate\r
            User-Agent:   Mozilla/5.0 (X11; Linux x86_64)  \r
            \r

            """
        ).get()
        #expect(head.method == "GET")
        #expect(head.target == "/callback?code=a&state=b")
        #expect(head.path == "/callback")
        #expect(head.minorVersion == 1)
        #expect(head.values(of: "host") == ["127.0.0.1:5000"])
        #expect(head.values(of: "sec-fetch-mode") == ["navigate"])
        #expect(head.values(of: "user-agent") == ["Mozilla/5.0 (X11; Linux x86_64)"])
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nA: b\n\r\n", 400),
        ("GET / HTTP/1.1 \r\n\r\n", 400),
        ("GET /\u{7f} HTTP/1.1\r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\n\r\n", 400),
        ("GET example.com:443 HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.2\r\n\r\n", 505),
        ("GET / HTTP/3.0\r\n\r\n", 505),
        ("GET / http/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n: empty-name\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nNo-Colon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nA: b\u{00}c\r\n\r\n", 400),
        ("\r\n\r\n", 400),
    ])
    func refusesMalformedHeads(_ text: String, _ status: Int) {
        guard case .failure(let refusal) = parse(text) else {
            Issue.record("accepted \(text.debugDescription)")
            return
        }
        #expect(refusal.code == status)
    }

    @Test func acceptsHTTP10AndObsTextValues() throws {
        let head = try parse("GET / HTTP/1.0\r\nX-Name: caf\u{e9}\r\n\r\n").get()
        #expect(head.minorVersion == 0)
        #expect(head.values(of: "x-name") == ["caf\u{e9}"])
    }

    @Test func scannerFindsTheEndWhateverTheChunking() {
        let request = Array("GET /callback HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\nEXTRA".utf8)
        for chunk in [1, 2, 3, 7, request.count] {
            var scanner = HTTPHeadScanner(limit: 1024)
            var buffer: [UInt8] = []
            var result = HTTPHeadScanner.State.incomplete
            var offset = 0
            while result == .incomplete && offset < request.count {
                buffer += request[offset ..< min(offset + chunk, request.count)]
                offset += chunk
                result = scanner.scan(buffer)
            }
            #expect(result == .complete(length: request.count - 5), "chunk \(chunk)")
        }
    }

    @Test(arguments: [
        (String(repeating: "a", count: 100), HTTPStatus.uriTooLong),
        ("GET / HTTP/1.1\r\n" + String(repeating: "a", count: 100), HTTPStatus.headersTooLarge),
        ("GET / HTTP/1.1\nHost: x\r\n\r\n", HTTPStatus.badRequest),
    ])
    func scannerRefusesOversizedOrBareLF(_ text: String, _ status: HTTPStatus) {
        var scanner = HTTPHeadScanner(limit: 64)
        #expect(scanner.scan(Array(text.utf8)) == .refused(status))
    }

    @Test func scannerAcceptsAHeadOfExactlyTheLimit() {
        let text = "GET / HTTP/1.1\r\n\r\n"
        var exact = HTTPHeadScanner(limit: text.utf8.count)
        #expect(exact.scan(Array(text.utf8)) == .complete(length: text.utf8.count))
        var smaller = HTTPHeadScanner(limit: text.utf8.count - 1)
        #expect(smaller.scan(Array(text.utf8)) != .complete(length: text.utf8.count))
    }

    @Test func pagesEscapeWhatTheyShow() {
        #expect(htmlEscaped("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(LoopbackPageContent.displayableErrorCode("access_denied") == "access_denied")
        #expect(LoopbackPageContent.displayableErrorCode("<script>") == nil)
        #expect(LoopbackPageContent.displayableErrorCode("a b") == nil)
        #expect(LoopbackPageContent.displayableErrorCode(String(repeating: "x", count: 65)) == nil)
        #expect(LoopbackPageContent.displayableErrorCode("") == nil)
    }

    @Test func everyPageIsStaticAndInert() {
        let pages: [LoopbackPageContent] = [
            .success, .providerError(code: "access_denied", description: nil), .providerError(code: nil, description: nil),
            .rejected(reason: "issuer_mismatch"), .waiting, .ignored(reason: "state_mismatch"),
            .refusal(title: "Not found", text: "Not found."),
        ]
        for page in pages {
            let html = page.html(LoopbackPages()).lowercased()
            #expect(!html.contains("<script"))
            #expect(!html.contains("http:") && !html.contains("https:"), "no external resource")
            #expect(html.contains("<title>"))
        }
    }

    @Test func responseHeadersForbidCachingReferrersAndFraming() {
        let text = String(decoding: LoopbackResponse(status: .ok, page: .success).bytes(LoopbackPages()), as: UTF8.self)
        for field in [
            "Cache-Control: no-store", "Referrer-Policy: no-referrer", "X-Frame-Options: DENY", "Connection: close",
            "X-Content-Type-Options: nosniff", "frame-ancestors 'none'",
        ] {
            #expect(text.contains(field))
        }
        let noContent = String(
            decoding: LoopbackResponse(status: .noContent, page: nil, allow: "GET").bytes(LoopbackPages()), as: UTF8.self)
        #expect(!noContent.contains("Content-Length"), "RFC 9110 §8.6: no Content-Length in a 204")
    }

    /// A stalled connection is cut off at its own deadline while the wait goes on.
    @Test func connectionDeadlineClosesAStalledPeerWhileTheWaitGoesOn() throws {
        var configuration = LoopbackConfiguration()
        configuration.connectionTimeout = .milliseconds(300)
        configuration.timeout = .seconds(10)
        let server = try LoopbackServer(configuration: configuration)
        let validation = try LoopbackValidation(LoopbackExpectations(state: "st"), redirectURI: server.redirectURI)
        let box = ServerBox(server)
        let result = Locked<LoopbackServerOutcome?>(nil)
        // The wait ends below, when the second request is answered (the loop waits for it).
        let running = BlockingThread { () -> Void in
            let r = box.server.run(validation: validation); result.withLock { $0 = r }
        }

        let stalled = try RawClient(port: server.port)
        defer { stalled.close() }
        stalled.send("GET /callback?code=c&st")
        let clock = ContinuousClock()
        let started = clock.now
        let answer = stalled.readAll()
        let waited = clock.now - started
        #expect(answer.text.isEmpty)
        #expect(waited >= .milliseconds(250) && waited < .seconds(3), "closed after \(waited)")
        #expect(result.withLock { $0 } == nil, "the wait goes on")

        let response = try RawClient.get(port: server.port, "/callback?code=c&state=st")
        #expect(response.statusCode == 200)
        running.join()
        guard case .finished(let evaluation) = result.withLock({ $0 }) else {
            Issue.record("the server did not finish")
            return
        }
        #expect(evaluation.kind == .success)
    }
}

private final class ServerBox: @unchecked Sendable {
    // Used by the server thread only, after the test thread handed it over.
    let server: LoopbackServer
    init(_ server: LoopbackServer) { self.server = server }
}
