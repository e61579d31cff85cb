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

extension CallbackClassifier {
    /// Reads a callback to a post-logout redirect URI (OpenID Connect RP-Initiated Logout
    /// 1.0 §3): `state` (the logout's, unless `allowingNoState`) and nothing that belongs to
    /// a login's response. Returns nil when the callback is not shaped like one: it then
    /// stays whatever the login reading said it was.
    ///
    /// The response is in the query whatever the route's response mode (the end-session
    /// redirect has no `response_mode`); the shared rules hold (no tokens, no duplicates,
    /// no data in the fragment). Every other parameter is passed on as an extra.
    @_spi(Testing) public static func classifyLogout(
        _ url: CallbackURL, dialect: Dialect, profiles: [ProviderProfile],
        allowingNoState: Bool
    ) throws(CallbackError) -> CallbackOutcome? {
        let response = try ResponseParameters(url, mode: .query, relaxations: profiles.relaxations)
        var fields: [CallbackOutcome.Field] = []
        var extra: [CallbackOutcome.Field] = []
        for item in response.items {
            if item.name == "state" {
                guard !item.value.isEmpty else {
                    throw CallbackError(.invalidParameter, at: item.valueOffset, "the parameter 'state' is empty")
                }
                fields.append(.init(name: "state", value: item.value))
            } else if KnownField.responseParameters.contains(item.name) {
                return nil // a login's parameter (code, error, status…): not a logout
            } else {
                extra.append(.init(name: item.name, value: item.value))
            }
        }
        guard !fields.isEmpty || allowingNoState else { return nil }
        extra += response.passive.map { .init(name: $0.name, value: $0.value) }
        return CallbackOutcome(
            kind: .logoutComplete, dialect: dialect, fields: fields, extra: extra, withheld: [],
            isUnbound: fields.isEmpty)
    }
}

extension CallbackValidator {
    /// Validates a callback to a post-logout redirect URI (OpenID Connect RP-Initiated
    /// Logout 1.0 §3) without a router: the redirect-URI steps of ``validate(_:)-(CallbackURL)``,
    /// then the logout's shape and its state.
    ///
    /// - The callback may carry no login response parameter (`code`, `error`, `iss`,
    ///   `status`…): one is `invalid_parameter` (a login's answer never reads as a logout).
    /// - With `expectations.state` set: none is `state_missing`, another `state_mismatch`
    ///   (constant time). Without one, `allowingNoState` must be true (Auth0's `returnTo`
    ///   echoes no state): the outcome is then ``CallbackOutcome/isUnbound``, whatever the
    ///   callback carries; otherwise `invalid_configuration`.
    public func validateLogout(_ callback: CallbackURL, allowingNoState: Bool = false) throws(CallbackError) -> CallbackOutcome {
        guard expectations.state != nil || allowingNoState else {
            throw CallbackError(
                .invalidConfiguration,
                "a logout callback is checked against the logout's state; name it, or allow logouts without state")
        }
        try checkRedirect(callback)
        guard
            let outcome = try CallbackClassifier.classifyLogout(
                callback, dialect: dialect == .auto ? .oauth2 : dialect,
                profiles: expectations.profiles, allowingNoState: true)
        else {
            let query = callback.queryParameters
            let index = query.indices.first { query[$0].name != "state" && KnownField.responseParameters.contains(query[$0].name) }
            let name = index.map { query[$0].name } ?? "a login's parameter"
            throw CallbackError(
                .invalidParameter, at: index.map { query.offset(at: $0) },
                "the callback carries '\(name)', which belongs to a login's response: it is not the end of a logout")
        }
        guard let expected = expectations.state else { return outcome.unbound() }
        guard let state = outcome.state else {
            throw CallbackError(.stateMissing, "the logout's state was expected and the callback has none")
        }
        guard constantTimeEquals(state, expected) else {
            let query = callback.queryParameters
            let offset = query.indices.first { query[$0].name == "state" }.flatMap { query.valueOffset(at: $0) }
            throw CallbackError(.stateMismatch, at: offset, "the state is not the one this logout sent")
        }
        return outcome
    }

    /// Parses `string`, then ``validateLogout(_:allowingNoState:)-(CallbackURL,_)``.
    public func validateLogout(
        _ string: String, allowingNoState: Bool = false,
        limits: ParsingLimits = .default
    ) throws(CallbackError) -> CallbackOutcome {
        let callback: CallbackURL
        do { callback = try CallbackURL(parsing: string, limits: limits) } catch { throw CallbackError(error) }
        return try validateLogout(callback, allowingNoState: allowingNoState)
    }
}
