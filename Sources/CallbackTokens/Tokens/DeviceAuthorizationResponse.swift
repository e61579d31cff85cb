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

/// What the device authorization endpoint answered (RFC 8628 §3.2): the codes and where the
/// user enters one, or an error response (RFC 6749 §5.2, e.g. `invalid_client`,
/// `invalid_scope`).
///
/// Read as strictly as a token response (docs/tokens.md): the status first (a 3xx, 5xx or
/// other status is `unknown_status`, its body unread), at most ``TokenResponse/maxBodyBytes``
/// of strict JSON, an object; HTTP 200 with an `error` member is `ambiguous_response`.
public enum DeviceAuthorizationResponse: Sendable, CustomStringConvertible {
    /// HTTP 200: the device and user codes.
    case authorization(DeviceAuthorization)
    /// An error response, typically HTTP 400 or 401.
    case error(TokenError)

    /// Reads the device authorization endpoint's answer: its HTTP status and body.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code of the response.
    ///   - body: the response body's bytes (UTF-8 JSON).
    ///   - allowingLoopbackHTTP: accept a verification URI with `http` to a loopback IP
    ///     literal (a local test server); otherwise it must be `https`.
    ///   - maxBodyBytes: the largest body read; a longer one is `too_long`.
    public init(
        status: Int, body: some Collection<UInt8>, allowingLoopbackHTTP: Bool = false, maxBodyBytes: Int = TokenResponse.maxBodyBytes
    ) throws(CallbackError) {
        switch try EndpointStatus.read(
            status: status, body: body, maxBodyBytes: maxBodyBytes, endpoint: "the device authorization endpoint",
            answer: "the device authorization response", readingAs: "codes")
        {
        case .success(let object): self = .authorization(try DeviceAuthorization(object, allowingLoopbackHTTP: allowingLoopbackHTTP))
        case .failure(let error): self = .error(error)
        }
    }

    /// The codes or the error, redacted.
    public var description: String {
        switch self {
        case .authorization(let authorization): "DeviceAuthorizationResponse.authorization(\(authorization))"
        case .error(let error): "DeviceAuthorizationResponse.error(\(error))"
        }
    }
}
