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
import CallbackRouterKit
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
        var sshLines = ["this is an SSH session, so no browser is started here. Open this URL in a browser on your computer:"]
        sshLines.append("  \(receiver.startURL)")
        if let line = LoopbackOptions.sshForwardingHint(port: receiver.port, environment: context.environment) {
            sshLines.append(line)
        }
        if !pasting {
            sshLines.append(
                "if the port cannot be forwarded, run login again with --accept-paste and paste here the address the browser ends at")
        }
        return presentStartLink(
            receiver.startURL, wasUsed: { receiver.startURLWasUsed }, sshLines: sshLines, noBrowser: noBrowser, seconds: seconds,
            name: name, context: context)
    }

    /// The `--scheme` login: the browser is opened on the start link that `link` serves on
    /// 127.0.0.1, never on the authorization URL (a browser's command line is readable by
    /// every local user: the state, challenge and nonce must not be in it). The link holds
    /// no secret of its own worth hiding (it works once, for this user), so it is shown like
    /// the loopback login's. Under SSH no browser is started: the link must be opened on this
    /// machine's desktop, where the scheme's handler is registered.
    static func presentStartLink(
        _ link: LoopbackStartLink, noBrowser: Bool, seconds: Double, name: String, context: CommandContext
    ) -> Locked<Bool> {
        let sshLines = [
            "this is an SSH session, so no browser is started here. Open this link in a browser on this machine's desktop, where the scheme's handler is registered:",
            "  \(link.url)",
        ]
        return presentStartLink(
            link.url, wasUsed: { link.wasUsed }, sshLines: sshLines, noBrowser: noBrowser, seconds: seconds, name: name,
            context: context)
    }

    /// Shows a one-time start link and opens a browser on it (not under SSH, where
    /// `sshLines` are said instead, nor with `noBrowser`); a browser that took it but has
    /// not fetched it after a third of the wait (15 s at most) is noticed on stderr.
    private static func presentStartLink(
        _ url: String, wasUsed: @escaping @Sendable () -> Bool, sshLines: [String], noBrowser: Bool, seconds: Double, name: String,
        context: CommandContext
    ) -> Locked<Bool> {
        let over = Locked(false)
        if context.isSSHSession {
            for line in sshLines { context.printError("\(name): \(line)") }
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
                if over.withLock({ $0 }) || wasUsed() { return }
                Pause.milliseconds(50)
            }
            over.withLock { finished in
                guard !finished, !wasUsed() else { return }
                context.printError(
                    "\(name): no browser has opened the link after \(Durations.describe(seconds: patience)): open it yourself: \(url)")
            }
        }
        return over
    }
}

#endif
