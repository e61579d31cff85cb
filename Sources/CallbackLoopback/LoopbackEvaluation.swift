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

/// What one callback request means, and whether it belongs to this login.
struct LoopbackEvaluation: Sendable {
    enum Kind: Sendable, Equatable {
        case success
        case providerFailure
        case rejected
    }

    let kind: Kind
    /// The validated outcome, or the refusal: exactly what `callback-router parse` decides.
    let result: Result<CallbackOutcome, CallbackError>
    /// The provider's `error` value, for the page (shown only when it is a plain token).
    let providerError: String?
    /// The refusal's reason code, for the log.
    let reason: ReasonCode?
    /// The callback carries exactly one `state`, equal (in constant time) to the expected one.
    let carriesExpectedState: Bool
}
