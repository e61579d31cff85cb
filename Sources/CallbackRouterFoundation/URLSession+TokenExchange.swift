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

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Sends a token request and reads the answer into a ``TokenResponse``.
    ///
    /// ```swift
    /// let request = try TokenRequest.authorizationCode(for: delivery, redirectURI: …, tokenEndpoint: …, clientID: …)
    /// switch try await URLSession.shared.exchange(request) {
    /// case .tokens(let tokens): …
    /// case .error(let error): …   // invalid_grant, invalid_client…
    /// }
    /// ```
    ///
    /// The request goes out on a session of its own with this session's configuration
    /// (timeouts, proxies, TLS settings), changed so that nothing is kept: no URL cache, no
    /// cookies (RFC 6749 §5.1's `Cache-Control: no-store` is the server's promise; this is
    /// the client's). Redirects are not followed: a 3xx comes back as the answer, which
    /// ``TokenResponse`` refuses (`unknown_status`), so the code and verifier never travel
    /// to a second URL. A body longer than `maxResponseBytes` (announced by
    /// `Content-Length` or counted as it arrives) stops the transfer and is `too_long`.
    /// Certificate validation is the system's (it is what lets the ID token go unsigned,
    /// docs/tokens.md).
    ///
    /// - Throws: ``CallbackError`` for a response ``TokenResponse`` refuses or one over the
    ///   limit; `URLError` when the request does not complete.
    public func exchange(
        _ request: TokenRequest, allowedTokenTypes: [String] = [], maxResponseBytes: Int = TokenResponse.maxBodyBytes
    ) async throws -> TokenResponse {
        guard let url = URL(string: request.url) else {
            throw CallbackError(.invalidConfiguration, "the token endpoint is not a URL Foundation reads")
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.httpBody = Data(request.body)
        urlRequest.httpShouldHandleCookies = false

        let (status, body) = try await TokenExchangeDelegate.send(urlRequest, configuration: configuration, limit: maxResponseBytes)
        return try TokenResponse(status: status, body: body, allowedTokenTypes: allowedTokenTypes, maxBodyBytes: maxResponseBytes)
    }
}
