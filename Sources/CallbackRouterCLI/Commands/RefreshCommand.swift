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

/// `callback-router refresh`: a refresh token (stdin) for new tokens (RFC 6749 §6).
enum RefreshCommand: Command {
    static let name = "refresh"
    static let summary = "Redeem a refresh token (read from stdin) for new tokens"
    static let overview = """
        OVERVIEW: Send a refresh request (RFC 6749 §6) and print the new tokens.

        STDIN:
          Line 1: the refresh token. With --client-secret-from-stdin, the next line: the
          client secret. With --id-token-from-stdin, the next line: the login's ID token.
          None is ever taken from argv or the environment, nor shown on stderr.

        OUTPUT (one JSON object on stdout; the tokens are secrets):
          {"outcome":"tokens","access_token":…,"token_type":…,"expires_in":N|null,
           "refresh_token":…|null,"scope":…|null,"id_token":…|null,"id_token_claims":…|null}
          A refreshed ID token is checked when the issuer is known (--issuer, OpenID Connect
          Core §12.2): iss, aud/azp, exp, iat, alg not none, at_hash; c_hash refused. With
          --id-token-from-stdin it must also name the login's iss, sub, aud and azp
          (issuer_mismatch, subject_mismatch, audience_mismatch), and its nonce, if any, must
          be the login's; an auth_time other than the login's is accepted with a warning on
          stderr (§12.2 forbids it; some providers send the refresh's time), and refused
          with --require-same-auth-time (auth_time_mismatch). "id_token_claims" is then {"sub","iss",
          "aud","exp","iat","nonce_matched":true|null} (null: no nonce was compared), and
          null when no ID token came back. With --token-endpoint and no --issuer there is no
          issuer to check against: the ID token is passed on unchecked ("id_token_claims":
          null), and --id-token-from-stdin is a usage error. A refused ID token refuses the
          whole response (step id_token, exit 65; none of its tokens is printed).
          An error response: {"outcome":"token_error","error":…,"error_description":…|null,
          "error_uri":…|null,"status":N}. A refusal: {"outcome":"rejected","reason":…,
          "detail":…,"offset":null,"step":…}.

        """
    static let options: [OptionDeclaration] =
        [
            CommonOptions.clientID.required(),
            CommonOptions.issuer.required(oneOf: "token endpoint").described(
                "The issuer whose discovery document names the token endpoint."),
            CommonOptions.scope.described("Ask for a narrower scope than the one granted (RFC 6749 §6)."),
            Option.idTokenFromStdin,
            RefreshedIDTokenCheck.requireSameAuthTime,
            OutputOption.declaration,
        ]
        + TokenStep.sharedDeclarations.map { option in
            // Without --issuer's discovery, the token endpoint must be given.
            let listed = option.listed(under: refreshGroup)
            return option.name == CommonOptions.tokenEndpoint.name ? listed.required(oneOf: "token endpoint") : listed
        }
    /// The options only refresh reads.
    enum Option {
        static let idTokenFromStdin = OptionDeclaration.flag(
            "id-token-from-stdin",
            "Read the login's ID token from a line of stdin and check that the refreshed one names the same user (needs --issuer).")
    }
    static let refreshGroup = OptionGroup("TOKEN OPTIONS", note: "the tokens are secrets, printed on stdout only; needs curl")
    static let discussion = """
        EXIT CODES:
          0 new tokens; 1 the token endpoint answered an error (e.g. invalid_grant: the
          refresh token expired or was revoked); 64 usage (also: a login ID token on stdin
          that is malformed or of another issuer or client); 65 a refused response, ID
          token or document; 69 curl missing or no HTTP answer (transport_unavailable,
          transport_failed); 75 timed out (also: no line on stdin within 30 seconds).
          74 the result could not be written (stdout full, closed or gone; the --output file
          refused): stderr says the tokens were issued and lost.

        EXAMPLE:
          jq -r .refresh_token login.json | callback-router refresh \\
              --issuer https://example.auth0.com/ --client-id abc123 --output tokens.json
          jq -r '.refresh_token, .id_token' login.json | callback-router refresh \\
              --issuer https://example.auth0.com/ --client-id abc123 --id-token-from-stdin

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let clientID: String, issuer: String?, scope: String?
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            guard let id = try args.single(CommonOptions.clientID) else {
                throw Arguments.UsageError(description: "--client-id is required")
            }
            clientID = id
            issuer = try args.single(CommonOptions.issuer)
            scope = try args.single(CommonOptions.scope)
            try OutputOption.apply(args, context: context)
        } catch {
            return usageError(error.description, context: context)
        }
        let withSecret = args.has(CommonOptions.clientSecretFromStdin)
        let withIDToken = args.has(Option.idTokenFromStdin)
        if withIDToken && issuer == nil {
            return usageError(
                "--id-token-from-stdin needs --issuer: the refreshed ID token is checked against the issuer's", context: context)
        }
        var exit: Int32 = 0
        let names = ["refresh token"] + (withSecret ? ["client secret"] : []) + (withIDToken ? ["login's ID token"] : [])
        guard
            let lines = TokenStep.readSecrets(
                names.count, naming: names.joined(separator: " and "), for: Self.self, context: context, exit: &exit)
        else { return exit }
        let previousIDToken = withIDToken ? lines[names.count - 1] : nil
        if let previousIDToken, let issuer {
            do throws(CallbackError) {
                try TokenSet.checkPreviousIDToken(previousIDToken, clientID: clientID, issuer: issuer)
            } catch {
                return usageError("stdin: \(error.detail) (\(error.reason.rawValue))", context: context)
            }
        }
        let step: TokenStep
        switch TokenStep.prepare(
            args, for: Self.self, clientID: clientID, issuer: issuer, secret: withSecret ? lines[1] : nil, expectsIDToken: false,
            context: context)
        {
        case .ready(let ready): step = ready
        case .ended(let exit): return exit
        }
        do throws(StepFailure) {
            let request: TokenRequest
            do {
                request = try TokenRequest.refresh(
                    lines[0], tokenEndpoint: step.tokenEndpoint, clientID: clientID, scope: scope,
                    authentication: step.authentication, allowingLoopbackHTTP: step.allowHTTP)
            } catch {
                throw StepFailure(error, step: "token_request")
            }
            switch try step.exchange(request, context: context) {
            case .error(let tokenError):
                context.printJSON(TokenStep.errorJSON(tokenError))
                return ExitCode.providerFailure
            case .tokens(let tokens):
                let claims = try Self.check(
                    tokens, clientID: clientID, issuer: issuer, previousIDToken: previousIDToken,
                    signingAlgorithms: step.signingAlgorithms, authTime: RefreshedIDTokenCheck.authTime(args), context: context)
                let members = TokenStep.tokenMembers(tokens, claims: claims).map { member in
                    member.0 == "id_token_claims" ? (member.0, Self.noncePrinted(member.1, checked: claims?.nonceChecked ?? false)) : member
                }
                context.printJSON(.object([("outcome", .string("tokens"))] + members))
                return ExitCode.success
            }
        } catch {
            return error.print(context: context)
        }
    }

    /// The refreshed ID token's check (OpenID Connect Core §12.2): compared with the login's
    /// ID token when given (a new `auth_time` as `authTime` says, with a line on stderr),
    /// else on its own; nil without an issuer (nothing to check against) or without an ID token.
    static func check(
        _ tokens: TokenSet, clientID: String, issuer: String?, previousIDToken: String?, signingAlgorithms: [String],
        authTime: RefreshedAuthTime, context: CommandContext
    ) throws(StepFailure) -> IDTokenClaims? {
        guard let issuer else { return nil }
        if let previousIDToken {
            return try RefreshedIDTokenCheck.check(
                tokens, previousIDToken: previousIDToken, clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms,
                authTime: authTime, for: Self.self,
                advice: "none of its tokens is printed; if the account is not the one you signed in with, sign in again",
                context: context)
        }
        do {
            return try tokens.checkRefreshedIDToken(clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms)
        } catch {
            throw StepFailure(error, step: "id_token")
        }
    }

    /// `nonce_matched` in the printed claims: true when a nonce was compared, null when none was.
    static func noncePrinted(_ claims: JSONValue, checked: Bool) -> JSONValue {
        guard case .object(let members) = claims.storage else { return claims }
        return .object(members.map { $0.0 == "nonce_matched" ? ($0.0, checked ? .bool(true) : .null) : $0 })
    }
}

#endif
