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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackRouter
import CallbackRouterKit

/// How a callback is judged, read from the options `parse` and `listen` share
/// (`--redirect-uri`, `--policy`, `--allow-localhost`, `--dialect`, `--issuer`,
/// `--require-issuer`, `--response-mode`, `--profile`, the limits): one reader, and one
/// ``CallbackValidator`` made from it, so `listen` prints exactly what `parse` prints.
struct CallbackOptions: Sendable {
    /// The `--redirect-uri` values, as given (checked by ``validator(warn:)``).
    let redirectURIs: [String]
    let dialect: Dialect
    /// The policy given, or the one the dialect implies (prelude and clerk: custom scheme only).
    let policy: RedirectURIPolicy
    let allowLocalhost: Bool
    /// What the callback must carry; `state` may be set after reading (`--state-from-stdin`).
    var expectations: CallbackExpectations
    let limits: ParsingLimits
    /// Read as the end of a logout (`--logout`); `expectations.state` nil then means no state.
    let logout: Bool

    /// Reads the options (usage errors only: nothing about a URL). `state` is the expected
    /// state, however the command got it.
    init(_ args: Arguments, state: String?) throws(Arguments.UsageError) {
        limits = try OptionValues.limits(args)
        dialect = try OptionValues.dialect.read(args)
        // A dialect whose provider accepts only a custom scheme (prelude, clerk) implies
        // that policy, whatever --policy says: its SDK refuses an http/https redirect.
        let given = try OptionValues.policy.read(args)
        policy = dialect.impliedPolicy ?? given
        allowLocalhost = args.has(CommonOptions.allowLocalhost)
        let mode = try OptionValues.responseMode.read(args)
        if state?.isEmpty == true { throw Arguments.UsageError(description: "--state must not be empty") }
        let issuer = try args.single(CommonOptions.issuer)
        if issuer?.isEmpty == true { throw Arguments.UsageError(description: "--issuer must not be empty") }
        expectations = CallbackExpectations(
            state: state, issuer: issuer,
            requiresIssuer: args.has(CommonOptions.requireIssuer), responseMode: mode,
            profiles: try OptionValues.profiles(args))
        redirectURIs = args.all(CommonOptions.redirectURI)
        logout = args.has(LogoutOptions.logout)
    }

    /// The validator of these options. A `--redirect-uri` the policy refuses is an
    /// `invalid_configuration` refusal naming it by position (`--redirect-uri #2: …`);
    /// `warn` is told of each accepted private-use scheme that is no reverse domain name.
    func validator(warn: (String) -> Void) -> Result<CallbackValidator, CallbackError> {
        var accepted: [RedirectURI] = []
        for (index, text) in redirectURIs.enumerated() {
            switch RedirectURIOption.check(
                text, label: "--redirect-uri #\(index + 1)", policy: policy, allowLocalhost: allowLocalhost, warn: warn)
            {
            case .success(let redirect): accepted.append(redirect)
            case .failure(let refusal): return .failure(refusal)
            }
        }
        do {
            return .success(
                try CallbackValidator(
                    redirectURIs: accepted, policy: policy, allowsLocalhost: allowLocalhost, dialect: dialect,
                    expecting: expectations))
        } catch {
            return .failure(error)
        }
    }

    /// `url` judged by `validator` (made by ``validator(warn:)``): as a login's callback, or
    /// with `--logout` as the end of a logout.
    func judge(_ url: String, with validator: CallbackValidator) -> Result<CallbackOutcome, CallbackError> {
        judge(with: validator)(url)
    }

    /// How these options judge a URL with `validator` (made by ``validator(warn:)``).
    func judge(with validator: CallbackValidator) -> CallbackJudge {
        CallbackJudge(validator: validator, limits: limits, logout: logout ? .init(allowingNoState: expectations.state == nil) : nil)
    }
}

extension Rendering {
    /// The JSON and exit code of a judged callback, as `parse` prints them.
    static func verdict(_ result: Result<CallbackOutcome, CallbackError>) -> (json: JSONValue, exit: Int32) {
        switch result {
        case .success(let outcome): (outcomeJSON(outcome), exitCode(for: outcome))
        case .failure(let error): (rejectionJSON(error), exitCode(for: error))
        }
    }
}

#endif
