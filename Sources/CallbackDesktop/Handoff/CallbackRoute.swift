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

/// What routing needs to know of a callback: its scheme and its `state`, if any.
///
/// The state is read with the project's parser from the query, or from the fragment when
/// the query has none (`response_mode=fragment`). A duplicated `state` is refused
/// (`duplicate_parameter`): routing must not pick one of two.
///
/// A callback without a state may carry a Clerk magic link's `flow_id` (query, else
/// fragment): a listener bound to that flow (`listen --flow-id`) takes only it. A duplicated
/// `flow_id` counts as none (no flow listener takes it; the dialect refuses it anyway).
struct CallbackRoute: Sendable {
    let scheme: CallbackScheme
    let state: String?
    /// The magic link's `flow_id`, for a callback without a state.
    let flowID: String?

    init(_ url: CallbackURL) throws(CallbackError) {
        scheme = try CallbackScheme(validating: url.scheme)
        do {
            if let state = try url.queryParameters.value(named: "state") {
                self.state = state
            } else {
                self.state = try url.fragmentParameters.value(named: "state")
            }
        } catch {
            throw CallbackError(error)
        }
        flowID =
            state != nil
            ? nil
            : ((try? url.queryParameters.value(named: "flow_id")) ?? nil) ?? ((try? url.fragmentParameters.value(named: "flow_id")) ?? nil)
    }

    init(scheme: CallbackScheme, state: String?, flowID: String? = nil) {
        self.scheme = scheme
        self.state = state
        self.flowID = state == nil ? flowID : nil
    }
}

#endif
