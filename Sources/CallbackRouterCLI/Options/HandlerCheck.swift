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

import CallbackDesktop
import CallbackRouterKit

/// Checked before a wait on a scheme begins (`listen`, `login --scheme`), not after the
/// person has signed in: whether the desktop hands that scheme's URLs to this helper.
enum HandlerCheck {
    /// A warning naming the command to run, or nil when this helper's desktop entry is the
    /// scheme's default handler. A wait still begins: `open` may be run by other means
    /// (a script, a test, a handler of one's own).
    static func warning(for scheme: CallbackScheme, context: CommandContext) -> String? {
        guard let handler = try? DesktopSchemeHandler(scheme: scheme, environment: context.environment) else { return nil }
        let register = "run 'callback-router register --scheme \(scheme.name)' first"
        guard let current = try? handler.currentDefault() else {
            return
                "no handler is registered for \(scheme.name): URLs (the desktop would not hand the callback to this wait): \(register)"
        }
        guard current == handler.desktopFileName else {
            return
                "\(scheme.name): URLs go to \(current), not to callback-router: \(register) (or make that handler run 'callback-router open')"
        }
        return nil
    }
}

#endif
