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

import CallbackRouter

/// How the wait ended.
enum LoopbackServerOutcome: Sendable {
    /// A callback ended the wait (success, provider failure, or a refused answer that
    /// carried the expected state).
    case finished(LoopbackEvaluation)
    /// The deadline passed; `ignored` requests reached the callback path without ending it.
    case timedOut(ignored: Int)
    /// ``LoopbackServer/requestStop()`` ended the wait (task cancellation, or the router
    /// delivered the callback to its waiter).
    case stopped(ignored: Int)
}
