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

/// How a blocking wait (``LoopbackReceiver/receive(expecting:until:log:)``) ended.
public enum LoopbackWaitResult: Sendable {
    /// A callback ended the wait: its outcome (a provider failure such as
    /// `authorization_error` too), or the refusal of a callback that carried this login's
    /// state (such as `issuer_mismatch`): with the right state, the provider's final word.
    case callback(Result<CallbackOutcome, CallbackError>)
    /// The deadline passed; `ignoredRequests` reached the callback path without ending it.
    case timedOut(ignoredRequests: Int)
    /// ``LoopbackReceiver/close()`` or task cancellation ended the wait first.
    case stopped
}
