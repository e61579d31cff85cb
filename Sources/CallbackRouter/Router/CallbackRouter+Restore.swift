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
    // MARK: Restoring sealed attempts

    /// Puts a sealed attempt (``LoginAttempt/sealed()``) back as pending, once, so that this
    /// process can take its callback although another process began it (the app was killed
    /// while the browser was in front, or the user quit and relaunched it). Returns the
    /// restored attempt (with an id of this router) to await with ``callback(for:timeout:)-(LoginAttempt,_)``;
    /// a route handler or a later `callback(for:)` gets its callback like any other.
    ///
    /// Refusals, each before anything is registered:
    /// - `invalid_configuration`: `key` is shorter than 32 bytes.
    /// - `too_long`, `invalid_record`: not a record this library wrote, or not intact
    ///   (truncated, another version, a line missing, added or out of order, bad base64url,
    ///   a value out of range, a check or HMAC that does not match; a keyed record without
    ///   the key, or the reverse).
    /// - `no_route`: the router has no route of that id, or the route has another redirect
    ///   URI, dialect or issuer than when the record was sealed (its callback could not be
    ///   checked as the login expected).
    /// - `attempt_expired`: the record's expiry (calendar time) has passed.
    /// - `replayed`: an attempt with the record's state is pending here (the record was
    ///   restored already, or this process began it), or its callback was delivered here;
    ///   `cancelled`, `timeout`: it ended here so. (A router remembers ended attempts for
    ///   their lifetime; across processes only deleting the stored record prevents a second
    ///   restore.)
    /// - `conflict`: too many attempts pending, or the route's one stateless login (or
    ///   stateless logout) is already pending; or so many attempts ended here that the router
    ///   forgot some early (it remembers at most 65,536 ended ones, or `maxPendingAttempts`
    ///   if more) and the record expires no later than one of those (it could be that
    ///   attempt's: fail closed).
    ///
    /// The attempt expires at the record's expiry, never later than its lifetime from now
    /// (a clock set back does not extend it).
    @discardableResult
    public func restore(_ sealed: SealedAttempt, key: [UInt8]? = nil) throws(CallbackError) -> LoginAttempt {
        if let key { try SealedAttempt.checkKey(key) }
        let record = try SealedRecord(parsing: sealed.text, key: key)
        guard let index = routes.firstIndex(where: { $0.id == record.route }) else {
            throw CallbackError(.noRoute, "the sealed attempt's route is not one of this router's")
        }
        let route = routes[index]
        // The record keeps the exact redirect URI the login sent: the route's, or for a
        // loopback route the one with the receiver's port.
        let redirectURI =
            route.redirectURI.url.string == record.redirectURI
            ? route.redirectURI : try? route.exactRedirectURI(record.redirectURI)
        guard let redirectURI, route.dialect == record.dialect, route.issuer == record.issuer else {
            throw CallbackError(
                .noRoute,
                "route '\(route.id)' has another redirect URI, dialect or issuer than when the attempt was sealed")
        }
        let now = clock.now(), wallNow = clock.wallClockNanoseconds()
        let (remaining, overflow) = record.expires.subtractingReportingOverflow(wallNow)
        guard !overflow, remaining > 0 else {
            throw CallbackError(.attemptExpired, "the sealed attempt expired before it was restored")
        }
        let left = min(remaining, record.lifetime)
        let expiresAt = now.advanced(by: .nanoseconds(left))
        let createdAt = ClockInstant(nanoseconds: expiresAt.nanoseconds &- record.lifetime)
        return try register(
            routeIndex: index, purpose: record.purpose, restoringState: record.state, restoringExpiry: record.expires
        ) { id in
            LoginAttempt(
                id: id, route: route.id, state: record.state, pkce: record.pkce, nonce: record.nonce,
                redirectURI: redirectURI, dialect: route.dialect, expectedIssuer: route.issuer,
                createdAt: createdAt, expiresAt: expiresAt, isLogout: record.purpose == .logout,
                expiresAtWallClock: wallNow &+ left, flowID: record.flowID)
        }
    }

    /// Restores a record read back from storage as text; see ``restore(_:key:)-(SealedAttempt,_)``.
    @discardableResult
    public func restore(_ record: String, key: [UInt8]? = nil) throws(CallbackError) -> LoginAttempt {
        try restore(SealedAttempt(record), key: key)
    }
}
