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

/// The result of the server's thread, awaited by the task that started it.
final class LoopbackCompletion: Sendable {
    private let state = Locked<(result: LoopbackServerOutcome?, waiter: CheckedContinuation<LoopbackServerOutcome, Never>?)>((nil, nil))

    func finish(_ result: LoopbackServerOutcome) {
        let waiter = state.withLock { state -> CheckedContinuation<LoopbackServerOutcome, Never>? in
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    func value() async -> LoopbackServerOutcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> LoopbackServerOutcome? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
