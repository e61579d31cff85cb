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

/// What one poll of the device flow's token request came to (RFC 8628 §3.5): the tokens,
/// "ask again" (`authorization_pending`, `slow_down`), or the end (`access_denied`,
/// `expired_token`, any other error).
///
/// ```swift
/// var interval = authorization.pollingInterval
/// while true {
///     try await Task.sleep(for: interval)
///     let (status, body) = try await send(request)  // the app's transport
///     let poll = DevicePoll(try TokenResponse(status: status, body: body))
///     guard let next = poll.nextInterval(after: interval) else { return poll }  // tokens, or why it ended
///     interval = next
/// }
/// ```
public enum DevicePoll: Sendable, CustomStringConvertible {
    /// The user approved: the tokens (HTTP 200).
    case tokens(TokenSet)
    /// `authorization_pending`: the user has not finished yet; poll again after the interval.
    case authorizationPending
    /// `slow_down`: poll again, with the interval 5 seconds longer from now on.
    case slowDown
    /// `access_denied`: the user said no. Polling ends.
    case accessDenied(TokenError)
    /// `expired_token`: the device code expired before the user finished. Polling ends; start again.
    case expiredToken(TokenError)
    /// Any other error response (`invalid_client`, `invalid_grant`…). Polling ends.
    case error(TokenError)

    /// How much `slow_down` adds to the interval (RFC 8628 §3.5).
    public static let slowDownIncrement: Duration = .seconds(5)

    /// Reads a token response as an answer to a device code poll.
    public init(_ response: TokenResponse) {
        switch response {
        case .tokens(let tokens): self = .tokens(tokens)
        case .error(let error) where error.code == .authorizationPending: self = .authorizationPending
        case .error(let error) where error.code == .slowDown: self = .slowDown
        case .error(let error) where error.code == .accessDenied: self = .accessDenied(error)
        case .error(let error) where error.code == .expiredToken: self = .expiredToken(error)
        case .error(let error): self = .error(error)
        }
    }

    /// The interval before the next poll, or nil when polling ends (tokens, or an error that
    /// ends it): the same after `authorization_pending`, 5 seconds longer after `slow_down`.
    public func nextInterval(after current: Duration) -> Duration? {
        switch self {
        case .authorizationPending: current
        case .slowDown: current + DevicePoll.slowDownIncrement
        case .tokens, .accessDenied, .expiredToken, .error: nil
        }
    }

    /// The outcome, redacted as ``TokenSet`` and ``TokenError`` are.
    public var description: String {
        switch self {
        case .tokens(let tokens): "DevicePoll.tokens(\(tokens))"
        case .authorizationPending: "DevicePoll.authorizationPending"
        case .slowDown: "DevicePoll.slowDown"
        case .accessDenied(let error): "DevicePoll.accessDenied(\(error))"
        case .expiredToken(let error): "DevicePoll.expiredToken(\(error))"
        case .error(let error): "DevicePoll.error(\(error))"
        }
    }
}

extension TokenErrorCode {
    /// `authorization_pending` (RFC 8628 §3.5): the user has not finished yet.
    public static let authorizationPending = TokenErrorCode(rawValue: "authorization_pending")
    /// `slow_down` (RFC 8628 §3.5): poll less often.
    public static let slowDown = TokenErrorCode(rawValue: "slow_down")
    /// `access_denied` (RFC 8628 §3.5): the user refused.
    public static let accessDenied = TokenErrorCode(rawValue: "access_denied")
    /// `expired_token` (RFC 8628 §3.5): the device code expired.
    public static let expiredToken = TokenErrorCode(rawValue: "expired_token")
}
