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

import CallbackDesktop
import CallbackLoopback
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
    static let schemeGroup = OptionGroup("SCHEME OPTIONS", note: "a scheme registered with 'callback-router register'")

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
        static let noBrowser = OptionDeclaration.flag("no-browser", "Do not start a browser (the URL to open is on stderr, as always).")
        static let scheme = CommonOptions.scheme.described("Receive the callback through the desktop's x-scheme-handler.")
            .listed(under: schemeGroup).only(in: schemeMode)
        static let redirectURI = OptionDeclaration.value(
            "redirect-uri", "U", "The redirect URI to send (default S:/callback); its scheme must be S.", group: schemeGroup
        ).only(in: schemeMode)
    }

    /// What login's options ask for, read and checked before anything happens.
    struct Plan {
        /// The authorization endpoint; empty until discovery names it (`--issuer` alone).
        var endpoint: String
        let clientID: String
        let scope: String?
        /// The extra authorization parameters (`--param`, and `response_mode=form_post`).
        let extra: [(String, String)]
        var expectations: LoopbackExpectations
        /// `--scheme S`, or nil for the loopback receiver.
        let scheme: String?
        let loopback: LoopbackReceiver.Configuration
        let timeout: Duration
        /// The timeout as given, for the messages (`300 seconds`).
        let timeoutText: String
        let noBrowser: Bool
        /// Whether the tokens are stored after the sign-in (`--no-store`, `--account`).
        let storing: TokenStoring

        var seconds: Double { Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18 }
    }

    /// One sign-in under way: what its outcome carries, whichever receiver waits for it.
    struct Attempt {
        let secrets: AttemptSecrets
        /// The redirect URI sent.
        let redirectURI: String
        /// Where the person signs in, for the last line (``SignInSummary``).
        let place: (String, expected: String?)

        /// What every outcome of the login adds: what the token request needs, and the nonce.
        var extras: [(String, JSONValue)] {
            [
                ("code_verifier", .string(secrets.pkce.verifier)), ("redirect_uri", .string(redirectURI)),
                ("nonce", .string(secrets.nonce)),
            ]
        }
    }

    /// How the wait for the callback ended, whichever receiver waited.
    enum Ending {
        case judged(Result<CallbackOutcome, CallbackError>)
        case timedOut
        /// Another listener of the scheme could take the same callback.
        case conflict(CallbackScheme)
        /// SIGINT or SIGTERM ended the wait.
        case stopped
        /// The receiver refused to wait (its redirect URI); printed without the extras.
        case refused(CallbackError)
        /// Already said and done, with this exit code.
        case ended(Int32)
    }

    /// Checks the options, runs the token step's discovery when asked, begins the attempt,
    /// waits on the loopback receiver or the scheme, then ends with ``finish(_:of:plan:tokenStep:context:)``.
    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        if modes.chosen(by: args) == deviceMode {
            return DeviceFlow.login(args, for: Self.self, endpointOption: Option.deviceAuthorizationEndpoint, context: context)
        }
        var plan: Plan
        do throws(Arguments.UsageError) {
            plan = try check(args, context: context)
        } catch {
            return usageError(error.description, context: context)
        }
        if let refusal = HTTPLoopbackRule.refusal(args) { return refusal.print(context: context) }
        var tokenStep: TokenStep?
        if TokenStep.isRequested(args) {
            switch TokenStep.prepareLogin(
                args, for: Self.self, clientID: plan.clientID, scope: plan.scope, expectations: &plan.expectations, context: context)
            {
            case .ready(let step):
                tokenStep = step
                if let device = DeviceFlow.instead(
                    of: step, issuer: plan.expectations.issuer, clientID: plan.clientID, scope: plan.scope,
                    codeFlowOptionGiven: options.contains { args.gave($0) && !$0.applies(in: deviceMode) }, command: name,
                    storing: plan.storing, context: context)
                {
                    return device.run(context: context)
                }
                if plan.endpoint.isEmpty { plan.endpoint = step.metadata?.authorizationEndpoint ?? "" }
            case .ended(let exit): return exit
            }
        }
        let secrets = AttemptSecrets()
        plan.expectations.state = secrets.state
        if let scheme = plan.scheme {
            let redirectURI = (try? args.single(Option.redirectURI)) ?? nil
            return waitForScheme(scheme, redirectURI: redirectURI, plan: plan, secrets: secrets, tokenStep: tokenStep, context: context)
        }
        return waitOnLoopback(plan: plan, secrets: secrets, tokenStep: tokenStep, context: context)
    }

    /// The options read into a ``Plan``; usage errors only.
    static func check(_ args: Arguments, context: CommandContext) throws(Arguments.UsageError) -> Plan {
        try args.noPositionals()
        let endpoint = try args.single(CommonOptions.endpoint) ?? ""
        if endpoint.isEmpty && !TokenStep.isRequested(args) { throw Arguments.UsageError(description: "--endpoint is required") }
        guard let clientID = try args.single(CommonOptions.clientID) else {
            throw Arguments.UsageError(description: "--client-id is required")
        }
        let scope = try OptionValues.scope(args)
        var extra: [(String, String)] = []
        for pair in args.all(CommonOptions.param) {
            guard let equals = pair.firstIndex(of: "=") else { throw Arguments.UsageError(description: "--param takes NAME=VALUE") }
            if let hint = ExtraParameterHints.loginRefusal(of: String(pair[..<equals])) {
                throw Arguments.UsageError(description: hint)
            }
            extra.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
        }
        var expectations = LoopbackExpectations()
        expectations.dialect = try OptionValues.dialect.read(args)
        expectations.issuer = try args.single(CommonOptions.issuer)
        if expectations.issuer?.isEmpty == true { throw Arguments.UsageError(description: "--issuer must not be empty") }
        expectations.requiresIssuer = args.has(CommonOptions.requireIssuer)
        if expectations.requiresIssuer && expectations.issuer == nil {
            throw Arguments.UsageError(description: "--require-issuer needs --issuer")
        }
        expectations.limits = try OptionValues.limits(args)
        expectations.profiles = try OptionValues.profiles(args)
        try OutputOption.apply(args, context: context)
        var (loopback, timeout, timeoutText) = try LoopbackOptions.readConfiguration(args)
        if loopback.pasteDescriptor != nil {
            loopback.pasteDescriptor = context.standardInput
        } else if context.offersPasteBack, !args.gave(Option.scheme), !args.has(CommonOptions.clientSecretFromStdin) {
            loopback.pasteDescriptor = context.standardInput
        }
        let scheme = try args.single(Option.scheme)
        if loopback.responseMode == .formPost { extra.append(("response_mode", "form_post")) }
        if args.has(CommonOptions.clientSecretFromStdin) && loopback.pasteDescriptor != nil {
            throw Arguments.UsageError(description: "--client-secret-from-stdin and --accept-paste both read stdin")
        }
        return Plan(
            endpoint: endpoint, clientID: clientID, scope: scope, extra: extra, expectations: expectations, scheme: scheme,
            loopback: loopback, timeout: timeout, timeoutText: timeoutText, noBrowser: args.has(Option.noBrowser),
            storing: try TokenStoring.read(args))
    }

    /// The loopback receiver: binds it, opens the browser on its one-time start link, waits.
    private static func waitOnLoopback(plan: Plan, secrets: AttemptSecrets, tokenStep: TokenStep?, context: CommandContext) -> Int32 {
        let deadline = ContinuousClock.now.advanced(by: plan.timeout)
        if let refusal = LoopbackOptions.refusal(of: plan.expectations.dialect) {
            return context.print(Rendering.verdict(.failure(refusal)))
        }
        let receiver: LoopbackReceiver
        do {
            receiver = try LoopbackReceiver(HeldPage.configuration(plan.loopback, tokenStep: tokenStep != nil))
        } catch {
            // The outcome JSON, as for every other failure, a taken --port included.
            let reason: ReasonCode = error.code == .addressInUse ? .conflict : .invalidConfiguration
            context.printJSON(Rendering.rejectionJSON(reason: reason, detail: error.detail, offset: nil))
            let advice = error.code == .addressInUse ? "; choose another --port, or leave it out for a free one" : ""
            context.printError("\(name): \(error.detail)\(advice)")
            return error.exitCode
        }
        do {
            let request = try AuthorizationRequest(
                endpoint: plan.endpoint, clientID: plan.clientID, redirectURI: receiver.redirectURI,
                scope: plan.scope, secrets: secrets, extraParameters: plan.extra)
            try receiver.setAuthorizationURL(request.url)
        } catch {
            context.printJSON(Rendering.rejectionJSON(error))
            return ExitCode.usage
        }
        let attempt = Attempt(secrets: secrets, redirectURI: receiver.redirectURI, place: place(of: plan))
        let seconds = plan.seconds
        let pasting = plan.loopback.pasteDescriptor != nil
        context.interruption?.beginWaiting(output: context.output, extras: attempt.extras)
        let presenting = BrowserLauncher.presentStartURL(
            receiver, noBrowser: plan.noBrowser, pasting: pasting, seconds: seconds, name: name, context: context)
        defer { presenting.withLock { $0 = true } }
        if pasting {
            context.printError("\(name): or paste here the URL the browser was sent to (from its address bar) and press Enter")
        }
        context.printError(
            "\(name): waiting for the callback on \(receiver.redirectURI) (at most \(Durations.describe(seconds: seconds)); --timeout)")
        let reminding = WaitReminder.start(seconds: seconds, redirectURI: receiver.redirectURI, name: name, context: context)
        defer { reminding.withLock { $0 = true } }

        let ending: Ending
        do {
            let result = try context.stoppable(by: receiver.close) { () throws(CallbackError) -> LoopbackWaitResult in
                try receiver.receive(expecting: plan.expectations, until: deadline) { line in context.printError("\(name): \(line)") }
            }
            switch result {
            case .callback(let judged): ending = .judged(judged)
            case .timedOut: ending = .timedOut
            case .stopped: ending = .stopped
            }
        } catch {
            ending = .refused(error)
        }
        // The page of an accepted callback waits for the token step: it tells what the terminal tells.
        var concluded: JSONValue?
        let exit = finish(ending, of: attempt, plan: plan, tokenStep: tokenStep, context: context) { concluded = $0 }
        receiver.finish(HeldPage.ending(for: concluded, place: attempt.place.0, expectedIssuer: attempt.place.expected))
        return exit
    }

    /// `--scheme S`: the callback comes through the desktop's x-scheme-handler (`open`); the
    /// browser is opened on a one-time start link on 127.0.0.1.
    private static func waitForScheme(
        _ schemeText: String, redirectURI: String?, plan: Plan, secrets: AttemptSecrets, tokenStep: TokenStep?,
        context: CommandContext
    ) -> Int32 {
        let scheme: CallbackScheme
        do { scheme = try CallbackScheme(validating: schemeText) } catch {
            return usageError("--scheme: \(error.detail)", context: context)
        }
        if let warning = HandlerCheck.warning(for: scheme, context: context) { context.printError("\(name): \(warning)") }
        let redirectText = redirectURI ?? scheme.name + ":/callback"
        let expectations = plan.expectations
        let validator: CallbackValidator
        let request: AuthorizationRequest
        do {
            let redirect = try RedirectURI(redirectText, policy: .native)
            guard redirect.url.scheme == scheme.name else {
                return usageError("--redirect-uri must use the scheme '\(scheme.name)'", context: context)
            }
            validator = try CallbackValidator(
                redirectURIs: [redirect], policy: .native, dialect: expectations.dialect,
                expecting: CallbackExpectations(
                    state: secrets.state, issuer: expectations.issuer,
                    requiresIssuer: expectations.requiresIssuer, profiles: expectations.profiles))
            request = try AuthorizationRequest(
                endpoint: plan.endpoint, clientID: plan.clientID, redirectURI: redirectText, scope: plan.scope,
                secrets: secrets, extraParameters: plan.extra)
        } catch {
            context.printJSON(Rendering.rejectionJSON(error))
            return ExitCode.usage
        }
        let attempt = Attempt(secrets: secrets, redirectURI: redirectText, place: place(of: plan))
        // The routing rule already keeps callbacks without this state away; one of another
        // redirect URI is not this login's either: the wait goes on.
        let judge = CallbackJudge(validator: validator, limits: expectations.limits)
        // The browser is opened on a one-time link on 127.0.0.1, never on the authorization
        // URL: a command line is readable by every local user. Only the redirect comes back
        // through the scheme.
        let seconds = plan.seconds
        let link: LoopbackStartLink
        do {
            link = try LoopbackStartLink(authorizationURL: request.url, .init(lifetime: .milliseconds(Int64(seconds * 1000)))) { line in
                context.printError("\(name): \(line)")
            }
        } catch {
            context.printError("\(name): the one-time sign-in link could not be served on 127.0.0.1: \(error.detail)")
            return error.exitCode
        }
        context.interruption?.beginWaiting(output: context.output, extras: attempt.extras)
        var presenting: Locked<Bool>?
        var reminding: Locked<Bool>?
        let received = HandoffWait.receive(
            scheme: scheme, state: secrets.state, timeout: .milliseconds(Int64(seconds * 1000)), judge: judge, command: name,
            context: context
        ) {
            presenting = BrowserLauncher.presentStartLink(link, noBrowser: plan.noBrowser, seconds: seconds, name: name, context: context)
            context.printError(
                "\(name): waiting for the callback on \(scheme.name): (the handler registered with 'callback-router register';"
                    + " at most \(Durations.describe(seconds: seconds)); --timeout)")
            reminding = WaitReminder.start(seconds: seconds, redirectURI: redirectText, scheme: scheme.name, name: name, context: context)
        }
        // The wait is over: the link is not served a moment longer than it is needed, and no reminder follows.
        reminding?.withLock { $0 = true }
        presenting?.withLock { $0 = true }
        link.close()
        let ending: Ending
        switch received {
        case .judged(let judged): ending = .judged(judged)
        case .conflict: ending = .conflict(scheme)
        case .timedOut: ending = .timedOut
        case .ended(let exit): ending = .ended(exit)
        }
        return finish(ending, of: attempt, plan: plan, tokenStep: tokenStep, context: context)
    }

    /// Where the person signs in, as the last line names it.
    static func place(of plan: Plan) -> (String, expected: String?) {
        (SignInSummary.place(issuer: plan.expectations.issuer, endpoint: plan.endpoint), expected: plan.expectations.issuer)
    }

    /// Ends the login as its wait ended: the token step after a code, when asked; else the
    /// outcome JSON with the attempt's extras, and the line a person reads.
    /// `concluded` sees the final JSON (the loopback page is told how the sign-in ended).
    static func finish(
        _ ending: Ending, of attempt: Attempt, plan: Plan, tokenStep: TokenStep?, context: CommandContext,
        concluded: (JSONValue) -> Void = { _ in }
    ) -> Int32 {
        let place = attempt.place
        let extras = attempt.extras
        switch ending {
        case .judged(.success(let outcome)):
            let printed = Rendering.outcomeJSON(outcome).appending(extras)
            if let tokenStep {
                return tokenStep.finish(
                    outcome, secrets: attempt.secrets, redirectURI: attempt.redirectURI, printed: printed, context: context
                ) { json in
                    let stored = plan.storing.afterLogin(
                        json, issuer: plan.expectations.issuer, clientID: plan.clientID, scope: plan.scope, context: context)
                    concluded(stored)
                    conclude(place: place, context: context, stored)
                }
            }
            conclude(place: place, context: context, printed)
            return Rendering.exitCode(for: outcome)
        case .judged(.failure(let error)):
            conclude(place: place, context: context, Rendering.rejectionJSON(error).appending(extras))
            return Rendering.exitCode(for: error)
        case .timedOut:
            return concludeRejection(.timeout, detail: timeoutDetail(plan.timeoutText), extras: extras, place: place, context: context)
        case .conflict(let scheme):
            return concludeRejection(
                .conflict, detail: "another listener of '\(scheme)' could take the same callback, so none got it", extras: extras,
                place: place, context: context)
        case .stopped:
            conclude(place: place, context: context, context.stoppedJSON().appending(extras))
            return context.stoppedExitCode()
        case .refused(let error):
            conclude(place: place, context: context, Rendering.rejectionJSON(error))
            return ExitCode.usage
        case .ended(let exit):
            return exit
        }
    }
}

extension LoginCommand {
    /// The detail of a login that no callback ended in time, both receivers alike.
    static func timeoutDetail(_ timeoutText: String) -> String { "no callback for this login arrived within \(timeoutText)" }

    /// Concludes with the rejection `reason` (a timeout, a conflict): its JSON with `extras`
    /// and the human line; returns its exit code, 75 (try again).
    static func concludeRejection(
        _ reason: ReasonCode, detail: String, extras: [(String, JSONValue)], place: (String, expected: String?), context: CommandContext
    ) -> Int32 {
        conclude(place: place, context: context, Rendering.rejectionJSON(reason: reason, detail: detail, offset: nil).appending(extras))
        return ExitCode.tryAgain
    }

    /// Prints the final JSON, then on stderr the line a person reads (SignInSummary), in
    /// colour only on a terminal and never with NO_COLOR set. Not when stdout lost the JSON:
    /// the command then ends 74 with the line that says so, never "✓ Signed in".
    static func conclude(place: (String, expected: String?), context: CommandContext, _ json: JSONValue) {
        guard context.printOutcome(json) else { return }
        context.writeHumanLine(
            SignInSummary.line(for: json, place: place.0, expectedIssuer: place.expected, colour: context.colourOnStandardError))
    }
}

#endif
