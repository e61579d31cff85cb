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

import CallbackTokens
import Testing

/// The revocation request (RFC 7009 §2.1): the token and its hint in a form body, the
/// client's authentication, the token endpoint's checks, and no token in any description.
@Suite struct TokenRevocationRequestTests {
    @Test func aPublicClientPostsTheTokenItsHintAndItsClientID() throws {
        let request = try TokenRequest.revocation(
            "RT-secret-9", typeHint: "refresh_token", revocationEndpoint: "https://op.example/revoke", clientID: "app")
        #expect(request.method == "POST" && request.url == "https://op.example/revoke")
        #expect(String(decoding: request.body, as: UTF8.self) == "token=RT-secret-9&token_type_hint=refresh_token&client_id=app")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, request.debugDescription, dumped] { #expect(!text.contains("RT-secret-9"), "\(text)") }
    }

    @Test func aConfidentialClientAuthenticatesWithBasic() throws {
        let request = try TokenRequest.revocation(
            "AT-1", revocationEndpoint: "https://op.example/revoke", clientID: "app", authentication: .clientSecretBasic("s3cret"))
        #expect(request.header("Authorization")?.hasPrefix("Basic ") == true)
        #expect(String(decoding: request.body, as: UTF8.self) == "token=AT-1")
    }

    @Test(arguments: ["http://op.example/revoke", "https://user@op.example/revoke", "not a url"])
    func anEndpointTheTokenEndpointWouldRefuseIsRefused(_ endpoint: String) {
        #expect(throws: CallbackError.self) { try TokenRequest.revocation("RT", revocationEndpoint: endpoint, clientID: "app") }
    }

    @Test func anEmptyOrControlCharacterTokenIsRefused() {
        for token in ["", "RT\nx"] {
            #expect(throws: CallbackError.self) {
                try TokenRequest.revocation(token, revocationEndpoint: "https://op.example/revoke", clientID: "app")
            }
        }
    }
}
