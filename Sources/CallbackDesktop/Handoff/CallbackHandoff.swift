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
import CallbackSystem

/// The hand-off between the process the desktop starts for a callback URL (`open`) and the
/// process waiting for it, through a socket in `$XDG_RUNTIME_DIR` that only the same user
/// can reach, or the spool when nobody waits yet.
public enum CallbackHandoff {
    /// What ``deliver(_:environment:spool:spoolTTLSeconds:)-(String,_,_,_)`` did with a URL. (Not the
    /// router's `Delivery`, a callback that reached its attempt: this one says where the URL went.)
    public enum Receipt: Sendable, Equatable {
        /// A waiting receiver confirmed it has the callback.
        case delivered
        /// Nobody waits yet; the callback waits in the spool for the receiver to come.
        case spooled
    }

    /// How long a spooled callback waits for its receiver unless told otherwise: 600 seconds.
    public static let defaultSpoolTTLSeconds = Spool.defaultTTLSeconds

    /// What the handler executable does with the URL the desktop gives it (`open URL`):
    /// hands it to the one receiver waiting for its scheme and state, else spools it.
    ///
    /// - Throws: ``DesktopError/rejected`` for a URL that is not a callback (validate it
    ///   with ``HandoffURL/init(validating:)`` first for the reason code and offset), and
    ///   what ``deliver(_:environment:spool:spoolTTLSeconds:)-(HandoffURL,_,_,_)`` throws.
    public static func deliver(
        _ url: String, environment: [String: String], spool: Bool = true,
        spoolTTLSeconds: Int = defaultSpoolTTLSeconds
    ) throws(DesktopError) -> Receipt {
        let callback: HandoffURL
        do {
            callback = try HandoffURL(validating: url)
        } catch {
            throw DesktopError(.rejected, message: "the URL is not a callback URL")
        }
        return try deliver(callback, environment: environment, spool: spool, spoolTTLSeconds: spoolTTLSeconds)
    }

    /// Hands a validated callback URL to the one receiver waiting for its scheme and state,
    /// else spools it for `spoolTTLSeconds` (when `spool` is true).
    ///
    /// - Throws: ``DesktopError/conflict`` when two receivers could take it (none gets it),
    ///   ``DesktopError/busy`` when a receiver did not answer (nothing was delivered),
    ///   ``DesktopError/unconfirmed`` when a receiver took it but did not confirm (it is not
    ///   sent again: at most once), ``DesktopError/noReceiver`` when nobody takes it and
    ///   `spool` is false, ``DesktopError/permission`` for a foreign or badly owned runtime
    ///   directory, socket or peer, ``DesktopError/unavailable`` when the system refused.
    public static func deliver(
        _ url: HandoffURL, environment: [String: String], spool: Bool = true,
        spoolTTLSeconds: Int = defaultSpoolTTLSeconds
    ) throws(DesktopError) -> Receipt {
        let sender = HandoffSender(runtime: try RuntimeDirectory.resolve(environment: environment, uid: UserIdentity.real))
        switch try sender.send(url: url.text, route: url.route, spool: .init(enabled: spool, ttlSeconds: spoolTTLSeconds)) {
        case .delivered, .takenFromSpool: return .delivered
        case .spooled: return .spooled
        case .conflict: throw DesktopError(.conflict, message: "two or more receivers could take the callback: delivered to none")
        case .busy: throw DesktopError(.busy, message: "a receiver did not answer: delivered to none")
        case .nobody: throw DesktopError(.noReceiver, message: "nobody is waiting for this callback")
        case .unconfirmed:
            throw DesktopError(
                .unconfirmed, message: "a receiver took the callback but did not confirm; it is not sent again (at most once)")
        }
    }
}

#endif
