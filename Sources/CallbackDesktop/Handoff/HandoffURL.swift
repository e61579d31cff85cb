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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackRouter

/// A URL that can be handed off: a callback URL (the project's parser) on a scheme a callback
/// can use, with at most one `state`, the one value routing reads. Nothing else is judged
/// here: the receiver validates the callback (``HandoffReceiver``, a `CallbackRouter`).
///
/// ✅ `myapp://callback?code=abc&state=xyz`, `com.example.app:/cb#state=xyz&code=abc`.
/// ❌ `https://example.com/` (`scheme_not_allowed`), `myapp://cb?state=a&state=b`
/// (`duplicate_parameter`), `myapp://cb?x=%zz` (`invalid_percent_encoding`).
///
/// Its `description` names the scheme only: the URL holds secrets.
public struct HandoffURL: Sendable, CustomStringConvertible {
    /// The URL as given (sent to the receiver byte for byte).
    let text: String
    let route: CallbackRoute

    /// Parses and checks `text` for the hand-off.
    ///
    /// - Throws: `CallbackError` with the parser's reason and byte offset (`invalid_character`,
    ///   `relative_reference`…), `invalid_scheme` or `scheme_not_allowed` for the scheme,
    ///   `duplicate_parameter` for two `state`s.
    public init(validating text: String) throws(CallbackError) {
        let url: CallbackURL
        do { url = try CallbackURL(parsing: text) } catch { throw CallbackError(error) }
        route = try CallbackRoute(url)
        self.text = text
    }

    /// The URL's scheme, lowercased.
    public var scheme: CallbackScheme { route.scheme }

    /// `callback URL for SCHEME (redacted)`: never the URL itself.
    public var description: String { "callback URL for \(route.scheme.name) (redacted)" }
}

#endif
