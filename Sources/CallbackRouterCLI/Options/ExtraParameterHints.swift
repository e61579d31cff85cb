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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackRouterKit

/// What to do instead of `login --param NAME=…` for a parameter login sets itself: a hint
/// that names login's real options (it has no --state or --nonce).
enum ExtraParameterHints {
    static func loginRefusal(of name: String) -> String? {
        switch name {
        case "client_id": return "--param client_id: use --client-id ID"
        case "scope": return "--param scope: use --scope S (or --no-scope to send none)"
        case "redirect_uri":
            return "--param redirect_uri: the loopback receiver makes its own; with --scheme S, use --redirect-uri U"
        case "response_type": return "--param response_type: login always asks for response_type=code"
        case "response_mode": return "--param response_mode: use --response-mode form_post"
        case "state", "nonce", "code_challenge", "code_challenge_method":
            return
                "--param \(name): login makes a fresh state, nonce and PKCE challenge for each run, and they cannot be set; to choose them, build the request with 'callback-router authorize-url' and wait with 'loopback' or 'listen'"
        default: return nil
        }
    }
}

#endif
