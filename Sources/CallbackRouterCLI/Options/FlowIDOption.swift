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

/// `--flow-id ID` (`listen`, `parse`): the Clerk magic-link flow a callback must be for, as
/// clerk-ios and clerk-android accept a link only for their pending flow.
enum FlowIDOption {
    static let declaration = OptionDeclaration.value(
        "flow-id", "ID",
        "With --dialect clerk: the magic-link flow this login waits for (Clerk's sign-in or sign-up id, sia_… or sua_…). A magic_link for another flow is state_mismatch (constant-time comparison); listen takes only that flow's link, from the spool too, and another flow's does not end the wait."
    )

    /// The `--flow-id` given, checked: only with `--dialect clerk`, never with a state or
    /// `--logout`, and a flow id's syntax (1 to 128 ASCII letters, digits, `_`, `-`).
    static func read(_ args: Arguments, dialect: Dialect) throws(Arguments.UsageError) -> String? {
        guard let flowID = try args.single(declaration) else { return nil }
        guard dialect == .clerk else { throw Arguments.UsageError(description: "--flow-id needs --dialect clerk") }
        if args.gave(CommonOptions.state) || args.has(CommonOptions.stateFromStdin) || args.has(LogoutOptions.logout) {
            throw Arguments.UsageError(
                description: "--flow-id binds a magic link, which carries no state: it excludes --state, --state-from-stdin and --logout")
        }
        do { try LoginAttempt.checkFlowID(flowID) } catch { throw Arguments.UsageError(description: "--flow-id: " + error.detail) }
        return flowID
    }

    /// `result` with a magic link for another flow than `flowID` refused as `state_mismatch`
    /// (another login's answer, as the router refuses it); unchanged without a flow id.
    static func check(_ result: Result<CallbackOutcome, CallbackError>, flowID: String?) -> Result<CallbackOutcome, CallbackError> {
        guard let flowID, case .success(let outcome) = result, outcome.kind == .magicLink,
            !constantTimeEquals(outcome.flowID ?? "", flowID)
        else { return result }
        return .failure(
            CallbackError(
                .stateMismatch,
                "the magic link is for another Clerk sign-in flow than --flow-id, so it is another login's: open the link from the latest email"
            ))
    }
}

#endif
