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

/// `callback-router login`: the whole flow in one command. Builds the authorization request
/// (PKCE, state, nonce), binds the loopback receiver (or listens on a registered scheme),
/// opens the browser, waits, and prints the outcome as `parse` does plus what the token
/// request needs.
enum LoginCommand: Command {
    static let name = "login"
    static let summary = "Run a whole login: build the request, open the browser, wait, print the outcome"
    static let overview = """
        OVERVIEW: Run one OAuth 2.0 / OpenID Connect login (authorization code + PKCE) from
        the terminal and print what the token request needs.

        OUTPUT (one JSON object on stdout):
          The outcome exactly as 'parse' prints it, plus "code_verifier" (the PKCE verifier
          of this login) and "redirect_uri" (the one sent): everything the token request needs;
          and "nonce" (the one sent), which the ID token's nonce claim must equal.
          Progress goes to stderr and never shows the state, the code or the verifier; its
          last line says what happened in words ("✓ Signed in at ISSUER-OR-HOST", "✗ Sign-in
          cancelled at the provider: access_denied", "✗ Refused: REASON: …"), in colour only
          when stderr is a terminal and NO_COLOR is unset or empty.

        """
    static let options: [OptionDeclaration] =
        [
            Option.device, Option.deviceAuthorizationEndpoint,
            CommonOptions.endpoint.required(oneOf: "endpoint").described(
                "The authorization endpoint (https); without it, --issuer's discovery document names it (with it, it overrides that one)."
            ).only(in: loopbackMode, schemeMode),
            CommonOptions.clientID.required(),
            CommonOptions.scope.alternative("scope"),
            CommonOptions.noScope.alternative("scope").described(
                "Send no scope at all (the provider's default applies), as authorize-url."),
            CommonOptions.param.described("An extra authorization parameter (repeatable), as authorize-url.").only(
                in: loopbackMode, schemeMode),
            Option.noBrowser.only(in: loopbackMode, schemeMode),
            CommonOptions.timeout.described("How long to wait for the callback (default 300; fractions allowed).").only(
                in: loopbackMode, schemeMode),
            OptionValues.dialect.declaration(
                then: "As for parse. " + OptionValues.listed(OptionValues.customSchemeDialects)
                    + " need --scheme (their providers accept only a custom scheme)."
            ).only(in: loopbackMode, schemeMode),
            CommonOptions.issuer.required(in: deviceMode).required(oneOf: "endpoint").described(
                "The issuer: its discovery document names the endpoints (--endpoint overrides the authorization endpoint), the token step runs, and the callback's 'iss' (RFC 9207) is checked when it has one."
            ),
            CommonOptions.requireIssuer.described("The callback must carry iss (issuer_missing otherwise); needs --issuer.").only(
                in: loopbackMode, schemeMode),
            OptionValues.profileDeclaration.only(in: loopbackMode, schemeMode),
            OutputOption.declaration,
        ] + OptionValues.limitDeclarations.map { $0.only(in: loopbackMode, schemeMode) }
        + LoopbackOptions.receiver(
            under: loopbackGroup, notes: ["response-mode": "login asks the provider for it (response_mode=form_post)."]
        ).map { $0.only(in: loopbackMode) }
        + [
            Option.scheme, Option.redirectURI,
        ] + TokenStep.loginDeclarations.map { $0.name == CommonOptions.tokenEndpoint.name ? $0.only(in: loopbackMode, schemeMode) : $0 }
        + [TokenStoring.noStore, TokenStoring.account]
    static let discussion = """
        BROWSER:
          The sign-in link is always shown on stderr. Each $BROWSER entry (':'-separated)
          is tried in turn, then xdg-open: one that exits non-zero within 1.5 seconds is
          reported and the next is tried; if none starts, or none has fetched the link after
          a third of --timeout (15 seconds at most), stderr says so and the wait goes on.
          The link is the short start URL http://127.0.0.1:PORT/start/<random>, which
          redirects to the authorization URL once: the state, challenge and nonce never
          appear in a command line (any local user can read a browser's), a second visit (or
          anyone else's) gets 410 without it, and on Linux other users' connections get 403.
          With --scheme too: the start link is served on 127.0.0.1 only for the wait, and
          only the provider's redirect comes back through the scheme.
          Under SSH (SSH_CONNECTION set) with no display (DISPLAY, WAYLAND_DISPLAY unset),
          when --issuer's provider offers the device flow and no option of the code flow is
          given (--port, --accept-paste, --endpoint, --scheme…), login says so and signs in
          with the device flow, as --device (a browser on your computer cannot reach this
          machine's 127.0.0.1); give --port P and forward it to keep the redirect.
          Otherwise, under SSH no browser is started on the server: stderr shows
          the link to open on your computer with the ssh -L command that forwards the port,
          and offers --accept-paste (paste the address the browser ends at); with --scheme,
          the link to open in a browser on the machine whose desktop handles the scheme.

        DEVICE FLOW (--device, RFC 8628):
          For a terminal whose machine has no browser (SSH): discovery's
          device_authorization_endpoint gives a code; stderr shows the page to open on any
          device and the code to type there (in groups; exactly as the provider wrote it
          too), and the link with the code in it when the provider gives one. The token
          endpoint is polled at the provider's interval (5 seconds longer after each
          slow_down) until the sign-in is approved, refused, or the code expires. stdout:
          {"outcome":"tokens","grant":"device_code","access_token":…,"token_type":…,
           "expires_in":N|null,"refresh_token":…|null,"scope":…|null,"id_token":…|null,
           "id_token_claims":…|null}, the claims checked as the code flow's (no nonce is
          sent: "nonce_matched" is null). Exit 0 tokens; 1 the provider refused
          (access_denied: the code was declined; {"outcome":"token_error",…}); 75 the code
          expired ("reason":"timeout"); 64 a provider without the endpoint; 130/143 Ctrl-C.
          The device code, the client secret and the tokens go to curl on its stdin only.

        EXIT CODES:
          As parse: 0 success; 1 the provider reported an error; 64 usage; 65 refused callback;
          69 nothing to listen on; 75 timed out (or the port is taken); 77 permission;
          130 / 143 Ctrl-C (SIGINT) / SIGTERM ended the wait (the outcome is the rejection
          "cancelled", with "code_verifier" and "redirect_uri" as always).
          74 the result could not be written (stdout full, closed or gone; the --output file
          refused): stderr says the tokens were issued and lost.

        EXAMPLE:
          callback-router login --issuer https://example.auth0.com/ --client-id abc123 \\
              --scope 'openid profile' --output login.json   # discovery, sign-in, tokens
          callback-router login --device --issuer https://example.auth0.com/ --client-id abc123 \\
              --scope 'openid profile' --output login.json   # over SSH: type a code elsewhere
          callback-router login --endpoint https://example.auth0.com/authorize \\
              --client-id abc123 --scope 'profile' --output login.json
          jq -r .code,.code_verifier,.redirect_uri login.json   # then POST the token request

        """

    /// The callback comes to a loopback receiver of this process: the default.
    static let loopbackMode = CommandMode("loopback")
    /// `--scheme S`: the callback comes through the desktop's x-scheme-handler.
    static let schemeMode = CommandMode("scheme", chosenBy: "scheme")
    /// `--device`: the device authorization grant (RFC 8628), for a terminal without a browser.
    static let deviceMode = CommandMode("device", chosenBy: "device")
    static let modes = [loopbackMode, schemeMode, deviceMode]

    static let loopbackGroup = OptionGroup("LOOPBACK OPTIONS", note: "the default: an RFC 8252 receiver on 127.0.0.1")

    /// The options only login reads.
    enum Option {
        static let device = OptionDeclaration.flag(
            "device",
            "Sign in with the device flow (RFC 8628): type a short code on a page in any browser; for SSH and machines without one (needs --issuer)."
        ).only(in: deviceMode)
        static let deviceAuthorizationEndpoint = OptionDeclaration.value(
            "device-authorization-endpoint", "URL",
            "The device authorization endpoint (https), for a provider whose discovery document does not name it (django-oauth-toolkit's: ISSUER/device-authorization/)."
        ).only(in: deviceMode)
        static let noBrowser = LoginFlow.noBrowser
        static let scheme = LoginFlow.scheme.only(in: schemeMode)
        static let redirectURI = LoginFlow.redirectURI.only(in: schemeMode)
    }

    /// Checks the options, runs the token step's discovery when asked, then runs login's
    /// flow (``LoginFlow``): the loopback receiver or the scheme, the wait, one finish.
    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        if modes.chosen(by: args) == deviceMode {
            return DeviceFlow.login(args, for: Self.self, endpointOption: Option.deviceAuthorizationEndpoint, context: context)
        }
        var plan: LoginFlow.Plan
        do throws(Arguments.UsageError) {
            plan = try LoginFlow.plan(args, context: context)
        } catch {
            return usageError(error.description, context: context)
        }
        if let refusal = HTTPLoopbackRule.refusal(args) { return refusal.print(context: context) }
        var tokenStep: TokenStep?
        if TokenStep.isRequested(args) {
            switch TokenStep.prepareLogin(
                args, for: Self.self, clientID: plan.clientID, scope: plan.scope, expectations: &plan.expectations, context: context)
            {
            case .ready(let step): tokenStep = step
            case .ended(let exit): return exit
            }
        }
        return LoginFlow.signIn(
            plan, tokenStep: tokenStep, codeFlowOptionGiven: options.contains { args.gave($0) && !$0.applies(in: deviceMode) },
            redirectURI: (try? args.single(Option.redirectURI)) ?? nil, command: Self.self, context: context)
    }
}

#endif
