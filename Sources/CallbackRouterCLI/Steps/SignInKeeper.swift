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

/// Keeps the tokens of a sign-in that another command asked for (`token --login`): login's
/// flow hands its last JSON here instead of printing it when it carries tokens, so stdout
/// carries only what that command prints. A sign-in that ends without tokens (a refusal, a
/// timeout, Ctrl-C) is printed as `login` prints it.
final class SignInKeeper: Sendable {
    private let kept = Locked<JSONValue?>(nil)

    init() {}

    /// The last JSON of a sign-in that ended with tokens (its `"stored"` says where they
    /// went), nil while none did.
    var tokens: JSONValue? { kept.withLock { $0 } }

    /// Keeps `json` when it carries an access token, else prints it as login's last line.
    /// True when the line a person reads may follow (false: stdout lost the JSON).
    func conclude(_ json: JSONValue, context: CommandContext) -> Bool {
        guard json.object?["access_token"]?.string != nil else { return context.printOutcome(json) }
        // Nothing is printed, yet the sign-in is over: a signal from now on ends the command as it is.
        context.interruption?.finish()
        kept.withLock { $0 = json }
        return true
    }
}

#endif
