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

extension CallbackRouter {
    // MARK: The shared store of consumed states

    /// Inserts the digest of `state` into `store` when it is a pending, unexpired attempt's
    /// on the route (a login, or a logout when `logout`), before the claim: nil when this
    /// router may deliver (the insert was the first, or no pending attempt has the state:
    /// the claim then refuses the callback as it always did). Otherwise the attempt ends here
    /// and its receiver hears the refusal, which is returned: `replayed` when another router
    /// inserted the digest first (delivered there), `conflict` when the store failed (never
    /// delivered twice: at worst not at all).
    ///
    /// Called outside the lock: a store is a database round trip. Two callbacks racing here
    /// in one router are settled by the store (one insert is first); the claim after it
    /// still takes the attempt once.
    func recordConsumption(
        in store: any ConsumedStateStore, state: UnsafeBufferPointer<UInt8>, logout: Bool, routeIndex: Int
    ) -> CallbackError? {
        let key = StateKey(utf8: state, hasher: stateHasher)
        let now = clock.now()
        let expiry = book.withLock { book in
            book.pendingEntry(state: state, key: key, routeIndex: routeIndex, logins: !logout, logouts: logout, now: now)?
                .attempt.expiresAtWallClock
        }
        guard let expiry else { return nil }
        let digest = ConsumedStateDigest(utf8: state, key: store.digestKey)
        let what = logout ? "logout" : "login"
        let refusal: CallbackError
        let ending: AttemptBook.Ending
        do {
            if try store.insert(digest, keepingUntil: expiry) { return nil }
            refusal = CallbackError(
                .replayed,
                "this \(what)'s callback was already taken by another router that shares the store of consumed states (another instance of the backend); a callback is delivered once"
            )
            ending = .answered
        } catch {
            refusal = CallbackError(
                .conflict,
                "the store of consumed states failed (\(type(of: error))), so the callback was refused rather than risk delivering it twice; this \(what) ended: repair the store, then start a new \(what)"
            )
            ending = .refused
        }
        endAttempt(carrying: state, logouts: logout, logins: !logout, routeIndex: routeIndex, with: refusal, as: ending)
        return refusal
    }
}
