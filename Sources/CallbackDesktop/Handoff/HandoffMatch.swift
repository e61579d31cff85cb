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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackRouter

/// The routing rule, shared by live delivery and the spool.
enum HandoffMatch {
    /// A listener's answer to an offered callback.
    enum Answer: UInt8 {
        /// The listener expects exactly this state.
        case exact = 0x45 // "E"
        /// A candidate without a state match: the listener expects no state (a stateless
        /// dialect, or it validates whatever arrives, as `parse` without `--state`).
        case candidate = 0x57 // "W"
        /// Another scheme, another state, or no state for a listener that expects one.
        case notMine = 0x4E // "N"
    }

    /// A listener that expects a state takes only a callback that carries exactly that
    /// state: one without a state is not its own (any web page can make the browser open
    /// `myapp:x` or `myapp:/cb?error=access_denied`; it must not end a login that waits).
    /// A listener without an expected state is a candidate for any callback of its scheme.
    ///
    /// A listener bound to a magic-link flow (`expectedFlowID`, `listen --flow-id`) takes only
    /// a callback carrying that `flow_id` (an exact match, constant-time), as clerk-ios and
    /// clerk-android accept a link only for their pending flow; another flow's link, or
    /// anything else, is not its own.
    static func answer(
        listenerScheme: CallbackScheme, expectedState: String?, expectedFlowID: String? = nil, offered: CallbackRoute
    ) -> Answer {
        guard offered.scheme == listenerScheme else { return .notMine }
        if expectedState == nil, let expectedFlowID {
            guard let offeredFlowID = offered.flowID else { return .notMine }
            return constantTimeEquals(offeredFlowID, expectedFlowID) ? .exact : .notMine
        }
        guard let expectedState else { return .candidate }
        guard let offeredState = offered.state else { return .notMine }
        return constantTimeEquals(offeredState, expectedState) ? .exact : .notMine
    }

    /// What `open` does once every listener of the scheme has answered.
    enum Decision: Equatable {
        case deliver(to: Int)
        /// Two or more could take it: delivered to none (the reason `conflict`; docs/linux-desktop.md).
        case conflict(candidates: [Int])
        /// A listener did not answer in time and could have been the one: try again.
        case busy
        case nobody
    }

    /// `answers[i]` is nil when listener i did not answer in time.
    ///
    /// One exact state match wins whatever else is there. Without one, the single
    /// candidate gets it; two candidates are a conflict; a silent listener makes the
    /// outcome unknown (`busy`) unless a conflict is already certain.
    static func decide(_ answers: [Answer?]) -> Decision {
        let exact = answers.indices.filter { answers[$0] == .exact }
        if exact.count == 1 { return .deliver(to: exact[0]) }
        if exact.count > 1 { return .conflict(candidates: exact) }
        let candidates = answers.indices.filter { answers[$0] == .candidate }
        if candidates.count > 1 { return .conflict(candidates: candidates) }
        if answers.contains(where: { $0 == nil }) { return .busy }
        if candidates.count == 1 { return .deliver(to: candidates[0]) }
        return .nobody
    }
}

#endif
