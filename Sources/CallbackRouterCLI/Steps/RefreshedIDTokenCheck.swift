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
import CallbackTokens

/// A refreshed ID token compared with the login's (OpenID Connect Core §12.2), as `token` and
/// `refresh --id-token-from-stdin` do it: the issuer, subject, audiences and `azp` always;
/// the `auth_time` tolerated unless `--require-same-auth-time` is given, with one line on
/// stderr when it changed. django-oauth-toolkit 3.4.1 gives every refreshed ID token a new
/// `auth_time`, so refusing it by default would refuse every refresh there.
enum RefreshedIDTokenCheck {
    static let requireSameAuthTime = OptionDeclaration.flag(
        "require-same-auth-time",
        "Refuse a refreshed ID token whose auth_time is not the login's (OpenID Connect Core §12.2); by default it is accepted with a warning."
    )

    /// The rule `--require-same-auth-time` chooses: the CLI tolerates a change by default.
    static func authTime(_ args: Arguments) -> RefreshedAuthTime {
        args.has(requireSameAuthTime) ? .mustMatch : .mayChange
    }

    /// Checks the ID token of `tokens` (when it has one) against `previousIDToken` and returns
    /// its claims. A changed `auth_time` that `authTime` allows is one line on stderr; a
    /// refusal is a line on stderr saying in words what differed, then `advice`, and is thrown
    /// for the caller to print as the rejection JSON (step `id_token`, exit 65).
    static func check<C: Command>(
        _ tokens: TokenSet, previousIDToken: String, clientID: String, issuer: String, signingAlgorithms: [String],
        authTime: RefreshedAuthTime, for command: C.Type, advice: String, context: CommandContext
    ) throws(StepFailure) -> IDTokenClaims? {
        do throws(CallbackError) {
            let claims = try tokens.checkRefreshedIDToken(
                previousIDToken: previousIDToken, clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms,
                authTime: authTime)
            if claims?.authTimeChanged == true {
                context.printError(
                    "\(command.name): warning: the provider gave the refreshed ID token a new auth_time, where OpenID Connect Core §12.2 says it must keep the login's; accepted, since the account is the same (--require-same-auth-time refuses it)"
                )
            }
            return claims
        } catch {
            if let what = differed(error.reason) {
                context.printError("\(command.name): the provider answered the refresh with \(what) (\(error.reason.rawValue)): \(advice)")
            }
            throw StepFailure(error, step: "id_token")
        }
    }

    /// What a comparison refusal means, in words; nil for a refusal of the token on its own.
    static func differed(_ reason: ReasonCode) -> String? {
        switch reason {
        case .subjectMismatch: "another account's ID token (its sub is not the login's)"
        case .issuerMismatch: "an ID token of another issuer than the login's"
        case .audienceMismatch: "an ID token for other audiences than the login's (its aud or azp differs)"
        case .authTimeMismatch:
            "an ID token whose auth_time is not the login's (OpenID Connect Core §12.2), which --require-same-auth-time refuses"
        default: nil
        }
    }
}

#endif
