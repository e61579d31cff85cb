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

import CallbackRouter
import CallbackRouterKit
import CallbackSystem

/// A wait that cannot end says so: with a wrong client id or an
/// unregistered redirect URI the provider shows its own error page and never redirects.
/// On a terminal only (a log is not flooded): a line each full minute with the time left,
/// and once, at two thirds of the wait, the likely causes. Ctrl-C is untouched.
enum WaitReminder {
    /// Starts reminding on `name`'s behalf for `seconds`; setting the returned flag to true
    /// (when the wait ends) stops it, under its lock, so no line follows the outcome.
    /// `scheme`: the wait is for a custom scheme's callback, whose handler (`register`) is
    /// one more likely cause.
    static func start(seconds: Double, redirectURI: String, scheme: String? = nil, name: String, context: CommandContext) -> Locked<Bool> {
        let over = Locked(false)
        guard context.standardErrorIsTerminal else { return over }
        let started = SystemClock.monotonicMilliseconds()
        let total = Int64(seconds * 1000)
        _ = DetachedThread.start { [over] in
            var minutes: Int64 = 0
            var hinted = false
            while true {
                Pause.milliseconds(200)
                let elapsed = SystemClock.monotonicMilliseconds() - started
                guard elapsed < total else { return }
                let left = Durations.describe(seconds: Double((total - elapsed + 999) / 1000))
                let done = over.withLock { finished -> Bool in
                    guard !finished else { return true }
                    if !hinted, elapsed * 3 >= total * 2 {
                        hinted = true
                        context.printError(
                            "\(name): still no callback (\(left) left). If the browser shows the provider's error page, check"
                                + " the client id and that the provider has this redirect URI registered: \(redirectURI)"
                                + (scheme.map {
                                    "; if the browser asked to open an app and nothing came, check that the handler of \($0): is registered"
                                        + " (callback-router status --scheme \($0); callback-router register)"
                                } ?? ""))
                    } else if elapsed / 60_000 > minutes {
                        minutes = elapsed / 60_000
                        context.printError("\(name): still waiting for the callback (\(left) left; Ctrl-C stops)")
                    }
                    return false
                }
                if done { return }
            }
        }
        return over
    }
}

#endif
