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

/// What names one stored entry: the issuer, the client id, the scopes asked for at login
/// (nil: none were sent) and an account name (nil: the default; a name when one person
/// keeps several sign-ins of the same client). None of these is a secret.
public struct TokenStoreKey: Sendable, Hashable, CustomStringConvertible {
    /// The issuer the tokens were issued by (discovery's checked `issuer`).
    public let issuer: String
    /// The client id the sign-in used.
    public let clientID: String
    /// The scopes asked for at login; nil when none were sent (an empty one reads as nil).
    public let scope: String?
    /// The account name that tells several sign-ins of one client apart; nil for the default.
    public let account: String?

    /// The key of one sign-in: an empty scope or account is the same as none.
    public init(issuer: String, clientID: String, scope: String? = nil, account: String? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.scope = scope.flatMap { $0.isEmpty ? nil : $0 }
        self.account = account.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether an entry of this key answers a request for `issuer` and `clientID`, with
    /// `scope` and `account` when they are given (nil matches any scope; the default
    /// account only matches a nil `account`).
    public func matches(issuer: String, clientID: String, scope: String?, account: String?) -> Bool {
        self.issuer == issuer && self.clientID == clientID && (scope == nil || self.scope == scope) && self.account == account
    }

    /// `ISSUER client CLIENT [scope "S"] [account A]`: for messages.
    public var description: String {
        "\(issuer) client \(clientID)" + (scope.map { " scope \"\($0)\"" } ?? "") + (account.map { " account \($0)" } ?? "")
    }
}
