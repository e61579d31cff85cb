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

/// Why a registration or a hand-off did not happen. One struct with static codes, so that
/// codes can be added without breaking a `switch`; `catch DesktopError.permission` works.
/// `message` names paths and reasons, never a URL or a parameter value.
public struct DesktopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason; `rawValue` is its wire name.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's wire name (`permission`, `address_in_use`…).
        public let rawValue: String
        /// The code with this wire name; codes are compared by it.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire name, as error descriptions show it.
        public var description: String { rawValue }

        /// `permission`: a bad mode or owner, a foreign peer or socket (the helper exits 77).
        public static let permission = Code(rawValue: "permission")
        /// `unavailable`: nothing to deliver to, or the system refused (69).
        public static let unavailable = Code(rawValue: "unavailable")
        /// `usage`: a configuration the library will not touch (64).
        public static let usage = Code(rawValue: "usage")
        /// `rejected`: the request itself is refused, e.g. a scheme owned by another app (65).
        public static let rejected = Code(rawValue: "rejected")
        /// `conflict`: two or more receivers could take a callback; none got it (75).
        public static let conflict = Code(rawValue: "conflict")
        /// `busy`: a receiver did not answer and may have been the one (75).
        public static let busy = Code(rawValue: "busy")
        /// `unconfirmed`: a receiver took the callback but did not confirm it; it is not sent
        /// again (at most once), so it may or may not have arrived (75).
        public static let unconfirmed = Code(rawValue: "unconfirmed")
        /// `no_receiver`: no receiver takes the callback and spooling is off (69).
        public static let noReceiver = Code(rawValue: "no_receiver")

        /// Lets `catch DesktopError.permission` match by code.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? DesktopError)?.code == code
        }
    }

    /// Why it failed, stable across versions: what code should branch on.
    public let code: Code
    /// What failed, for a person: the path, the peer or the call; never a URL or a value.
    public let message: String

    /// An error with this code and message (the message must hold no secret).
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// ``Code/permission``, for `catch DesktopError.permission`.
    public static let permission = Code.permission
    /// ``Code/unavailable``, for `catch DesktopError.unavailable`.
    public static let unavailable = Code.unavailable
    /// ``Code/usage``, for `catch DesktopError.usage`.
    public static let usage = Code.usage
    /// ``Code/rejected``, for `catch DesktopError.rejected`.
    public static let rejected = Code.rejected
    /// ``Code/conflict``, for `catch DesktopError.conflict`.
    public static let conflict = Code.conflict
    /// ``Code/busy``, for `catch DesktopError.busy`.
    public static let busy = Code.busy
    /// ``Code/unconfirmed``, for `catch DesktopError.unconfirmed`.
    public static let unconfirmed = Code.unconfirmed
    /// ``Code/noReceiver``, for `catch DesktopError.noReceiver`.
    public static let noReceiver = Code.noReceiver

    /// A bad mode or owner, a foreign peer or socket.
    static func permission(_ message: String) -> DesktopError { DesktopError(.permission, message: message) }
    /// Nothing to deliver to, or the system refused.
    static func unavailable(_ message: String) -> DesktopError { DesktopError(.unavailable, message: message) }
    /// Bad usage or a configuration the helper will not touch.
    static func usage(_ message: String) -> DesktopError { DesktopError(.usage, message: message) }

    /// The message: what failed, without a secret.
    public var description: String { message }
}

extension DesktopError {
    /// The NSError domain an app bridges this error with (docs/errors.md shows the one-line
    /// conformance; `CallbackRouterFoundation` does not depend on this module).
    public static let errorDomain = "CallbackDesktop.DesktopError"

    /// The code's stable NSError code (docs/errors.md): never renumbered; 0 for a code this
    /// version does not know.
    public var errorCode: Int {
        switch code {
        case .permission: 1
        case .unavailable: 2
        case .usage: 3
        case .rejected: 4
        case .conflict: 5
        case .busy: 6
        case .unconfirmed: 7
        case .noReceiver: 8
        default: 0
        }
    }

    /// The closed category: a foreign peer, a bad mode or two possible receivers is
    /// `.unsafe`; usage, a refused request or no receiver is
    /// `.misconfigured`; nothing to deliver to, a busy or
    /// unconfirming receiver is `.network`.
    public var category: CallbackErrorCategory {
        switch code {
        case .permission, .conflict: .unsafe
        case .usage, .rejected, .noReceiver: .misconfigured
        default: .network
        }
    }

    /// What happened, for people: ``message`` (never a URL or a value) and the code.
    public var errorDescription: String? {
        "The sign-in's answer could not be handed to the app: \(message) (\(code))."
    }

    /// What to do, for people.
    public var recoverySuggestion: String? {
        switch code {
        case .conflict: "Close the other copies of the app waiting for a sign-in, then sign in again."
        case .noReceiver: "Start the sign-in from the app, so that it is waiting for the answer."
        case .unconfirmed: "If the app did not notice the sign-in, sign in again."
        case .rejected: "Register the scheme for this app only, or use another scheme."
        default: category.recoverySuggestion
        }
    }
}

#endif
