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

/// The options of a wait for the end of a logout (`loopback --logout`, `listen --logout`).
enum LogoutOptions {
    /// `--logout` waits for the provider's redirect to the post-logout redirect URI, checked
    /// as `parse --logout` checks it: the options that tune a login's response do not apply.
    /// The message names the option only, never its value. Shared by `loopback` and `listen`.
    static func refuseLoginOptions(_ args: Arguments) throws(Arguments.UsageError) {
        for option in ["issuer", "dialect", "profile"] where !args.all(option).isEmpty {
            throw Arguments.UsageError(
                description: "--\(option) does not apply to --logout (the end of a logout carries no login response)")
        }
        if args.has("require-issuer") {
            throw Arguments.UsageError(description: "--require-issuer does not apply to --logout (a logout's callback carries no iss)")
        }
        if let mode = args.all("response-mode").last, mode != "query" {
            throw Arguments.UsageError(
                description: "--logout takes no --response-mode but query (the post-logout redirect is a GET with a query)")
        }
    }
}

#endif
