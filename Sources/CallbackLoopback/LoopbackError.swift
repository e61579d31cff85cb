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

import CallbackRouter
import CallbackSystem

/// Why a ``LoopbackReceiver`` could not be set up. One struct with static codes, so that
/// codes can be added without breaking a `switch`; `catch LoopbackError.addressInUse` works.
///
/// Its description names the address, the port and the failing call, never a secret.
public struct LoopbackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason; `rawValue` is its wire name.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's wire name (`permission`, `address_in_use`…).
        public let rawValue: String
        /// The code with this wire name; codes are compared by it.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire name, as error descriptions show it.
        public var description: String { rawValue }

        /// `address_in_use`: every port asked for is taken (a fixed port or each of a list).
        public static let addressInUse = Code(rawValue: "address_in_use")
        /// `permission_denied`: the port needs privileges (below 1024 on many systems).
        public static let permissionDenied = Code(rawValue: "permission_denied")
        /// `unavailable`: the loopback address cannot be bound (no IPv6, no descriptors…).
        public static let unavailable = Code(rawValue: "unavailable")
        /// `invalid_configuration`: a bad path, port or host in the configuration.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")

        /// Lets `catch LoopbackError.addressInUse` match by code.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LoopbackError)?.code == code
        }
    }

    /// Why the receiver could not be set up, stable across versions.
    public let code: Code
    /// The `errno` of the failing call, 0 when no system call failed.
    public let systemError: Int32
    /// What failed, for a person: the call, the address and the port.
    public let detail: String

    /// An error with this code, the failing call's `errno` (0 for none) and a detail
    /// that names no secret.
    public init(_ code: Code, systemError: Int32 = 0, _ detail: String) {
        self.code = code
        self.systemError = systemError
        self.detail = detail
    }

    /// `code: detail`, for logs and stderr.
    public var description: String { "\(code): \(detail)" }

    /// ``Code/addressInUse``, for `catch LoopbackError.addressInUse`.
    public static let addressInUse = Code.addressInUse
    /// ``Code/permissionDenied``, for `catch LoopbackError.permissionDenied`.
    public static let permissionDenied = Code.permissionDenied
    /// ``Code/unavailable``, for `catch LoopbackError.unavailable`.
    public static let unavailable = Code.unavailable
    /// ``Code/invalidConfiguration``, for `catch LoopbackError.invalidConfiguration`.
    public static let invalidConfiguration = Code.invalidConfiguration

    init(_ socketError: SystemError, address: String, ports: String) {
        let code: Code
        switch socketError.code {
        case SystemError.Code.addressInUse: code = .addressInUse
        case SystemError.Code.accessDenied, SystemError.Code.notPermitted: code = .permissionDenied
        default: code = .unavailable
        }
        self.init(code, systemError: socketError.code, "cannot listen on \(address) port \(ports): \(socketError)")
    }
}

extension LoopbackError {
    /// The NSError domain an app bridges this error with (docs/errors.md shows the one-line
    /// conformance; `CallbackRouterFoundation` does not depend on this module).
    public static let errorDomain = "CallbackLoopback.LoopbackError"

    /// The code's stable NSError code (docs/errors.md): never renumbered; 0 for a code this
    /// version does not know.
    public var errorCode: Int {
        switch code {
        case .addressInUse: 1
        case .permissionDenied: 2
        case .unavailable: 3
        case .invalidConfiguration: 4
        default: 0
        }
    }

    /// The closed category: a taken port or an unusable address is
    /// `.network`; a privileged port or a bad configuration is
    /// `.misconfigured`.
    public var category: CallbackErrorCategory {
        switch code {
        case .permissionDenied, .invalidConfiguration: .misconfigured
        default: .network
        }
    }

    /// What happened, for people: the receiver could not start, ``detail`` and the code.
    public var errorDescription: String? {
        "The app could not start listening for the sign-in's answer: \(detail) (\(code))."
    }

    /// What to do, for people.
    public var recoverySuggestion: String? {
        switch code {
        case .addressInUse: "Close the program that uses the port, or let the app choose any free port, then try again."
        case .permissionDenied: "Use a port above 1023, or any free port."
        case .unavailable: "Check that the loopback interface is up and the app may open sockets, then try again."
        default: category.recoverySuggestion
        }
    }
}
