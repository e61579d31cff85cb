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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CommandContext {
    /// Whether stderr is a person's terminal: the process's own stderr (not a test's
    /// capture) and a tty. Colours, and a URL that must not reach a log, depend on it.
    var standardErrorIsTerminal: Bool {
        output is StandardStreams && isatty(2) == 1
    }

    /// An SSH session (`SSH_CONNECTION` set): a browser started here would open on the
    /// server, not in front of the person.
    var isSSHSession: Bool {
        environment["SSH_CONNECTION"].map { !$0.isEmpty } ?? false
    }

    /// Over SSH with stdin a terminal, `login` takes a pasted callback URL without being
    /// asked (`--accept-paste`): the browser is on another machine, and a port that could
    /// not be forwarded would otherwise mean starting again. Linux only: on macOS `poll`
    /// reports a terminal as invalid, so there only `--accept-paste` turns it on.
    var offersPasteBack: Bool {
        #if os(Linux)
        return isSSHSession && isatty(standardInput) == 1
        #else
        return false
        #endif
    }
}
