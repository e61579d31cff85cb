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

/// A logout the app started (OpenID Connect RP-Initiated Logout 1.0): the end-session
/// request to open in the browser, and the pending attempt its callback completes.
///
/// Made by ``CallbackRouter/beginLogout(on:endSessionEndpoint:idTokenHint:clientID:logoutHint:uiLocales:extraParameters:style:lifetime:)``.
/// Await it with ``CallbackRouter/callback(for:timeout:)-(LogoutAttempt,_)``, cancel it
/// with ``CallbackRouter/cancel(_:)-(LogoutAttempt)``, seal it like a login
/// (`logout.attempt.sealed()`). `description` shows no state and no `id_token_hint`.
public struct LogoutAttempt: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The pending attempt (``LoginAttempt/purpose`` is ``AttemptPurpose/logout``): its
    /// state is the one sent; its PKCE pair and nonce are not used.
    public let attempt: LoginAttempt
    /// The end-session request; its URL carries the `id_token_hint`, a secret.
    public let request: EndSessionRequest
    /// The URL to open in the browser (``EndSessionRequest/url``).
    public var url: String { request.url }
    /// The route whose redirect URI is the post-logout redirect URI.
    public var route: RouteID { attempt.route }

    /// The same logout when the attempts are the same.
    public static func == (a: LogoutAttempt, b: LogoutAttempt) -> Bool { a.attempt == b.attempt }
    /// Hashes the attempt's id, never a secret.
    public func hash(into hasher: inout Hasher) { hasher.combine(attempt) }
    /// The attempt and the request, both redacted.
    public var description: String { "LogoutAttempt(\(attempt), \(request))" }
    /// The same redacted text as `description`.
    public var debugDescription: String { description }
    /// `dump()` shows the redacted description only.
    public var customMirror: Mirror { Mirror(self, children: ["logout": description], displayStyle: .struct) }
}
