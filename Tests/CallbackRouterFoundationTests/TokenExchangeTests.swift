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

import Foundation
import Testing
import CallbackRouterFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` transport against a real local HTTP server (POSIX sockets in this test
/// target): what goes on the wire, no redirect followed, the size limit, error responses.
@Suite(.serialized) struct TokenExchangeTests {
    static func request(_ server: LocalHTTPServer, path: String = "/token") throws -> TokenRequest {
        try TokenRequest.refresh(
            "tGzv3JOkF0XG5Qx2TlKWIA", tokenEndpoint: server.baseURL + path, clientID: "s6BhdRkqt3",
            authentication: .clientSecretBasic("7Fjfp0ZBr1KtDRbnfVdmIw"), allowingLoopbackHTTP: true)
    }

    @Test func sendsTheExactRequestAndReadsTheTokens() async throws {
        let server = try LocalHTTPServer(responses: [
            LocalHTTPServer.response(
                status: "200 OK", headers: ["Content-Type: application/json", "Cache-Control: no-store"],
                body: #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"Bearer","expires_in":3600}"#)
        ])
        defer { server.stop() }
        let request = try Self.request(server)
        let response = try await URLSession.shared.exchange(request)
        guard case .tokens(let tokens) = response else {
            Issue.record("expected tokens, got \(response)")
            return
        }
        #expect(tokens.accessToken == "2YotnFZFEjr1zCsicMWpAA")
        #expect(tokens.expiresIn == 3600)

        let sent = try #require(server.requests.first)
        let end = try #require(LocalHTTPServer.headEnd(sent))
        let head = String(decoding: sent[0 ..< end], as: UTF8.self)
        #expect(head.hasPrefix("POST /token HTTP/1.1\r\n"))
        var fields: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #expect(fields["content-type"] == "application/x-www-form-urlencoded")
        #expect(fields["accept"] == "application/json")
        // RFC 6749 §2.3.1's example credentials.
        #expect(fields["authorization"] == "Basic czZCaGRSa3F0Mzo3RmpmcDBaQnIxS3REUmJuZlZkbUl3")
        #expect(fields["cookie"] == nil)
        #expect(Array(sent[(end + 4)...]) == request.body)
    }

    @Test func anErrorResponseIsATypedOutcome() async throws {
        let server = try LocalHTTPServer(responses: [
            LocalHTTPServer.response(status: "400 Bad Request", body: #"{"error":"invalid_grant","error_description":"expired"}"#)
        ])
        defer { server.stop() }
        let response = try await URLSession.shared.exchange(try Self.request(server))
        guard case .error(let error) = response else {
            Issue.record("expected an error response, got \(response)")
            return
        }
        #expect(error.code == .invalidGrant)
        #expect(error.status == 400)
        #expect(error.errorDescription == "expired")
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let server = try LocalHTTPServer(responses: [
            LocalHTTPServer.response(status: "307 Temporary Redirect", headers: ["Location: /elsewhere"], body: "{}"),
            LocalHTTPServer.response(status: "200 OK", body: #"{"access_token":"stolen","token_type":"Bearer"}"#),
        ])
        defer { server.stop() }
        do {
            _ = try await URLSession.shared.exchange(try Self.request(server))
            Issue.record("a redirect was followed or accepted")
        } catch let error as CallbackError {
            #expect(error.reason == .unknownStatus, "\(error)")
        }
        #expect(server.requests.count == 1)
    }

    /// The answers a proxy, a login portal or a broken server sends: the status is read
    /// before the body, through the real transport. `nil`: the 4xx's token error.
    static let statusAnswers: [(status: String, type: String, body: String, reason: ReasonCode?, words: String)] = [
        (
            "302 Found", "text/html", "<html><body>Redirecting to <a href=/login>/login</a></body></html>", .unknownStatus,
            "HTTP 302 (Found), a redirect"
        ),
        (
            "503 Service Unavailable", "text/html", "<html><body><h1>503 Service Unavailable</h1></body></html>", .unknownStatus,
            "HTTP 503 (Service Unavailable), a server error"
        ),
        ("400 Bad Request", "application/json", #"{"error":"invalid_grant"}"#, nil, ""),
        (
            "400 Bad Request", "text/html", "<html><body>Bad Request</body></html>", .unknownStatus,
            "HTTP 400 (Bad Request) without an OAuth error response"
        ),
        (
            "200 OK", "application/json", #"{"access_token":"AT-secret-0123","token_type":"Bearer","error":"invalid_client"}"#,
            .ambiguousResponse, "HTTP 200 (OK), success, with an error member"
        ),
    ]

    @Test(arguments: 0 ..< statusAnswers.count)
    func theStatusComesFirst(_ index: Int) async throws {
        let answer = Self.statusAnswers[index]
        let server = try LocalHTTPServer(responses: [
            LocalHTTPServer.response(
                status: answer.status,
                headers: ["Content-Type: \(answer.type)"] + (answer.status.hasPrefix("3") ? ["Location: /login"] : []),
                body: answer.body)
        ])
        defer { server.stop() }
        do {
            let response = try await URLSession.shared.exchange(try Self.request(server))
            if answer.reason != nil { Issue.record("read as \(response)") }
            guard case .error(let error) = response else {
                Issue.record("expected the token error, got \(response)")
                return
            }
            #expect(error.code == .invalidGrant && error.status == 400)
        } catch let error as CallbackError {
            #expect(error.reason == answer.reason, "\(error)")
            #expect(error.detail.contains(answer.words), "\(error.detail)")
            #expect(!error.detail.contains("AT-secret") && !error.detail.contains("<"), "no body, no token in the detail")
        }
        #expect(server.requests.count == 1)
    }

    @Test func aDiscoveryRedirectOrServerErrorNamesItsStatus() async throws {
        for (status, words) in [
            ("302 Found", "HTTP 302 (Found), a redirect"), ("503 Service Unavailable", "HTTP 503 (Service Unavailable)"),
        ] {
            let server = try LocalHTTPServer(responses: [
                LocalHTTPServer.response(status: status, headers: ["Content-Type: text/html"], body: "<html>down</html>")
            ])
            defer { server.stop() }
            do {
                _ = try await URLSession.shared.discover(issuer: server.baseURL, allowingLoopbackHTTP: true)
                Issue.record("a \(status) was read as metadata")
            } catch let error as CallbackError {
                #expect(error.reason == .unknownStatus, "\(error)")
                #expect(error.detail.contains(words), "\(error.detail)")
            }
        }
    }

    @Test(arguments: [true, false])
    func aResponseOverTheLimitIsTooLong(announced: Bool) async throws {
        let body = #"{"access_token":""# + String(repeating: "a", count: 5000) + #"","token_type":"Bearer"}"#
        let response: [UInt8]
        if announced {
            response = LocalHTTPServer.response(status: "200 OK", body: body)
        } else {
            // No Content-Length: the body is counted as it arrives.
            response = Array(("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + body).utf8)
        }
        let server = try LocalHTTPServer(responses: [response])
        defer { server.stop() }
        do {
            _ = try await URLSession.shared.exchange(try Self.request(server), maxResponseBytes: 1024)
            Issue.record("a response over the limit was read")
        } catch let error as CallbackError {
            #expect(error.reason == .tooLong, "\(error)")
        }
        // The same response within a larger limit is read.
        let again = try LocalHTTPServer(responses: [response])
        defer { again.stop() }
        let tokens = try await URLSession.shared.exchange(try Self.request(again), maxResponseBytes: 8192)
        guard case .tokens = tokens else {
            Issue.record("expected tokens")
            return
        }
    }
}

/// `URLSession.discover(issuer:)` against the local server: the document fetched from the
/// well-known URL and checked; another issuer, a redirect and a non-200 refused.
@Suite(.serialized) struct DiscoveryFetchTests {
    static func document(issuer: String) -> String {
        #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"],"code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true}"#
    }

    /// The issuer is the server's own URL, so its responses are written once it is bound.
    @Test func fetchesTheWellKnownDocumentAndChecksTheIssuer() async throws {
        let server = try LocalHTTPServer(lateResponses: { base in
            [LocalHTTPServer.response(status: "200 OK", body: Self.document(issuer: base + "/tenant"))]
        })
        defer { server.stop() }
        let metadata = try await URLSession.shared.discover(issuer: server.baseURL + "/tenant", allowingLoopbackHTTP: true)
        #expect(metadata.tokenEndpoint == server.baseURL + "/tenant/token")
        #expect(metadata.authorizationResponseIssParameterSupported)
        let sent = try #require(server.requests.first)
        #expect(String(decoding: sent, as: UTF8.self).hasPrefix("GET /tenant/.well-known/openid-configuration HTTP/1.1\r\n"))
    }

    @Test func anotherIssuerARedirectAndANon200AreRefused() async throws {
        let cases: [(@Sendable (String) -> [UInt8], ReasonCode)] = [
            ({ _ in LocalHTTPServer.response(status: "200 OK", body: Self.document(issuer: "https://evil.example.com")) }, .issuerMismatch),
            ({ _ in LocalHTTPServer.response(status: "302 Found", headers: ["Location: /other"], body: "") }, .unknownStatus),
            ({ _ in LocalHTTPServer.response(status: "404 Not Found", body: "{}") }, .unknownStatus),
        ]
        for (response, reason) in cases {
            let server = try LocalHTTPServer(lateResponses: { [response($0)] })
            defer { server.stop() }
            do {
                _ = try await URLSession.shared.discover(issuer: server.baseURL, allowingLoopbackHTTP: true)
                Issue.record("expected \(reason)")
            } catch let error as CallbackError {
                #expect(error.reason == reason, "\(error)")
            }
            #expect(server.requests.count == 1)
        }
    }
}
