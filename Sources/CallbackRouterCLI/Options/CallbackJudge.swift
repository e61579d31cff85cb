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

/// How a received URL is judged: by a ``CallbackValidator`` directly, as a login's callback
/// or as the end of a logout. `parse`, `listen` and `login --scheme` judge through it.
struct CallbackJudge: Sendable {
    /// Reading a URL as the end of a logout (`validateLogout`).
    struct Logout: Sendable {
        /// The logout sent no state (`--no-state`): a callback without one is its end.
        let allowingNoState: Bool
    }

    let validator: CallbackValidator
    let limits: ParsingLimits
    /// nil: a login's callback.
    var logout: Logout? = nil

    func callAsFunction(_ url: String) -> Result<CallbackOutcome, CallbackError> {
        do {
            if let logout {
                return .success(try validator.validateLogout(url, allowingNoState: logout.allowingNoState, limits: limits))
            }
            return .success(try validator.validate(url, limits: limits))
        } catch {
            return .failure(error)
        }
    }
}

#endif
