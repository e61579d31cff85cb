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

/// The two requests of the device authorization grant (RFC 8628), as values any transport
/// sends like a token request: the same checks of the endpoint, client id and secret, the
/// same form encoding and the same redaction.
extension TokenRequest {
    /// The device code grant's type (RFC 8628 §3.4).
    public static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// The device authorization request (RFC 8628 §3.1): `client_id` and, when given,
    /// `scope`, posted to the device authorization endpoint. Its answer is read by
    /// ``DeviceAuthorizationResponse``.
    ///
    /// - Parameters:
    ///   - endpoint: the provider's `device_authorization_endpoint` (`https`).
    ///   - clientID: the client id.
    ///   - scope: the scopes asked for (RFC 6749 §3.3 syntax), or nil.
    ///   - authentication: ``ClientAuthentication/none`` for a public client (the default);
    ///     a confidential client authenticates as at the token endpoint (RFC 8628 §3.1).
    ///   - allowingLoopbackHTTP: accept `http` to a loopback IP literal (a local server).
    /// - Throws: `invalid_configuration` for a bad endpoint, client id, scope or secret.
    public static func deviceAuthorization(
        endpoint: String, clientID: String, scope: String? = nil, authentication: ClientAuthentication = .none,
        allowingLoopbackHTTP: Bool = false
    ) throws(CallbackError) -> TokenRequest {
        var parameters: [(String, String)] = []
        if let scope {
            try AuthorizationRequest.checkScope(scope)
            parameters.append(("scope", scope))
        }
        return try TokenRequest(
            endpoint: endpoint, naming: "device authorization endpoint", grantType: nil, clientID: clientID,
            authentication: authentication, allowingLoopbackHTTP: allowingLoopbackHTTP, parameters: parameters)
    }

    /// The device access token request (RFC 8628 §3.4): the grant type, the device code and
    /// the client, posted to the token endpoint, once per polling interval. Its answer is a
    /// ``TokenResponse``, read as a ``DevicePoll``.
    ///
    /// - Throws: `invalid_configuration` for a bad endpoint, client id or secret.
    public static func deviceCode(
        _ authorization: DeviceAuthorization, tokenEndpoint: String, clientID: String, authentication: ClientAuthentication = .none,
        allowingLoopbackHTTP: Bool = false
    ) throws(CallbackError) -> TokenRequest {
        try TokenRequest(
            endpoint: tokenEndpoint, naming: "token endpoint", grantType: deviceCodeGrantType, clientID: clientID,
            authentication: authentication, allowingLoopbackHTTP: allowingLoopbackHTTP,
            parameters: [("device_code", authorization.deviceCode)])
    }
}
