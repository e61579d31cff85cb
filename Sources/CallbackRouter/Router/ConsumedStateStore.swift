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

/// A store of consumed states shared by routers that may hold the same attempt: several
/// processes of a web backend (instances) that each restored the same sealed record, or one
/// process that builds a router per request. Before a router delivers a callback that carries
/// a pending attempt's state, it inserts the state's digest here; only the router whose insert
/// was the first delivers it, every other one refuses the callback as `replayed`.
///
/// Without a store (the default of ``RouterBuilder/build(clock:limits:maxPendingAttempts:consumedStates:)``)
/// a router remembers consumed states in its own memory, as it always did: enough for one
/// router per process, not for a sealed record restored by several.
/// ``InMemoryConsumedStateStore`` shares one memory between the routers of one process; a
/// backend with several instances implements this protocol over the database it already has.
///
/// The contract of a real store:
/// - **The key** is ``ConsumedStateDigest``: HMAC-SHA-256 of the state under ``digestKey``
///   (at least 32 random bytes, the same on every instance, kept as secret as the sealing
///   key). The state itself never reaches the store: a row read from the database gives
///   nobody a state to forge a callback with.
/// - **The insert** is ``insert(_:keepingUntil:)``: one atomic "insert unless present", a
///   unique key (`INSERT … ON CONFLICT DO NOTHING` and the affected row count, `INSERT IGNORE`,
///   `SETNX`): `true` when this call inserted the digest, `false` when it was there already.
///   A read followed by a write is not atomic and breaks exactly-once. The router calls it
///   once per callback that carries a pending attempt's state, before it delivers the callback.
/// - **How long**: until `keepingUntil` (the attempt's expiry, nanoseconds since
///   1970-01-01T00:00:00Z), plus the largest clock difference between instances; after that
///   no instance restores the record (`attempt_expired`), so the row may be deleted.
/// - **A failure** (the method throws: the database is down, a timeout) refuses the callback
///   with `conflict`, ends the attempt in this router and delivers it nowhere: a callback is
///   never delivered twice, at worst not at all (the user starts the login again). The
///   error's own text is not shown (it may hold connection details); its type is named.
///
/// Called outside the router's lock, from the thread that called `handle`: a blocking
/// database call holds up only that callback. Stateless routes (Prelude, Zephr, Ory, Clerk's
/// native OAuth) carry no state and do not consult the store.
public protocol ConsumedStateStore: Sendable {
    /// The key of every ``ConsumedStateDigest`` this store receives: at least 32 random
    /// bytes (shorter is `invalid_configuration` when the router is built), the same on every
    /// instance that shares the store.
    var digestKey: [UInt8] { get }

    /// Inserts `digest` unless it is there already, atomically: `true` when this call
    /// inserted it (the caller delivers the callback), `false` when it was there (another
    /// router delivered it). Keeps it at least until `keepingUntil` (nanoseconds since
    /// 1970-01-01T00:00:00Z). Throws when it cannot tell: the callback is then refused.
    func insert(_ digest: ConsumedStateDigest, keepingUntil: Int64) throws -> Bool
}
