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

/// Why the store could not do what was asked: a reason code (docs/tokens.md lists them),
/// and a detail that says what happened and what to do, free of secrets. Nothing stored
/// is changed by a failure: a store the helper cannot read is left as it is.
public struct TokenStoreError: Error, Sendable, CustomStringConvertible {
    /// The reason code (`store_corrupt`, `keyring_locked`…; docs/tokens.md lists them).
    public let reason: ReasonCode
    /// What happened and what to do, in words a person reads; never a secret.
    public let detail: String

    /// A failure with its reason code and its sentence (which must hold no secret).
    public init(_ reason: ReasonCode, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The store file (or a keyring entry) is not a token store this helper can read.
    public static let corrupt = ReasonCode(rawValue: "store_corrupt")
    /// The store file or its directory belongs to another user, or others may read or change it.
    public static let notPrivate = ReasonCode(rawValue: "store_not_private")
    /// The store was written by a newer callback-router (its format version is higher).
    public static let newerVersion = ReasonCode(rawValue: "store_newer_version")
    /// Another process held the store's lock for too long.
    public static let busy = ReasonCode(rawValue: "store_busy")
    /// A file operation of the store failed (disk full, permissions).
    public static let ioFailed = ReasonCode(rawValue: "store_io_failed")
    /// The desktop keyring is locked: it must be unlocked first.
    public static let keyringLocked = ReasonCode(rawValue: "keyring_locked")
    /// The Secret Service did not answer, or `secret-tool` failed.
    public static let keyringFailed = ReasonCode(rawValue: "keyring_failed")

    /// The reason code and the detail, as `store_corrupt: the store … move it away and log in again`.
    public var description: String { "\(reason.rawValue): \(detail)" }
    /// The detail, as every error of the package says it.
    public var errorDescription: String? { detail }
}
