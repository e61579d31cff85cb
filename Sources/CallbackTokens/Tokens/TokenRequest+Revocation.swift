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

/// The revocation request (RFC 7009 §2.1), as a value any transport sends like a token
/// request: the same checks of the endpoint, client id and secret, the same form encoding
/// and the same redaction (the token is in the body, which no description shows).
extension TokenRequest {
    /// The request that revokes `token` at the provider's `revocation_endpoint`: `token`,
    /// `token_type_hint` when given (`refresh_token` or `access_token`, RFC 7009 §2.1), and
    /// the client's authentication as at the token endpoint (`client_id` for a public
    /// client). A 200 answer means revoked, or already invalid (RFC 7009 §2.2).
    ///
    /// - Throws: `invalid_configuration` for an empty or non-VSCHAR token, a bad endpoint,
    ///   client id or secret.
    public static func revocation(
        _ token: String, typeHint: String? = nil, revocationEndpoint: String, clientID: String,
        authentication: ClientAuthentication = .none, allowingLoopbackHTTP: Bool = false
    ) throws(CallbackError) -> TokenRequest {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            throw CallbackError(.invalidConfiguration, "the token to revoke is empty or not VSCHAR (%x20-7E)")
        }
        var parameters = [("token", token)]
        if let typeHint { parameters.append(("token_type_hint", typeHint)) }
        return try TokenRequest(
            endpoint: revocationEndpoint, naming: "revocation endpoint", grantType: nil, clientID: clientID,
            authentication: authentication, allowingLoopbackHTTP: allowingLoopbackHTTP, parameters: parameters)
    }
}
