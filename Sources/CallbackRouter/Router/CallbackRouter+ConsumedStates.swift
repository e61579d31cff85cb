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
    /// Called outside the lock: a store is a database round trip. Of two callbacks with the
    /// state racing here in one router, the first marks the attempt as being recorded and goes
    /// on; the second is refused as `replayed` at once and ends nothing (the first may still
    /// deliver).
    func recordConsumption(
        in store: any ConsumedStateStore, state: UnsafeBufferPointer<UInt8>, logout: Bool, routeIndex: Int
    ) -> CallbackError? {
        let key = StateKey(utf8: state, hasher: stateHasher)
        let now = clock.now()
        // Claimed for recording under the lock: a second callback with the state in this
        // router meanwhile is refused here, and cannot end the attempt the first one records.
        enum Claim {
            case noPendingAttempt, beingRecorded
            case claimed(expiresAtWallClock: Int64)
        }
        let claim = book.withLock { book -> Claim in
            guard
                let entry = book.pendingEntry(
                    state: state, key: key, routeIndex: routeIndex, logins: !logout, logouts: logout, now: now)
            else { return .noPendingAttempt }
            if entry.isBeingRecorded { return .beingRecorded }
            entry.isBeingRecorded = true
            return .claimed(expiresAtWallClock: entry.attempt.expiresAtWallClock)
        }
        let what = logout ? "logout" : "login"
        let expiry: Int64
        switch claim {
        case .noPendingAttempt: return nil
        case .beingRecorded:
            return CallbackError(.replayed, "another callback of this \(what) is being handled; a callback is delivered once")
        case .claimed(let expiresAtWallClock): expiry = expiresAtWallClock
        }
        let digest = ConsumedStateDigest(utf8: state, key: store.digestKey)
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
