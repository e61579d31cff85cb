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

/// The JSON (docs/cli.md) for an outcome or a refusal, and its exit code: what `parse` prints,
/// and what `listen`, `loopback` and `login` print "as parse does". Every command renders
/// its outcomes and refusals here, so the shape and the exit codes have one definition.
enum Rendering {
    /// `{"outcome":…,"dialect":…,…fields…,"withheld":[…],"extra":{…}}`.
    ///
    /// Fields are the known wire parameters present, under their wire names, in docs/dialects.md's
    /// order; `"withheld"` (only when not empty) names the human-text fields whose value
    /// broke its syntax and was not passed through; `"unbound":true` (only when so) marks an
    /// outcome with no state and no secret (``CallbackOutcome/isUnbound``: a provider error a
    /// profile let through without the app's state, Clerk's failure, transfer and bare
    /// callbacks, a logout without state); `"extra"` holds every other decoded
    /// parameter, always present (`{}` when none).
    static func outcomeJSON(_ outcome: CallbackOutcome) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("outcome", .string(outcome.kind.rawValue)),
            ("dialect", .string(outcome.dialect.rawValue)),
        ]
        for field in outcome.fields { members.append((field.name, .string(field.value))) }
        if !outcome.withheldFields.isEmpty {
            members.append(("withheld", .array(outcome.withheldFields.map { .string($0) })))
        }
        // The member is absent unless the outcome is unbound.
        if outcome.isUnbound { members.append(("unbound", .bool(true))) }
        members.append(("extra", .object(outcome.extra.map { ($0.name, .string($0.value)) })))
        return .object(members)
    }

    /// 0 for a success outcome (and Clerk's `account_transfer`, `bare_callback`,
    /// `magic_link`, Ory's `continue_login_flow`), 1 when the provider reported a failure (`authorization_error`,
    /// `login_failure`, `clerk_failure`).
    static func exitCode(for outcome: CallbackOutcome) -> Int32 {
        outcome.kind.isProviderFailure ? ExitCode.providerFailure : ExitCode.success
    }

    /// `{"outcome":"rejected","reason":…,"detail":…,"offset":N|null}`.
    static func rejectionJSON(_ error: CallbackError) -> JSONValue {
        rejectionJSON(reason: error.reason, detail: error.detail, offset: error.offset)
    }

    /// `{"outcome":"rejected","reason":…,"detail":…,"offset":N|null}`: the same shape for every command.
    static func rejectionJSON(reason: ReasonCode, detail: String, offset: Int?) -> JSONValue {
        .object([
            ("outcome", .string("rejected")),
            ("reason", .string(reason.rawValue)),
            ("detail", .string(detail)),
            ("offset", .int(offset)),
        ])
    }

    /// The exit code of a refusal: 64 for `invalid_configuration` (a bad `--redirect-uri`
    /// is a usage problem), 69 for `no_route` (nobody to deliver to), 75 for `conflict` and
    /// `timeout` (try again), 65 for every other rejected input.
    static func exitCode(for error: CallbackError) -> Int32 {
        switch error.reason {
        case .invalidConfiguration: return ExitCode.usage
        case .noRoute: return ExitCode.unavailable
        case .conflict, .timeout: return ExitCode.tryAgain
        default: return ExitCode.rejected
        }
    }
}

#endif
