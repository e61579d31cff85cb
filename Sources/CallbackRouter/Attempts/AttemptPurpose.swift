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

/// What an attempt is for: a login or a logout (OpenID Connect RP-Initiated Logout 1.0).
///
/// A struct with static members, like ``Dialect``, so that a purpose can be added without
/// breaking exhaustive `switch`es in users' code.
public struct AttemptPurpose: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name a sealed record and the JSON use: `login` or `logout`.
    public let rawValue: String

    /// The purpose with this name; nil for a name that is not one of ``allCases``.
    public init?(rawValue: String) {
        guard let known = AttemptPurpose.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    private init(uncheckedName: String) { rawValue = uncheckedName }

    /// A login: its callback carries the provider's answer (a code, a token, an error).
    public static let login = AttemptPurpose(uncheckedName: "login")
    /// A logout: its callback, to the post-logout redirect URI, is `logout_complete`.
    public static let logout = AttemptPurpose(uncheckedName: "logout")

    /// Every purpose.
    public static let allCases: [AttemptPurpose] = [.login, .logout]

    /// The purpose's name (`login`, `logout`).
    public var description: String { rawValue }
}
