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

extension CommandContext {
    /// The exit code for a wait that ended `.stopped`: 130 / 143 when a signal stopped it,
    /// else 75 (the receiver closed from elsewhere: try again).
    func stoppedExitCode() -> Int32 {
        interruption?.exitCode ?? ExitCode.tryAgain
    }

    /// The outcome for a wait that ended `.stopped`.
    func stoppedJSON() -> JSONValue {
        if let signal = interruption?.signal { return Interruption.cancelledJSON(signal: signal) }
        return Rendering.rejectionJSON(reason: .cancelled, detail: "the wait was stopped", offset: nil)
    }
}

#endif
