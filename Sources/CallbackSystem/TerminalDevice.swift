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

/// What the process's descriptors are connected to, when that changes what a command does:
/// a person at a terminal is asked and shown colours; a pipe or a log is not.
package enum TerminalDevice {
    /// Whether `fd` is open on a terminal (`isatty`).
    package static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}

extension LineReader {
    /// The `SystemError.code` of ``LineReader/readLine(from:maxBytes:until:)`` when the
    /// deadline passed before a whole line arrived (`ETIMEDOUT`).
    package static let timedOutCode: Int32 = ETIMEDOUT
    /// The `SystemError.code` of ``LineReader/readLine(from:maxBytes:until:)`` when the line
    /// was longer than `maxBytes` (`EFBIG`).
    package static let tooLongCode: Int32 = EFBIG
}
