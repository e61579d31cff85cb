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

/// Where code that judges expiry by the wall clock reads the time: the system's
/// (``SystemClock/wallSeconds()``), or one a test sets and moves.
package struct WallClock: Sendable {
    /// Seconds since the epoch, now.
    package let seconds: @Sendable () -> Int64

    package init(seconds: @escaping @Sendable () -> Int64) { self.seconds = seconds }

    /// The system's wall clock.
    package static let system = WallClock(seconds: { SystemClock.wallSeconds() })
}
