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

@Suite struct AttemptSecretsTests {
    @Test func freshSecretsAre256BitBase64URLTokens() {
        let secrets = AttemptSecrets()
        for token in [secrets.state, secrets.nonce, secrets.pkce.verifier] {
            #expect(token.utf8.count == 43)
            #expect(Base64URL.decode(token)?.count == 32)
        }
        #expect(Set([secrets.state, secrets.nonce, secrets.pkce.verifier]).count == 3)
    }

    @Test func freshSecretsDifferEveryTime() {
        let states = Set((0 ..< 500).map { _ in AttemptSecrets().state })
        #expect(states.count == 500)
    }

    @Test(arguments: [16, 24, 32, 64])
    func randomTokensCarryTheBytesAskedFor(bytes: Int) {
        let token = AttemptSecrets.randomToken(bytes: bytes)
        #expect(Base64URL.decode(token)?.count == bytes)
        #expect(token.utf8.allSatisfy(PercentEncoding.isUnreserved))
    }

    @Test func restoresValidSecrets() throws {
        let pkce = PKCE()
        let secrets = try AttemptSecrets(state: "af0ifjsldkj", pkce: pkce, nonce: "n-0S6_WzA2Mj")
        #expect(secrets.state == "af0ifjsldkj")
        #expect(secrets.nonce == "n-0S6_WzA2Mj")
        #expect(secrets.pkce == pkce)
    }

    @Test(arguments: ["", "a\u{7F}b", "tab\there", "line\nbreak", "é", String(repeating: "s", count: 513)])
    func refusesNoncesThatCannotTravelUnchanged(nonce: String) {
        expectRefusal(.invalidConfiguration) { try AttemptSecrets(state: "state", pkce: PKCE(), nonce: nonce) }
    }

    @Test(arguments: ["", String(repeating: "s", count: 513)])
    func refusesOnlyEmptyOrOverlongStates(state: String) {
        expectRefusal(.invalidConfiguration) { try AttemptSecrets(state: state, pkce: PKCE(), nonce: "nonce") }
    }

    /// A state is the client's opaque value: one with any characters is kept as given.
    @Test(arguments: ["état-✓-東京", "a\u{7F}b", "tab\there", "line\nbreak", String(repeating: "s", count: 512)])
    func acceptsAStateWhateverItsCharacters(state: String) throws {
        #expect(try AttemptSecrets(state: state, pkce: PKCE(), nonce: "nonce").state == state)
    }

    @Test func descriptionsShowOnlyLengths() {
        let secrets = AttemptSecrets()
        var dumped = ""
        dump(secrets, to: &dumped)
        for text in [secrets.description, secrets.debugDescription, "\(secrets)", dumped] {
            for secret in [secrets.state, secrets.nonce, secrets.pkce.verifier, secrets.pkce.challenge] {
                #expect(!text.contains(secret), "\(text)")
            }
            #expect(text.contains("<redacted, 43 bytes>"))
        }
    }
}
