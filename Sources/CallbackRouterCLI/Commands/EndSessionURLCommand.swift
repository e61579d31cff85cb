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

/// `callback-router end-session-url …`: an RP-Initiated Logout request URL and its state.
enum EndSessionURLCommand: Command {
    static let name = "end-session-url"
    static let summary = "Build an OpenID Connect logout (end-session) request URL"
    static let overview = """
        OVERVIEW: Build an OpenID Connect RP-Initiated Logout 1.0 request URL with a fresh
        random state, for scripts that end the user's session at the provider. The provider
        then sends the browser to the post-logout redirect URI with that state: check it with
        'callback-router parse --logout --state S'.

        """
    static let options: [OptionDeclaration] = [
        CommonOptions.endpoint.required().described(
            "The provider's end_session_endpoint (its discovery document names it), e.g. https://example.okta.com/oauth2/v1/logout. https, or http only to a loopback IP literal; no userinfo, no fragment. Its own query parameters are kept."
        ),
        Option.postLogoutRedirectURI.required(),
        CommonOptions.clientID.described(
            "The client_id. Needed when no ID token hint is given: the provider must know whose redirect URIs to check."),
        Option.idTokenHintFromStdin.only(in: openIDConnectMode),
        Option.logoutHint,
        Option.uiLocales,
        CommonOptions.param.described(
            "An extra parameter; repeat for more. It may not be one the request sets itself (id_token_hint, logout_hint, client_id, post_logout_redirect_uri, state, ui_locales, returnTo), one the endpoint's query has, nor be given twice."
        ),
        Option.style,
        OptionValues.policy.declaration(then: "As for 'parse'."),
        CommonOptions.allowLocalhost,
    ]

    /// OpenID Connect RP-Initiated Logout 1.0: the default.
    static let openIDConnectMode = CommandMode("OpenID Connect")
    /// `--style auth0-return-to`: Auth0's /v2/logout, which takes no id_token_hint (it ignores one).
    static let auth0Mode = CommandMode("Auth0", chosenBy: "style", value: EndSessionRequest.Style.auth0ReturnTo.rawValue)
    static let modes = [openIDConnectMode, auth0Mode]

    /// The options only end-session-url reads.
    enum Option {
        static let postLogoutRedirectURI = OptionDeclaration.value(
            "post-logout-redirect-uri", "U",
            "Where the provider sends the browser back, sent exactly as given; it must be registered at the provider. Checked as 'parse' checks a --redirect-uri."
        )
        static let idTokenHintFromStdin = OptionDeclaration.flag(
            "id-token-hint-from-stdin",
            "Read the id_token_hint (the ID token of the login, a compact JWT, at most 8192 bytes) from the first line of stdin, within 30 seconds. Never taken from the command line, where other users see it in the process list."
        )
        static let logoutHint = OptionDeclaration.value("logout-hint", "H", "A hint about the user to log out (logout_hint).")
        static let uiLocales = OptionDeclaration.value("ui-locales", "L", "Space-separated BCP 47 language tags (ui_locales).")
        static let style = OptionDeclaration.value(
            "style", "S",
            "rp-initiated (default): OpenID Connect RP-Initiated Logout 1.0, with a state. auth0-return-to: Auth0's /v2/logout, which takes client_id and returnTo and returns no state: the output then has \"state\":null, and its callback is checked with 'parse --logout --no-state'.",
            choices: EndSessionRequest.Style.allCases.map(\.rawValue))
    }
    static let discussion = """
        OUTPUT:
          {"url":…,"state":…}   The url carries the id_token_hint when one was read: treat it
          as a secret. A bad setting prints
          {"outcome":"rejected","reason":"invalid_configuration","detail":…,"offset":N|null}.

        EXIT CODES:
          0 printed, 64 usage or invalid configuration, 75 no hint arrived on stdin in time.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          printf '%s\\n' "$id_token" | callback-router end-session-url \\
              --endpoint https://example.okta.com/oauth2/v1/logout \\
              --post-logout-redirect-uri com.example.app:/logout --id-token-hint-from-stdin

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        var exit: Int32 = 0
        let endpoint: String, redirectURI: String, style: EndSessionRequest.Style, policy: RedirectURIPolicy
        let clientID: String?, logoutHint: String?, uiLocales: String?
        var extra: [(String, String)] = []
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            endpoint = try args.required(CommonOptions.endpoint)
            redirectURI = try args.required(Option.postLogoutRedirectURI)
            let styleName = try args.single(Option.style) ?? EndSessionRequest.Style.rpInitiated.rawValue
            guard let chosen = EndSessionRequest.Style(rawValue: styleName) else {
                throw .init(description: "--style takes " + EndSessionRequest.Style.allCases.map(\.rawValue).joined(separator: " or "))
            }
            style = chosen
            clientID = try args.single(CommonOptions.clientID)
            logoutHint = try args.single(Option.logoutHint)
            uiLocales = try args.single(Option.uiLocales)
            policy = try OptionValues.policy.read(args)
            for pair in args.all(CommonOptions.param) {
                guard let equals = pair.firstIndex(of: "=") else { throw .init(description: "--param takes NAME=VALUE") }
                extra.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            }
        } catch {
            return usageError(error.description, context: context)
        }

        if let exit = RedirectURIOption.refusal(
            of: redirectURI, label: "--post-logout-redirect-uri", policy: policy, allowLocalhost: args.has(CommonOptions.allowLocalhost),
            command: name, context: context)
        {
            return exit
        }

        var hint: String?
        if args.has(Option.idTokenHintFromStdin) {
            guard let line = readFromStandardInput("id-token-hint", seconds: 30, context: context, exit: &exit) else {
                return exit
            }
            hint = line
        }
        let state = style == .rpInitiated ? AttemptSecrets.randomToken() : nil
        let request: EndSessionRequest
        do {
            request = try EndSessionRequest(
                endpoint: endpoint, postLogoutRedirectURI: redirectURI, state: state,
                idTokenHint: hint, clientID: clientID, logoutHint: logoutHint,
                uiLocales: uiLocales, extraParameters: extra, style: style)
        } catch {
            context.printJSON(Rendering.rejectionJSON(reason: error.reason, detail: error.detail, offset: nil))
            return ExitCode.usage
        }
        context.printJSON(.object([("url", .string(request.url)), ("state", state.map { .string($0) } ?? .null)]))
        return ExitCode.success
    }
}

#endif
