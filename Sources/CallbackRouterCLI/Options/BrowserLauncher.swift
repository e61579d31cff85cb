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

import CallbackLoopback
import CallbackRouter
import CallbackSystem

/// How `login` gets the sign-in URL in front of a person: shown every time, a browser tried
/// in turn, a browser that failed or never came noticed and said. `name` is the command's,
/// for its stderr lines.
enum BrowserLauncher {
    /// How long a browser command has to fail (exit non-zero) before it counts as started:
    /// `xdg-open` without a display, or `BROWSER=false`, exits within this.
    static let browserGraceMilliseconds: Int64 = 1500

    /// The programs to try, in order: each `$BROWSER` entry (':'-separated, as
    /// sensible-browser reads it), then `xdg-open`.
    static func browserCandidates(_ environment: [String: String]) -> [String] {
        let entries = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return entries.contains("xdg-open") ? entries : entries + ["xdg-open"]
    }

    /// Tries each candidate with `url` until one starts (runs past the grace period or
    /// exits 0); says on stderr which failed and which took it. The name of the program
    /// that took it, or nil.
    static func launchBrowser(_ url: String, name: String, context: CommandContext) -> String? {
        for candidate in browserCandidates(context.environment) {
            guard let path = Subprocess.find(candidate, environment: context.environment) else {
                context.printError("\(name): the browser command '\(candidate)' was not found")
                continue
            }
            guard let pid = Subprocess.spawn(path, [url], environment: context.environment, standardOutput: nil) else {
                context.printError("\(name): the browser command '\(candidate)' could not be started")
                continue
            }
            if let status = Subprocess.exitStatus(of: pid, withinMilliseconds: browserGraceMilliseconds), status != 0 {
                context.printError("\(name): the browser command '\(candidate)' failed (exit status \(status))")
                continue
            }
            return candidate
        }
        return nil
    }

    /// The loopback login: the start URL is always shown; under SSH no browser is started
    /// here (the ssh -L line and the paste-back are offered instead); else each browser is
    /// tried, and if none took it, or none has fetched the link after a while, stderr says
    /// so while the wait goes on. Returns a watcher to stop once the wait is over.
    static func presentStartURL(
        _ receiver: LoopbackReceiver, noBrowser: Bool, pasting: Bool, seconds: Double, name: String, context: CommandContext
    ) -> Locked<Bool> {
        let over = Locked(false)
        let url = receiver.startURL
        if context.isSSHSession {
            context.printError(
                "\(name): this is an SSH session, so no browser is started here. Open this URL in a browser on your computer:")
            context.printError("\(name):   \(url)")
            if let line = LoopbackOptions.sshForwardingHint(port: receiver.port, environment: context.environment) {
                context.printError("\(name): \(line)")
            }
            if !pasting {
                context.printError(
                    "\(name): if the port cannot be forwarded, run login again with --accept-paste and paste here the address the browser ends at"
                )
            }
            return over
        }
        context.printError("\(name): the sign-in link (it works once): \(url)")
        guard !noBrowser else { return over }
        guard let program = launchBrowser(url, name: name, context: context) else {
            context.printError("\(name): no browser could be started: open the link above yourself")
            return over
        }
        context.printError("\(name): opened in the browser ('\(program)')")
        // A browser command that exits 0 without showing anything (BROWSER=true, a dead
        // display) is noticed by the link never being fetched.
        let patience = min(15, max(seconds / 3, 0.5))
        _ = DetachedThread.start { [over] in
            let deadline = Deadline.after(milliseconds: Int64(patience * 1000))
            while !deadline.hasPassed {
                if over.withLock({ $0 }) || receiver.startURLWasUsed { return }
                usleep(50_000)
            }
            over.withLock { finished in
                guard !finished, !receiver.startURLWasUsed else { return }
                context.printError(
                    "\(name): no browser has opened the link after \(Durations.describe(seconds: patience)): open it yourself: \(url)")
            }
        }
        return over
    }

    /// The `--scheme` login: the authorization URL holds this login's state, so it is given
    /// to a browser, or shown only on a terminal (a person's screen), never to a log.
    static func presentAuthorizationURL(_ url: String, noBrowser: Bool, name: String, context: CommandContext) {
        if !noBrowser && !context.isSSHSession, let program = launchBrowser(url, name: name, context: context) {
            context.printError("\(name): opened the authorization URL in the browser ('\(program)')")
            return
        }
        if context.standardErrorIsTerminal {
            context.printError(
                "\(name): open this URL in a browser on this machine (shown because stderr is a terminal: it holds this login's state):")
            context.printError("\(name):   \(url)")
        } else {
            context.printError(
                "\(name): the authorization URL holds this login's state, so it is shown only when stderr is a terminal; run login there, or use 'authorize-url' and 'listen'"
            )
        }
    }
}

#endif
