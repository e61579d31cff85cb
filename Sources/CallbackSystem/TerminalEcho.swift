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

/// A terminal's echo turned off while a secret is pasted (the `refresh` token), and turned
/// back on after. `tcgetattr`/`tcsetattr` are wrapped here once (the package's libc rule).
package struct TerminalEcho: @unchecked Sendable {
    private let fd: Int32
    private let saved: termios

    /// Turns echo off on `fd` when it is a terminal; nil when it is not, or cannot be.
    package static func off(_ fd: Int32) -> TerminalEcho? {
        guard isatty(fd) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(fd, TCSANOW, &quiet) == 0 else { return nil }
        return TerminalEcho(fd: fd, saved: saved)
    }

    /// Puts the terminal back as it was.
    package func restore() {
        var saved = saved
        _ = tcsetattr(fd, TCSANOW, &saved)
    }
}
