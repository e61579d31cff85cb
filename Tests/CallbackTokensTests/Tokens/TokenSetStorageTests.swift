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
import CallbackTokens
import Testing

/// What a stored ``TokenSet`` keeps: the absolute expiry, the values checked when rebuilt,
/// and a refresh's merge (rotated refresh tokens replaced, others kept).
@Suite struct TokenSetStorageTests {
    static func tokens(_ body: String) throws -> TokenSet {
        guard case .tokens(let tokens) = try TokenResponse(status: 200, body: Array(body.utf8)) else {
            throw CallbackError(.invalidParameter, "not tokens")
        }
        return tokens
    }

    @Test func theExpiryIsTheMomentReadPlusExpiresIn() throws {
        let before = SystemAttemptClock().wallClockNanoseconds() / 1_000_000_000
        let tokens = try Self.tokens(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#)
        let after = SystemAttemptClock().wallClockNanoseconds() / 1_000_000_000
        let expiresAt = try #require(tokens.expiresAt)
        #expect(expiresAt >= before + 3600 && expiresAt <= after + 3600)
        #expect(try Self.tokens(#"{"access_token":"a","token_type":"Bearer"}"#).expiresAt == nil)
        #expect(tokens.description.contains("expires_at: \(expiresAt)"))
    }

    @Test func expiryIsReadOnTheGivenClock() throws {
        let clock = ManualAttemptClock(wallClockStart: 1_800_000_000 * 1_000_000_000)
        let tokens = try TokenSet(accessToken: "a", tokenType: "Bearer", expiresAt: 1_800_000_100)
        #expect(!tokens.isExpired(leeway: .seconds(60), clock: clock))
        #expect(tokens.isExpired(leeway: .seconds(100), clock: clock))
        clock.advance(by: .seconds(100))
        #expect(tokens.isExpired(leeway: .zero, clock: clock))
        #expect(!(try TokenSet(accessToken: "a", tokenType: "Bearer", expiresAt: nil)).isExpired(clock: clock))
    }

    @Test func aRebuiltTokenSetIsCheckedAsAResponseIs() throws {
        for (accessToken, refreshToken, expiresIn) in [("", "r", Int64(1)), ("a", "", 1), ("a", "r", -1)] {
            #expect {
                _ = try TokenSet(
                    accessToken: accessToken, tokenType: "Bearer", expiresIn: expiresIn, expiresAt: nil, refreshToken: refreshToken)
            } throws: { error in
                (error as? CallbackError)?.reason == .invalidParameter
            }
        }
    }

    @Test func aRefreshReplacesARotatedRefreshTokenAndKeepsTheRest() throws {
        let login = try Self.tokens(
            #"{"access_token":"a1","token_type":"Bearer","expires_in":60,"refresh_token":"r1","scope":"openid profile","id_token":"h.p.s"}"#
        )
        let rotated = login.refreshed(
            by: try Self.tokens(#"{"access_token":"a2","token_type":"Bearer","expires_in":3600,"refresh_token":"r2"}"#))
        #expect(rotated.accessToken == "a2")
        #expect(rotated.refreshToken == "r2")
        #expect(rotated.expiresIn == 3600)
        #expect(rotated.scope == "openid profile")
        #expect(rotated.idToken == "h.p.s")
        let kept = rotated.refreshed(by: try Self.tokens(#"{"access_token":"a3","token_type":"Bearer","id_token":"h.q.s"}"#))
        #expect(kept.accessToken == "a3")
        #expect(kept.refreshToken == "r2")
        #expect(kept.expiresAt == nil)
        #expect(kept.idToken == "h.q.s")
    }
}
