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

import CallbackTestSupport
import Testing
@testable import CallbackTokens

/// Token responses (RFC 6749 §5.1, §5.2) read into tokens or a typed error.
@Suite struct TokenResponseTests {
    static func read(_ status: Int, _ body: String, allowing types: [String] = []) throws(CallbackError) -> TokenResponse {
        try TokenResponse(status: status, body: Array(body.utf8), allowedTokenTypes: types)
    }

    static func tokens(_ body: String, allowing types: [String] = []) throws -> TokenSet {
        guard case .tokens(let tokens) = try read(200, body, allowing: types) else {
            Issue.record("expected tokens")
            throw CallbackError(.invalidParameter, "not tokens")
        }
        return tokens
    }

    @Test func readsRFC6749sExampleResponse() throws {
        let tokens = try Self.tokens(
            #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"example","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","example_parameter":"example_value"}"#,
            allowing: ["Example"])
        #expect(tokens.accessToken == "2YotnFZFEjr1zCsicMWpAA")
        #expect(tokens.tokenType == "example")
        #expect(tokens.expiresIn == 3600)
        #expect(tokens.refreshToken == "tGzv3JOkF0XG5Qx2TlKWIA")
        #expect(tokens.scope == nil)
        #expect(tokens.idToken == nil)
        #expect(tokens.otherMemberNames == ["example_parameter"])
    }

    @Test(arguments: ["Bearer", "bearer", "BEARER"])
    func bearerIsComparedCaseInsensitively(_ type: String) throws {
        let tokens = try Self.tokens(#"{"access_token":"a","token_type":"\#(type)","scope":"openid","id_token":"x.y.z"}"#)
        #expect(tokens.tokenType == type)
        #expect(tokens.scope == "openid")
        #expect(tokens.idToken == "x.y.z")
    }

    @Test func aTokenTypeOtherThanBearerIsRefusedUnlessAllowed() throws {
        expectRefusal(.unsupportedTokenType) { try Self.read(200, #"{"access_token":"a","token_type":"DPoP"}"#) }
        expectRefusal(.unsupportedTokenType) { try Self.read(200, #"{"access_token":"a","token_type":"mac"}"#) }
        #expect(try Self.tokens(#"{"access_token":"a","token_type":"DPoP"}"#, allowing: ["dpop"]).tokenType == "DPoP")
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let status: Int
        let body: String
        let reason: ReasonCode
        var testDescription: String { "\(status) \(body)" }
        init(_ status: Int, _ body: String, _ reason: ReasonCode) {
            self.status = status
            self.body = body
            self.reason = reason
        }
    }

    static let refusals: [Refusal] = [
        Refusal(200, #"{"token_type":"Bearer"}"#, .missingParameter),
        Refusal(200, #"{"access_token":"a"}"#, .missingParameter),
        Refusal(200, #"{"error":"invalid_grant"}"#, .ambiguousResponse),
        Refusal(200, #"{"access_token":"","token_type":"Bearer"}"#, .invalidParameter),
        Refusal(200, #"{"access_token":1,"token_type":"Bearer"}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","expires_in":"3600"}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","expires_in":3600.0}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","expires_in":-1}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","expires_in":1e3}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","expires_in":99999999999999999999}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","id_token":null}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","token_type":"Bearer","refresh_token":["r"]}"#, .invalidParameter),
        Refusal(200, #"{"access_token":"a","access_token":"b","token_type":"Bearer"}"#, .duplicateParameter),
        Refusal(200, #"["access_token"]"#, .invalidParameter),
        Refusal(200, "access_token=a&token_type=Bearer", .invalidCharacter),
        Refusal(200, "", .emptyInput),
        Refusal(201, #"{"access_token":"a","token_type":"Bearer"}"#, .unknownStatus),
        Refusal(500, #"{"message":"internal"}"#, .unknownStatus),
        Refusal(302, #"{}"#, .unknownStatus),
        Refusal(400, #"{"error":"bad\"quote"}"#, .invalidParameter),
        Refusal(400, #"{"error":""}"#, .invalidParameter),
        Refusal(400, #"{"error":7}"#, .invalidParameter),
    ]

    @Test(arguments: refusals)
    func refusesAResponseThatBreaksRFC6749(_ refusal: Refusal) {
        expectRefusal(refusal.reason) { try Self.read(refusal.status, refusal.body) }
    }

    /// What a provider's proxy or a misconfigured URL answers: the status is read first,
    /// so an HTML page is never a JSON refusal and a success with `error` is never tokens.
    struct StatusCase: CustomTestStringConvertible, Sendable {
        let status: Int
        let body: String
        let reason: ReasonCode?
        let words: String
        var testDescription: String { "\(status) \(body.prefix(20))" }
    }

    static let html = "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>"
    static let statusCases: [StatusCase] = [
        StatusCase(
            status: 302, body: "<html><body>Moved to <a href=/login>login</a></body></html>", reason: .unknownStatus,
            words: "HTTP 302 (Found), a redirect"),
        StatusCase(status: 302, body: "", reason: .unknownStatus, words: "HTTP 302 (Found), a redirect"),
        StatusCase(
            status: 307, body: #"{"access_token":"AT-via-redirect","token_type":"Bearer"}"#, reason: .unknownStatus, words: "HTTP 307"),
        StatusCase(status: 503, body: html, reason: .unknownStatus, words: "failed with HTTP 503 (Service Unavailable), a server error"),
        StatusCase(
            status: 500, body: #"{"error":"server_error"}"#, reason: .unknownStatus,
            words: "HTTP 500 (Internal Server Error), a server error"),
        StatusCase(status: 400, body: html, reason: .unknownStatus, words: "HTTP 400 (Bad Request) without an OAuth error response"),
        StatusCase(status: 404, body: "", reason: .unknownStatus, words: "HTTP 404 (Not Found) without an OAuth error response"),
        StatusCase(status: 401, body: #"{"message":"no"}"#, reason: .unknownStatus, words: "check the client id"),
        StatusCase(status: 400, body: #"{"error":"invalid_grant"}"#, reason: nil, words: ""),
        StatusCase(
            status: 200, body: #"{"access_token":"AT-secret-0123","token_type":"Bearer","error":"invalid_grant"}"#,
            reason: .ambiguousResponse,
            words: "HTTP 200 (OK), success, with an error member (invalid_grant)"),
    ]

    @Test(arguments: statusCases)
    func theStatusComesFirst(_ item: StatusCase) throws {
        guard let reason = item.reason else {
            guard case .error(let error) = try Self.read(item.status, item.body) else {
                Issue.record("a 4xx with a JSON error body is the token error it carries")
                return
            }
            #expect(error.status == item.status)
            return
        }
        do {
            let response = try Self.read(item.status, item.body)
            Issue.record("read as \(response)")
        } catch {
            #expect(error.reason == reason, "\(error)")
            #expect(error.detail.contains(item.words), "\(error.detail)")
            #expect(!error.detail.contains("AT-"), "no token in the detail")
            #expect(!error.detail.contains("<"), "the body is never quoted")
        }
    }

    @Test func aBodyOverTheLimitIsTooLong() {
        let padding = String(repeating: "x", count: TokenResponse.maxBodyBytes)
        expectRefusal(.tooLong) { try Self.read(200, #"{"access_token":"\#(padding)","token_type":"Bearer"}"#) }
        expectRefusal(.tooLong) {
            try TokenResponse(status: 200, body: Array(#"{"access_token":"abc","token_type":"Bearer"}"#.utf8), maxBodyBytes: 16)
        }
    }

    @Test(arguments: [
        (400, "invalid_grant", TokenErrorCode.invalidGrant), (401, "invalid_client", .invalidClient),
        (400, "invalid_request", .invalidRequest), (400, "unauthorized_client", .unauthorizedClient),
        (400, "unsupported_grant_type", .unsupportedGrantType), (400, "invalid_scope", .invalidScope),
    ])
    func errorResponsesAreTypedOutcomes(_ status: Int, _ code: String, _ expected: TokenErrorCode) throws {
        let response = try Self.read(
            status, #"{"error":"\#(code)","error_description":"The code has expired","error_uri":"https://op.example.com/e"}"#)
        guard case .error(let error) = response else {
            Issue.record("expected an error response, got \(response)")
            return
        }
        #expect(error.code == expected)
        #expect(error.code.isStandard)
        #expect(error.status == status)
        #expect(error.errorDescription == "The code has expired")
        #expect(error.errorURI == "https://op.example.com/e")
        #expect(error.withheldFields.isEmpty)
    }

    @Test func errorTextThatBreaksNQSCHARIsWithheldAndNamed() throws {
        let response = try Self.read(400, #"{"error":"invalid_grant","error_description":"line\nbreak \"q\" é","error_uri":5}"#)
        guard case .error(let error) = response else {
            Issue.record("expected an error response")
            return
        }
        #expect(error.errorDescription == nil)
        #expect(error.errorURI == nil)
        #expect(error.withheldFields == ["error_description", "error_uri"])
        #expect(error.code == .invalidGrant)
        #expect(TokenErrorCode(rawValue: "slow_down").isStandard == false)
    }

    @Test func descriptionsShowNoToken() throws {
        let tokens = try Self.tokens(
            #"{"access_token":"AT-secret-123456","token_type":"Bearer","refresh_token":"RT-secret-123456","id_token":"ID-secret-123456","scope":"openid"}"#
        )
        var dumped = ""
        dump(tokens, to: &dumped)
        for text in [tokens.description, tokens.debugDescription, dumped, TokenResponse.tokens(tokens).description] {
            for secret in ["AT-secret-123456", "RT-secret-123456", "ID-secret-123456"] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }

    @Test func everyRenderingOfTheResponseShowsNoToken() throws {
        let tokens = try Self.tokens(
            #"{"access_token":"AT-secret-123456","token_type":"Bearer","refresh_token":"RT-secret-123456","id_token":"ID-secret-123456","scope":"openid"}"#
        )
        let values: [Any] = [tokens, TokenResponse.tokens(tokens), [tokens], Optional(tokens) as Any]
        for text in values.flatMap(TokenRequestTests.renderings) {
            for secret in ["AT-secret-123456", "RT-secret-123456", "ID-secret-123456"] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }
}
