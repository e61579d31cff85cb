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
    /// Fetches and checks an issuer's metadata document (OpenID Connect Discovery 1.0,
    /// RFC 8414): `GET` the well-known URL (``ProviderMetadata/discoveryURL(issuer:style:allowingLoopbackHTTP:)``),
    /// then ``ProviderMetadata/init(parsing:expectedIssuer:allowingLoopbackHTTP:requiringS256:style:)``.
    ///
    /// As ``exchange(_:allowedTokenTypes:maxResponseBytes:)``: a session of its own without
    /// cache or cookies, no redirect followed, the body bounded by `maxResponseBytes`.
    ///
    /// - Throws: ``CallbackError``: `invalid_configuration` for a bad issuer, `unknown_status`
    ///   for an HTTP status other than 200 (a redirect included; its detail names the
    ///   status and what to check; the body is not read), `too_long`, and every
    ///   refusal of the document; `URLError` when the request does not complete.
    public func discover(
        issuer: String, style: ProviderMetadata.DiscoveryStyle = .openIDConnect, allowingLoopbackHTTP: Bool = false,
        requiringS256: Bool = false, maxResponseBytes: Int = TokenResponse.maxBodyBytes
    ) async throws -> ProviderMetadata {
        let location = try ProviderMetadata.discoveryURL(issuer: issuer, style: style, allowingLoopbackHTTP: allowingLoopbackHTTP)
        guard let url = URL(string: location) else {
            throw CallbackError(.invalidConfiguration, "the discovery URL is not a URL Foundation reads")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpShouldHandleCookies = false
        let (status, body) = try await TokenExchangeDelegate.send(request, configuration: configuration, limit: maxResponseBytes)
        guard status == 200 else {
            throw EndpointStatus.refusal(status, from: "the discovery URL \(location)")
        }
        return try ProviderMetadata(
            parsing: body, expectedIssuer: issuer, allowingLoopbackHTTP: allowingLoopbackHTTP, requiringS256: requiringS256,
            style: style)
    }
}
