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

/// How a client authenticates to the token endpoint (RFC 6749 §2.3.1; OpenID Connect Core
/// §9 names the methods).
///
/// ```swift
/// .none                                   // a public client (a native app): client_id in the body
/// .clientSecretBasic("s3cr3t")            // Authorization: Basic base64(id:secret), each form-urlencoded first
/// .clientSecretPost("s3cr3t")             // client_id and client_secret in the body
/// ```
///
/// The secret never shows in `description`, `debugDescription` or `dump`.
public struct ClientAuthentication: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    enum Method: Sendable, Hashable {
        case none
        case basic
        case post
    }

    let method: Method
    let secret: String?

    /// A public client (`token_endpoint_auth_method` `none`): the body carries `client_id`
    /// and the PKCE verifier is the only proof (RFC 8252 §8.4).
    public static let none = ClientAuthentication(method: .none, secret: nil)

    /// `client_secret_basic`: the client id and the secret, each form-urlencoded (RFC 6749
    /// §2.3.1, Appendix B), joined by `:` and base64-encoded into `Authorization: Basic`.
    public static func clientSecretBasic(_ secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .basic, secret: secret)
    }

    /// `client_secret_post`: `client_id` and `client_secret` in the request body.
    public static func clientSecretPost(_ secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .post, secret: secret)
    }

    /// The method's registered name (`none`, `client_secret_basic`, `client_secret_post`).
    public var methodName: String {
        switch method {
        case .none: "none"
        case .basic: "client_secret_basic"
        case .post: "client_secret_post"
        }
    }

    /// The method and the secret's length, never the secret.
    public var description: String {
        guard let secret else { return "ClientAuthentication(none)" }
        return "ClientAuthentication(\(methodName), secret: <redacted, \(secret.utf8.count) bytes>)"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the secret.
    public var customMirror: Mirror { Mirror(self, children: ["authentication": description], displayStyle: .struct) }
}
