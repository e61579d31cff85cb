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

/// What the receiver makes of one callback request.
struct LoopbackJudgement: Sendable {
    enum Disposition: Sendable, Equatable {
        /// This callback ends the wait: it is the result.
        case endsWait
        /// Accepted and answered with its page, but the wait is ended by someone else (the
        /// router's waiter), through ``LoopbackServer/requestStop()``.
        case accepted
        /// Not this login's: answered, and the wait goes on.
        case ignored
    }

    var evaluation: LoopbackEvaluation
    var disposition: Disposition
}

/// Decides what one callback URL means; called on the server's thread.
typealias LoopbackJudge = @Sendable (_ callbackURL: String) -> LoopbackJudgement
