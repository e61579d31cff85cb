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

import CallbackLoopback
import CallbackRouter
import CallbackRouterKit
import CallbackTokens
import CallbackSystem

/// A refusal of the token step: its reason code, a detail free of secrets, the exit code,
/// and the step that refused (`discovery`, `token_request`, `token_response`, `id_token`).
struct StepFailure: Error {
    let reason: ReasonCode
    let detail: String
    let exit: Int32
    let step: String

    init(reason: ReasonCode, detail: String, exit: Int32, step: String) {
        self.reason = reason
        self.detail = detail
        self.exit = exit
        self.step = step
    }

    init(_ error: CallbackError, step: String) {
        self.init(reason: error.reason, detail: error.detail, exit: Rendering.exitCode(for: error), step: step)
    }

    init(_ failure: CurlTransport.Failure, step: String) {
        self.init(reason: failure.reason, detail: failure.detail, exit: failure.exitCode, step: step)
    }

    /// Prints `{"outcome":"rejected","reason":…,"detail":…,"offset":null,"step":…}` and returns the exit code.
    func print(context: CommandContext, appending extra: [(String, JSONValue)] = []) -> Int32 {
        context.printJSON(json(appending: extra))
        return exit
    }

    /// `{"outcome":"rejected","reason":…,"detail":…,"offset":null,"step":…}` with `extra` after.
    func json(appending extra: [(String, JSONValue)] = []) -> JSONValue {
        Rendering.rejectionJSON(reason: reason, detail: detail, offset: nil).appending([("step", .string(step))] + extra)
    }
}

#endif
