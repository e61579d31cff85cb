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
@testable import CallbackRouter

@Suite struct PKCETests {
    /// RFC 7636 Appendix B, verbatim: the verifier, the SHA-256 octets of its ASCII, and
    /// the challenge. (The values in issue 4's text, `…-mJ92K9qzWoM…` → `…eJ1YMPQ…`, are
    /// garbled copies: that verifier hashes to `n1Po0tC4…`, so they are not used.)
    static let rfcVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let rfcChallengeOctets: [UInt8] = [
        19, 211, 30, 150, 26, 26, 216, 236, 47, 22, 177, 12, 76, 152, 46, 8,
        118, 168, 120, 173, 109, 241, 68, 86, 110, 225, 137, 74, 203, 112, 249, 195,
    ]
    static let rfcChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func matchesRFC7636AppendixB() throws {
        #expect(SHA256.hash(Self.rfcVerifier.utf8) == Self.rfcChallengeOctets)
        #expect(Base64URL.encode(Self.rfcChallengeOctets) == Self.rfcChallenge)
        #expect(PKCE.challenge(for: Self.rfcVerifier) == Self.rfcChallenge)
        let pkce = try PKCE(verifier: Self.rfcVerifier)
        #expect(pkce.verifier == Self.rfcVerifier)
        #expect(pkce.challenge == Self.rfcChallenge)
        #expect(PKCE.method == "S256")
    }

    @Test func freshVerifiersAre32RandomBytesIn43Characters() {
        var seen = Set<String>()
        for _ in 0 ..< 200 {
            let pkce = PKCE()
            #expect(pkce.verifier.utf8.count == 43)
            #expect(Base64URL.decode(pkce.verifier)?.count == 32)
            #expect(pkce.challenge == PKCE.challenge(for: pkce.verifier))
            #expect(pkce.challenge.utf8.count == 43)
            #expect((try? PKCE(verifier: pkce.verifier)) == pkce)
            seen.insert(pkce.verifier)
        }
        #expect(seen.count == 200)
    }

    /// Boundary lengths and every character of the unreserved set, `.` and `~` included
    /// (base64url never produces them, but RFC 7636 §4.1 allows them).
    @Test(arguments: [
        String(repeating: "a", count: 43),
        String(repeating: "Z", count: 128),
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~",
        String(repeating: "~.", count: 30),
    ])
    func acceptsVerifiersOfTheUnreservedAlphabet(verifier: String) throws {
        let pkce = try PKCE(verifier: verifier)
        #expect(pkce.challenge == Base64URL.encode(SHA256.hash(verifier.utf8)))
    }

    @Test(arguments: [
        "",
        String(repeating: "a", count: 42), // one too short
        String(repeating: "a", count: 129), // one too long
        String(repeating: "a", count: 42) + " ", // a space
        String(repeating: "a", count: 42) + "+", // standard base64
        String(repeating: "a", count: 42) + "/",
        String(repeating: "a", count: 42) + "=", // padding
        String(repeating: "a", count: 42) + "%",
        String(repeating: "a", count: 41) + "é", // 43 bytes, non-ASCII
        String(repeating: "a", count: 42) + "\n",
    ])
    func refusesVerifiersOutsideRFC7636(verifier: String) {
        expectRefusal(.invalidConfiguration) { try PKCE(verifier: verifier) }
        do {
            _ = try PKCE(verifier: verifier)
        } catch {
            #expect(error.reason == .invalidConfiguration)
            if !verifier.isEmpty { #expect(!error.detail.contains(verifier)) }
            #expect(!error.detail.contains("aaaaaaaa"))
        }
    }

    @Test func descriptionsNeverShowTheVerifierOrChallenge() throws {
        let pkce = try PKCE(verifier: Self.rfcVerifier)
        var dumped = ""
        dump(pkce, to: &dumped)
        for text in [
            pkce.description, pkce.debugDescription, String(describing: pkce), String(reflecting: pkce),
            "\(pkce)", dumped,
        ] {
            #expect(!text.contains(Self.rfcVerifier), "\(text)")
            #expect(!text.contains(Self.rfcChallenge), "\(text)")
            #expect(text.contains("<redacted, 43 bytes>"), "\(text)")
        }
    }
}
