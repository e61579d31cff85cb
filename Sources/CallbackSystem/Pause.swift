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

/// Suspends the calling thread for a while: the period of a loop that polls a condition
/// nothing signals (has the browser fetched the link yet, is a minute of the wait over),
/// never a wait for an event that could be signalled.
package enum Pause {
    /// Suspends the calling thread for `milliseconds` (`usleep`); a signal may end it early.
    package static func milliseconds(_ milliseconds: Int) {
        usleep(useconds_t(max(0, milliseconds) * 1000))
    }
}
