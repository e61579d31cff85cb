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

/// A callback that reached its attempt: what it means and which login it answers.
public struct Delivery: Sendable, CustomStringConvertible {
    /// The outcome in an immutable box. A delivery is handed from the router's lock to a
    /// waiter, a handler, a kept result and the caller, and copying the outcome (its
    /// strings and its inline parameter table) costs ~600 instructions each time.
    /// The router boxes the outcome before it takes its lock, moving it in, and the
    /// delivery is two references: this box and the attempt (itself one box).
    final class BoxedOutcome: Sendable {
        let value: CallbackOutcome
        init(_ value: consuming CallbackOutcome) { self.value = value }

        /// ``CallbackOutcome/withStateUTF8(_:)`` on the boxed outcome, read in place.
        func withStateUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? { value.withStateUTF8(body) }

        /// ``withStateUTF8(_:)`` for the router's claim, its result a concrete type (a generic
        /// one was copied through runtime value witnesses); nil when there is no state.
        func withStateBytes(
            _ body: (UnsafeBufferPointer<UInt8>) -> CallbackRouter.Settlement
        ) -> CallbackRouter.Settlement? { value.withStateUTF8(body) }
    }

    private let boxedOutcome: BoxedOutcome

    package init(outcome: CallbackOutcome, attempt: LoginAttempt) {
        self.init(boxed: BoxedOutcome(outcome), attempt: attempt)
    }

    init(boxed: BoxedOutcome, attempt: LoginAttempt) {
        boxedOutcome = boxed
        self.attempt = attempt
    }

    /// What the callback means, read in the route's dialect and validated.
    public var outcome: CallbackOutcome { boxedOutcome.value }
    /// The login attempt the callback answered (its verifier redeems the code).
    public let attempt: LoginAttempt
    /// The route the callback arrived on: the attempt's route.
    public var route: RouteID { attempt.route }
    /// The outcome and the attempt, both redacted: no code, state or verifier shows.
    public var description: String { "Delivery(\(outcome), to: \(attempt))" }
}
