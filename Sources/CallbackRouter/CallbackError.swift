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

/// Why a callback, a registration or an attempt was refused: one struct for every layer
/// above the parser, carrying a stable ``ReasonCode``.
///
/// ```swift
/// do { let outcome = try router.handle(url) }
/// catch ReasonCode.stateMismatch { … }
/// catch let error as CallbackError { print(error.reason, error.detail) }
/// ```
///
/// `detail` is a sentence for people; it never contains a code, token, state, session id
/// or verifier.
public struct CallbackError: ReasonCarrying, Hashable, Sendable, CustomStringConvertible {
    /// The codes are ``ReasonCode``'s: one table for the parser and everything above it.
    public typealias Code = ReasonCode

    /// The stable reason (``ReasonCode``; every code is listed in docs/cli.md, "Reason codes"), e.g. `state_mismatch`.
    public let reason: ReasonCode
    /// The byte offset into the callback URL, when one applies.
    public let offset: Int?
    /// A sentence for people saying what was wrong; it never contains a secret value.
    public let detail: String

    /// Makes a refusal with its reason, an optional byte offset, and a detail free of secrets.
    public init(_ reason: ReasonCode, at offset: Int? = nil, _ detail: String) {
        self.reason = reason
        self.offset = offset
        self.detail = detail
    }

    /// A parser refusal, carried up unchanged.
    public init(_ error: ParseError) {
        self.init(error.reason, at: error.offset, error.detail)
    }

    /// The reason's wire name, the offset when there is one, and the detail.
    public var description: String {
        if let offset { return "\(reason.rawValue) at byte \(offset): \(detail)" }
        return "\(reason.rawValue): \(detail)"
    }
}
