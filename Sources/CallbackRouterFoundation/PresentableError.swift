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

import Foundation

/// An error of this package as Foundation shows it: `localizedDescription`, the recovery
/// suggestion and a stable NSError domain and code (docs/errors.md).
///
/// The text, the number and the domain are the error's own plain-Swift properties
/// (`errorDescription`, `recoverySuggestion`, `errorCode`, `errorDomain`); this protocol
/// also puts the text under `NSLocalizedDescriptionKey` and
/// `NSLocalizedRecoverySuggestionErrorKey` in the bridged `NSError`'s user info, which is
/// where `localizedDescription` looks on every platform (on Linux, swift-corelibs-foundation
/// does not consult `LocalizedError` when it bridges).
///
/// `CallbackError`, `ParseError`, `LoopbackError` (``SignIn`` throws it) and
/// ``AuthorizationError`` conform. `DesktopError` lives in a module this one does not
/// depend on; an app that uses it conforms it in one line:
///
/// ```swift
/// extension DesktopError: @retroactive PresentableError {}
/// ```
public protocol PresentableError: LocalizedError, CustomNSError {}

extension PresentableError {
    /// The description and recovery suggestion under Foundation's keys.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [:]
        if let errorDescription { info[NSLocalizedDescriptionKey] = errorDescription }
        if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
        return info
    }
}

// The errors of the core and the receiver. They have the properties both
// protocols ask for under their names.
extension CallbackError: PresentableError {}

extension ParseError: PresentableError {}

// The receiver's error: ``SignIn/loopback(issuer:clientID:scope:options:open:)`` throws it.
extension LoopbackError: PresentableError {}

// `TokenError.errorDescription` is the server's own `error_description`, so `TokenError` is
// not `LocalizedError` (that would show the server's text as ours): its user info carries
// our sentence and suggestion instead, which is what `localizedDescription` reads.
extension TokenError: CustomNSError {
    /// ``TokenError/presentableDescription`` and ``TokenError/recoverySuggestion`` under
    /// Foundation's keys, so that `localizedDescription` and `localizedRecoverySuggestion` show them.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: presentableDescription]
        if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
        return info
    }
}
