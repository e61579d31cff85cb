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
    /// Waiting for (or reading) a login's callback: the default mode.
    static let loginMode = CommandMode("login")
    /// `--logout`: the end of a logout, which carries no login response.
    static let logoutMode = CommandMode("logout", chosenBy: "logout")
    /// The two modes of `parse`, `loopback` and `listen`.
    static let modes = [loginMode, logoutMode]

    /// `--logout`; each command says what it means for it (``OptionDeclaration/described(_:)``).
    static let logout = OptionDeclaration.flag("logout", "Wait for the end of a logout instead.").only(in: logoutMode)

    /// `--logout` waits for the provider's redirect to the post-logout redirect URI, checked
    /// as `parse --logout` checks it: the options that tune a login's response apply only in
    /// ``loginMode``, and `--response-mode` may only say query. The message names the option
    /// only, never its value. Shared by `loopback` and `listen`.
    static func refuseLoginOptions(_ args: Arguments) throws(Arguments.UsageError) {
        if let mode = args.all(OptionValues.responseMode.declaration()).last, mode != "query" {
            throw Arguments.UsageError(
                description: "--logout takes no --response-mode but query (the post-logout redirect is a GET with a query)")
        }
    }
}

#endif
