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

import CallbackSystem

extension CommandContext {
    /// Whether stderr is a person's terminal: the process's own stderr (not a test's
    /// capture) and a tty. Colours, and a URL that must not reach a log, depend on it.
    package var standardErrorIsTerminal: Bool {
        output is StandardStreams && TerminalDevice.isTerminal(2)
    }

    /// An SSH session (`SSH_CONNECTION` set): a browser started here would open on the
    /// server, not in front of the person.
    package var isSSHSession: Bool {
        environment["SSH_CONNECTION"].map { !$0.isEmpty } ?? false
    }

    /// Over SSH with stdin a terminal, `login` takes a pasted callback URL without being
    /// asked (`--accept-paste`): the browser is on another machine, and a port that could
    /// not be forwarded would otherwise mean starting again. On macOS too: there `poll`
    /// reports a terminal as invalid, so the wait asks the terminal with `select`
    /// (`Readiness` in the system layer; docs/platforms.md says what was compiled where).
    package var offersPasteBack: Bool {
        isSSHSession && TerminalDevice.isTerminal(standardInput)
    }
}

#endif
