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

import Testing
@testable import CallbackTokens

/// The device authorization grant (RFC 8628) as values: its two requests, the device
/// authorization response read strictly, and each poll's answer.
@Suite struct DeviceFlowTests {
    static let rfcResponse = #"""
        {"device_code":"GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS","user_code":"WDJB-MJHT","verification_uri":"https://example.com/device","verification_uri_complete":"https://example.com/device?user_code=WDJB-MJHT","expires_in":1800,"interval":5}
        """#

    static func read(_ status: Int, _ body: String, allowingLoopbackHTTP: Bool = false) throws(CallbackError) -> DeviceAuthorizationResponse
    {
        try DeviceAuthorizationResponse(status: status, body: Array(body.utf8), allowingLoopbackHTTP: allowingLoopbackHTTP)
    }

    static func authorization(_ body: String, allowingLoopbackHTTP: Bool = false) throws -> DeviceAuthorization {
        guard case .authorization(let authorization) = try read(200, body, allowingLoopbackHTTP: allowingLoopbackHTTP) else {
            Issue.record("expected an authorization")
            throw CallbackError(.invalidParameter, "not an authorization")
        }
        return authorization
    }

    static func refusal(_ body: String, status: Int = 200) -> ReasonCode? {
        do {
            _ = try read(status, body)
            return nil
        } catch {
            return error.reason
        }
    }

    /// `{"…":…}` with one member replaced (nil removes it).
    static func rfcResponse(with name: String, _ json: String?) -> String {
        var members: [String: String] = [
            "device_code": #""GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS""#, "user_code": #""WDJB-MJHT""#,
            "verification_uri": #""https://example.com/device""#, "expires_in": "1800", "interval": "5",
        ]
        members[name] = json
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    // MARK: The requests

    @Test func theDeviceAuthorizationRequestIsRFC8628sExample() throws {
        let request = try TokenRequest.deviceAuthorization(
            endpoint: "https://server.example.com/device_authorization", clientID: "1406020730")
        #expect(String(decoding: request.body, as: UTF8.self) == "client_id=1406020730")
        #expect(request.method == "POST")
        #expect(request.header("content-type") == "application/x-www-form-urlencoded")
        #expect(request.grantType.isEmpty)
        let scoped = try TokenRequest.deviceAuthorization(endpoint: "https://a.example/d", clientID: "c", scope: "openid profile")
        #expect(String(decoding: scoped.body, as: UTF8.self) == "scope=openid+profile&client_id=c")
    }

    @Test func theDeviceTokenRequestIsRFC8628sExampleAndShowsNoCode() throws {
        let authorization = try Self.authorization(Self.rfcResponse)
        let request = try TokenRequest.deviceCode(authorization, tokenEndpoint: "https://server.example.com/token", clientID: "1406020730")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS&client_id=1406020730"
        )
        #expect(request.grantType == TokenRequest.deviceCodeGrantType)
        for text in [request.description, request.debugDescription, String(reflecting: request)] {
            #expect(!text.contains("GmRhmhcx"))
        }
    }

    @Test func theRequestsRefuseWhatATokenRequestRefuses() {
        #expect(throws: CallbackError.self) { try TokenRequest.deviceAuthorization(endpoint: "http://server.example.com/d", clientID: "c") }
        #expect(throws: CallbackError.self) { try TokenRequest.deviceAuthorization(endpoint: "https://a.example/d", clientID: "") }
        #expect(throws: CallbackError.self) {
            try TokenRequest.deviceAuthorization(endpoint: "https://a.example/d", clientID: "c", scope: "a\"b")
        }
        #expect((try? TokenRequest.deviceAuthorization(endpoint: "http://127.0.0.1:9/d", clientID: "c", allowingLoopbackHTTP: true)) != nil)
    }

    // MARK: The device authorization response

    @Test func readsRFC8628sExampleResponse() throws {
        let authorization = try Self.authorization(Self.rfcResponse)
        #expect(authorization.deviceCode == "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS")
        #expect(authorization.userCode == "WDJB-MJHT")
        #expect(authorization.verificationURI == "https://example.com/device")
        #expect(authorization.verificationURIComplete == "https://example.com/device?user_code=WDJB-MJHT")
        #expect(authorization.expiresIn == 1800)
        #expect(authorization.interval == 5)
        #expect(authorization.pollingInterval == .seconds(5))
        #expect(authorization.otherMemberNames.isEmpty)
    }

    @Test func neitherCodeIsPrintedDumpedOrInterpolated() throws {
        let authorization = try Self.authorization(Self.rfcResponse)
        var dumped = ""
        dump(authorization, to: &dumped)
        for text in [
            authorization.description, authorization.debugDescription, "\(authorization)", dumped,
            "\(DeviceAuthorizationResponse.authorization(authorization))",
        ] {
            #expect(!text.contains("GmRhmhcx") && !text.contains("WDJB-MJHT"), "\(text)")
            #expect(text.contains("https://example.com/device"))
        }
    }

    @Test func readsGooglesVerificationURL() throws {
        let authorization = try Self.authorization(
            #"{"device_code":"4/4-GMMhmHCXhWEzkobqIHGG_EnNYYsNkukHhsmbYLHSdI","user_code":"GQVQ-JKEC","verification_url":"https://www.google.com/device","expires_in":1800,"interval":5}"#
        )
        #expect(authorization.verificationURI == "https://www.google.com/device")
        #expect(authorization.otherMemberNames.isEmpty)
    }

    @Test func theIntervalIsFiveSecondsWhenAbsentAndNeverZero() throws {
        #expect(try Self.authorization(Self.rfcResponse(with: "interval", nil)).pollingInterval == .seconds(5))
        let zero = try Self.authorization(Self.rfcResponse(with: "interval", "0"))
        #expect(zero.interval == 0)
        #expect(zero.pollingInterval == .seconds(1))
    }

    @Test(
        arguments: [
            ("device_code", nil, ReasonCode.missingParameter),
            ("device_code", #""""#, .invalidParameter),
            ("device_code", "42", .invalidParameter),
            ("device_code", #""a\u0000b""#, .invalidParameter),
            ("user_code", nil, .missingParameter),
            ("user_code", "\"" + String(repeating: "A", count: 65) + "\"", .tooLong),
            ("verification_uri", nil, .missingParameter),
            ("verification_uri", #""http://example.com/device""#, .schemeNotAllowed),
            ("verification_uri", #""javascript:alert(1)""#, .invalidParameter),
            ("verification_uri", #""https://example.com@evil.example/device""#, .invalidParameter),
            ("verification_uri", #""https://example.com/device#x""#, .invalidParameter),
            ("verification_uri", #""/device""#, .invalidParameter),
            ("verification_uri_complete", #""http://example.com/device?user_code=X""#, .schemeNotAllowed),
            ("expires_in", nil, .missingParameter),
            ("expires_in", "0", .invalidParameter),
            ("expires_in", "-1", .invalidParameter),
            ("expires_in", #""1800""#, .invalidParameter),
            ("expires_in", "1800.5", .invalidParameter),
            ("interval", "-5", .invalidParameter),
            ("interval", "true", .invalidParameter),
        ] as [(String, String?, ReasonCode)])
    func refusesAMalformedMember(name: String, json: String?, reason: ReasonCode) {
        #expect(Self.refusal(Self.rfcResponse(with: name, json)) == reason, "\(name): \(json ?? "absent")")
    }

    @Test func aLoopbackVerificationPageOnlyWhenAllowed() throws {
        let body = Self.rfcResponse(with: "verification_uri", #""http://127.0.0.1:8000/device""#)
        #expect(Self.refusal(body) == .schemeNotAllowed)
        #expect(try Self.authorization(body, allowingLoopbackHTTP: true).verificationURI == "http://127.0.0.1:8000/device")
    }

    @Test func theStatusComesFirst() throws {
        #expect(Self.refusal("<html>moved</html>", status: 302) == .unknownStatus)
        #expect(Self.refusal(Self.rfcResponse, status: 503) == .unknownStatus)
        #expect(Self.refusal(Self.rfcResponse, status: 201) == .unknownStatus)
        #expect(Self.refusal("<html>bad</html>", status: 400) == .unknownStatus)
        #expect(Self.refusal(#"{"error":"invalid_client","device_code":"x"}"#, status: 200) == .ambiguousResponse)
        #expect(Self.refusal("[]", status: 200) == .invalidParameter)
        #expect(Self.refusal(#"{"device_code":"a","device_code":"b"}"#, status: 200) == .duplicateParameter)
        guard case .error(let error) = try Self.read(401, #"{"error":"invalid_client","error_description":"no such client"}"#) else {
            Issue.record("expected an error response")
            return
        }
        #expect(error.code == .invalidClient)
        #expect(error.status == 401)
    }

    // MARK: Polling

    static func poll(_ status: Int, _ body: String) throws -> DevicePoll {
        DevicePoll(try TokenResponse(status: status, body: Array(body.utf8)))
    }

    @Test func eachPollAnswerSaysWhetherToAskAgainAndWhen() throws {
        let five = Duration.seconds(5)
        #expect(try Self.poll(400, #"{"error":"authorization_pending"}"#).nextInterval(after: five) == five)
        #expect(try Self.poll(400, #"{"error":"slow_down"}"#).nextInterval(after: five) == .seconds(10))
        #expect(try Self.poll(400, #"{"error":"slow_down"}"#).nextInterval(after: .seconds(10)) == .seconds(15))
        let denied = try Self.poll(400, #"{"error":"access_denied"}"#)
        guard case .accessDenied(let error) = denied else {
            Issue.record("expected accessDenied, got \(denied)")
            return
        }
        #expect(error.code == .accessDenied)
        #expect(denied.nextInterval(after: five) == nil)
        let expired = try Self.poll(400, #"{"error":"expired_token"}"#)
        guard case .expiredToken = expired else {
            Issue.record("expected expiredToken, got \(expired)")
            return
        }
        #expect(expired.nextInterval(after: five) == nil)
        let other = try Self.poll(400, #"{"error":"invalid_grant"}"#)
        guard case .error(let otherError) = other else {
            Issue.record("expected error, got \(other)")
            return
        }
        #expect(otherError.code == .invalidGrant)
        #expect(other.nextInterval(after: five) == nil)
        let tokens = try Self.poll(200, #"{"access_token":"AT-secret","token_type":"Bearer","expires_in":60}"#)
        guard case .tokens(let set) = tokens else {
            Issue.record("expected tokens, got \(tokens)")
            return
        }
        #expect(set.accessToken == "AT-secret")
        #expect(tokens.nextInterval(after: five) == nil)
        #expect(!tokens.description.contains("AT-secret"))
    }

    // MARK: Discovery

    @Test func discoveryReadsTheDeviceAuthorizationEndpoint() throws {
        func metadata(_ extra: String) throws(CallbackError) -> ProviderMetadata {
            try ProviderMetadata(
                parsing: Array(
                    (#"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/a","token_endpoint":"https://op.example/t","response_types_supported":["code"]"#
                        + extra + "}").utf8),
                expectedIssuer: "https://op.example", style: .oauthAuthorizationServer)
        }
        let offered = try metadata(
            #","device_authorization_endpoint":"https://op.example/device","grant_types_supported":["authorization_code","urn:ietf:params:oauth:grant-type:device_code"]"#
        )
        #expect(offered.deviceAuthorizationEndpoint == "https://op.example/device")
        #expect(offered.grantTypesSupported?.contains(TokenRequest.deviceCodeGrantType) == true)
        let absent = try metadata("")
        #expect(absent.deviceAuthorizationEndpoint == nil)
        #expect(absent.grantTypesSupported == nil)
        #expect(throws: CallbackError.self) { try metadata(#","device_authorization_endpoint":"http://op.example/device""#) }
    }
}
