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

/// The ID token of a device code grant: checked as a login's, without a nonce (none was
/// sent) and without a code (none was redeemed), and required when asked for.
@Suite struct DeviceFlowIDTokenTests {
    typealias Base = IDTokenClaimsTests

    static func claims() -> [String: String] {
        [
            "iss": #""\#(Base.issuer)""#, "sub": #""248289761001""#, "aud": #""\#(Base.clientID)""#, "exp": String(Base.now + 600),
            "iat": String(Base.now - 5),
        ]
    }

    static func check(_ claims: [String: String]?, header: String = #"{"alg":"RS256","kid":"1"}"#) throws -> IDTokenClaims {
        try RefreshedIDTokenTests.response(claims.map { Base.jwt(header: header, Base.payload($0)) }).checkDeviceFlowIDToken(
            clientID: Base.clientID, issuer: Base.issuer, clock: ManualAttemptClock())
    }

    @Test func aGoodTokenWithoutANoncePassesAndSaysNoNonceWasCompared() throws {
        let checked = try Self.check(Self.claims())
        #expect(checked.subject == "248289761001" && checked.issuer == Base.issuer && !checked.nonceChecked)
    }

    @Test func aResponseWithoutAnIDTokenIsMissingParameter() {
        expectRefusal(.missingParameter) { try Self.check(nil) }
    }

    @Test(
        arguments: [
            ("iss", #""https://evil.example.com""#, ReasonCode.issuerMismatch), ("iss", nil, .issuerMissing),
            ("aud", #""another-client""#, .audienceMismatch), ("exp", "1767225000", .tokenExpired), ("sub", nil, .missingParameter),
            ("c_hash", #""77QmUPtjPfzWtF2AnpK9RQ""#, .tokenHashMismatch), ("at_hash", #""77QmUPtjPfzWtF2AnpK9RQ""#, .tokenHashMismatch),
        ] as [(String, String?, ReasonCode)])
    func everyLoginCheckButTheNonceRefuses(_ claim: String, _ value: String?, _ reason: ReasonCode) {
        var claims = Self.claims()
        claims[claim] = value
        expectRefusal(reason) { try Self.check(claims) }
    }

    @Test func anUnsignedTokenIsRefused() {
        expectRefusal(.unsupportedAlgorithm) { try Self.check(Self.claims(), header: #"{"alg":"none"}"#) }
    }
}
