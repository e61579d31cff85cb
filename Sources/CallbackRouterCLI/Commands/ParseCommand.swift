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

/// `callback-router parse URL`: validate a callback and print what it means.
enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "Validate a callback URL and print what it means"
    static let overview = """
        OVERVIEW: Validate a callback URL and print what it means, as one JSON object.

        ARGUMENTS:
          URL                     The callback URL, exactly as delivered (quote it in the shell).

        """
    static let usageArguments = "URL"
    static let options: [OptionDeclaration] =
        [
            OptionValues.dialect.declaration(
                then: "auto picks by the parameters present and never picks \(OptionValues.listed(OptionValues.dialectsAutoNeverPicks))."),
            CommonOptions.redirectURI.described(
                "A registered redirect URI; repeat for several. The callback must answer one of them (scheme and host case-insensitive, port exact except loopback, path exact, registered query parameters present). None given: any the policy allows."
            ),
            OptionValues.policy.declaration(
                then: OptionValues.listed(OptionValues.customSchemeDialects.map { "--dialect " + $0 })
                    + " imply custom-scheme-only (their providers refuse an http/https redirect URI)."),
            CommonOptions.allowLocalhost.described(
                "Accept http://localhost as a loopback redirect, and https://localhost (RFC 8252 §8.3 advises against both)."),
            CommonOptions.state.required(in: LogoutOptions.logoutMode, oneOf: "state").described(
                "The expected state: none in the callback is state_missing, another is state_mismatch (constant-time comparison)."),
            FlowIDOption.declaration.only(in: LogoutOptions.loginMode),
            CommonOptions.issuer.described("The expected iss (RFC 9207), checked when the callback has one.").only(
                in: LogoutOptions.loginMode),
            CommonOptions.requireIssuer.described("The callback must carry iss (issuer_missing otherwise).").only(
                in: LogoutOptions.loginMode),
            OptionValues.responseMode.declaration(then: "Where the response parameters are.").only(in: LogoutOptions.loginMode),
            OptionValues.profileDeclaration.only(in: LogoutOptions.loginMode),
            LogoutOptions.logout.described(
                "The URL is the end of a logout (OpenID Connect RP-Initiated Logout 1.0): the provider's redirect to the post-logout redirect URI, with the state the end-session request sent (callback-router end-session-url). It may carry no login parameter (code, error, iss, status...: invalid_parameter). Needs --state S, or --no-state."
            ),
            CommonOptions.noState.required(in: LogoutOptions.logoutMode, oneOf: "state").described(
                "With --logout: the provider returns no state (Auth0's /v2/logout returnTo); the outcome says \"unbound\":true, since anyone can send such a callback."
            ).only(in: LogoutOptions.logoutMode),
        ] + OptionValues.limitDeclarations
    static let modes = LogoutOptions.modes
    static let discussion = """
        OUTPUT:
          {"outcome":…,"dialect":…,…fields…,"extra":{name:value,…}}
          outcome is authorization_code, challenge_token, session_token_exchange_code,
          login_success, partial_registration, login_failure, rotating_token_nonce,
          authorization_error, or with --dialect clerk clerk_failure, account_transfer,
          bare_callback or magic_link, or with --dialect ory continue_login_flow
          (account linking: continue the login flow named by flow) (logout_complete
          with --logout; "unbound":true with --no-state); dialect the one that
          decided; fields under their wire names
          (code, state, iss, challenge_token, action, status, session_id, tracking_id,
          state_key, identifier, message, rotating_token_nonce, created_session_id, error,
          error_description, error_uri, flow, flow_id, approval_token, __clerk_status,
          __clerk_error_code). Human text that breaks its syntax is left out and named in
          "withheld":[…]. "unbound":true marks an outcome with no state and no secret, which
          anyone can send and which answers no login of yours: an error a --profile lets
          through without the app's state (supabase, cognito), any error on clerk, and
          Clerk's clerk_failure, account_transfer and bare_callback (ask Clerk for the
          sign-in's status). clerk_failure's __clerk_error_code is oauth_access_denied or
          oauth_callback_failed (any other code Clerk sent is not shown).
          A refusal prints
          {"outcome":"rejected","reason":…,"detail":…,"offset":N|null}; the offset is into
          the URL, or into the --redirect-uri value the detail names.
          A private-use --redirect-uri scheme without a dot (myapp) is accepted with a warning
          on stderr (RFC 8252 §7.1 recommends a reverse domain name).

        EXIT CODES:
          0 success outcome (also account_transfer, bare_callback, magic_link,
          continue_login_flow), 1 the provider reported a failure (authorization_error,
          login_failure, clerk_failure), 64 usage or a bad --redirect-uri (invalid_configuration), 65 rejected.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLES:
          callback-router parse --dialect oauth2 --redirect-uri com.example.app:/oauth2redirect \\
              --state af0ifjsldkj 'com.example.app:/oauth2redirect?code=SplxlOBe&state=af0ifjsldkj'
          callback-router parse --dialect prelude \\
              'myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdF8xIn0.zRxqz8OUemtFQO9U6gzsvWGFKsTTawPh9DlkCYA0kLY'
          callback-router parse --logout --state Zm9vYmFy --redirect-uri com.example.app:/logout \
              'com.example.app:/logout?state=Zm9vYmFy'

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let url: String
        let options: CallbackOptions
        let flowID: String?
        do throws(Arguments.UsageError) {
            url = try args.onePositional("URL")
            options = try CallbackOptions(args, state: args.single(CommonOptions.state))
            try checkLogoutOptions(args)
            flowID = try FlowIDOption.read(args, dialect: options.dialect)
        } catch {
            return usageError(error.description, context: context)
        }
        switch options.validator(warn: { context.printError("\(name): " + $0) }) {
        case .success(let validator):
            return context.print(Rendering.verdict(FlowIDOption.check(options.judge(url, with: validator), flowID: flowID)))
        case .failure(let refusal): return context.print(Rendering.verdict(.failure(refusal)))
        }
    }

    /// `--logout` needs `--state S` or `--no-state` (which ``modes`` keep to `--logout`).
    static func checkLogoutOptions(_ args: Arguments) throws(Arguments.UsageError) {
        guard args.has(LogoutOptions.logout) else { return }
        switch (args.gave(CommonOptions.state), args.has(CommonOptions.noState)) {
        case (true, true): throw Arguments.UsageError(description: "--state and --no-state exclude each other")
        case (false, false): throw Arguments.UsageError(description: "--logout needs the logout's --state S, or --no-state")
        default: break
        }
    }
}

#endif
