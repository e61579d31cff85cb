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
import CallbackRouter
import CallbackRouterKit

/// `callback-router listen --scheme S …`: wait for one callback and print it as `parse` does.
enum ListenCommand: Command {
    static let name = "listen"
    static let summary = "Wait for one callback of a scheme and print it as parse does"
    static let overview = """
        OVERVIEW: Wait for one callback of a scheme and print it as parse does.

        """
    static let options: [OptionDeclaration] =
        [
            CommonOptions.scheme.required().described("The scheme registered with 'callback-router register'."),
            CommonOptions.state.required(in: LogoutOptions.logoutMode, oneOf: "state").alternative("state").described(
                "The state this login sent: only a callback with this state is routed here (and parse checks it)."),
            CommonOptions.stateFromStdin.required(in: LogoutOptions.logoutMode, oneOf: "state").alternative("state").described(
                "Read that state from the first line of stdin instead, so it never appears in the process list (/proc/PID/cmdline)."),
            CommonOptions.timeout.described(
                "How long to wait (default 300; fractions allowed; 0 to only look in the spool for a callback with this --state)."),
            LogoutOptions.logout.described(
                "Wait for the end of a logout instead (OpenID Connect RP-Initiated Logout 1.0): the provider's redirect to the post-logout redirect URI, printed exactly as 'parse --logout' prints it ({\"outcome\":\"logout_complete\",...}). Needs the end-session request's state (--state S or --state-from-stdin), or --no-state. --dialect, --issuer, --require-issuer, --profile and --response-mode other than query are usage errors with it."
            ),
            CommonOptions.noState.required(in: LogoutOptions.logoutMode, oneOf: "state").described(
                "With --logout: the provider returns no state (Auth0's returnTo); the outcome says \"unbound\":true."
            )
            .only(in: LogoutOptions.logoutMode),
            OptionValues.dialect.declaration().only(in: LogoutOptions.loginMode),
            FlowIDOption.declaration.only(in: LogoutOptions.loginMode),
            CommonOptions.redirectURI.described(
                "A registered redirect URI (repeatable); its scheme must be --scheme S (a callback of another is not this listener's)."),
            OptionValues.policy.declaration(),
            CommonOptions.allowLocalhost.described("Accept localhost redirect URIs, as parse does."),
            CommonOptions.issuer.described("The expected 'iss' (RFC 9207), checked when the callback has one.").only(
                in: LogoutOptions.loginMode),
            CommonOptions.requireIssuer.described("The callback must carry iss (issuer_missing otherwise).").only(
                in: LogoutOptions.loginMode),
            OptionValues.responseMode.declaration(),
            OptionValues.profileDeclaration.only(in: LogoutOptions.loginMode),
        ] + OptionValues.limitDeclarations
    static let modes = LogoutOptions.modes
    static let discussion = """
        Takes a matching callback from the spool if one waits there (it is then deleted), else
        waits on a socket of its own in $XDG_RUNTIME_DIR/callback-router that only processes of
        the same uid can use. Routing: a callback with a state reaches only the listener that
        expects it; one without a state never reaches a listener with --state. A listener
        without --state is a candidate for any callback of its scheme that no listener expects
        by state (a second such listener is refused at its start with the rejection
        "conflict", 75: two would make any callback a conflict that neither gets), and takes
        from the spool only a callback spooled after it started. Without a registered
        handler for S, stderr says at once which 'register' command to run. A callback that parse would refuse as
        another login's (redirect_uri_mismatch, state_missing, state_mismatch) is not this
        listener's: it keeps waiting. Without --state, no callback that parse refuses ends the
        wait (any page can send one): stderr says it was ignored, with its reason code, and the
        wait goes on; a well-formed provider error (error=access_denied) still ends it.
        With --flow-id (a Clerk magic link, as clerk-ios and clerk-android bind it): only a
        magic_link for that flow_id is this listener's, taken from the spool too when the
        link was clicked before the wait began; another flow's link is not its own (it stays
        in the spool) and the wait goes on.

        OUTPUT:
          Exactly what 'callback-router parse' prints for the URL with the same options;
          on a timeout, a conflict or a signal,
          {"outcome":"rejected","reason":"timeout"|"conflict"|"cancelled",…}.

        EXIT CODES:
          As parse (0, 1, 64, 65); 69 listening impossible; 75 timed out or conflict;
          77 permission (the runtime directory's mode or owner); 130 / 143 Ctrl-C (SIGINT) /
          SIGTERM ended the wait (the outcome is the rejection "cancelled"; the socket is removed).
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router listen --scheme myapp --dialect prelude --timeout 300
          (Start it before the browser.) For an OAuth login with a state use
          'callback-router login --scheme myapp …': it opens the browser on a one-time link
          on 127.0.0.1. Opening authorize-url's URL with xdg-open puts its state, challenge
          and nonce in a command line that every local user can read (/proc/PID/cmdline).

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        var exit: Int32 = 0
        let scheme: CallbackScheme
        var options: CallbackOptions
        let timeout: Double
        let flowID: String?
        do {
            try args.noPositionals()
            guard let text = try args.single(CommonOptions.scheme) else { return usageError("--scheme is required", context: context) }
            do {
                scheme = try CallbackScheme(validating: text)
            } catch {
                return usageError("--scheme: \(error.detail)", context: context)
            }
            let stateOption = try args.single(CommonOptions.state)
            if stateOption != nil && args.has(CommonOptions.stateFromStdin) {
                return usageError("--state and --state-from-stdin exclude each other", context: context)
            }
            timeout = try Durations.seconds(args, CommonOptions.timeout, allowZero: true)
            try checkLogoutOptions(args, hasState: stateOption != nil || args.has(CommonOptions.stateFromStdin))
            options = try CallbackOptions(args, state: stateOption)
            flowID = try FlowIDOption.read(args, dialect: options.dialect)
        } catch {
            return usageError(error.description, context: context)
        }
        // Checked before waiting (a typo should not cost the user a login), as parse checks them.
        if case .failure(let refusal) = options.validator(warn: { context.printError("\(name): " + $0) }) {
            return context.print(Rendering.verdict(.failure(refusal)))
        }
        // Only callbacks of --scheme arrive here, and one of another redirect URI is not this
        // listener's: with a --redirect-uri of another scheme, nothing could ever end the wait.
        for (index, text) in options.redirectURIs.enumerated() where text.prefix(while: { $0 != ":" }).lowercased() != scheme.name {
            return usageError("--redirect-uri #\(index + 1) must use the scheme '\(scheme.name)'", context: context)
        }
        if let warning = HandlerCheck.warning(for: scheme, context: context) { context.printError("\(name): \(warning)") }
        context.interruption?.beginWaiting(output: context.output)
        if args.has(CommonOptions.stateFromStdin) {
            guard let state = readFromStandardInput("state", seconds: Int(timeout.rounded(.up)), context: context, exit: &exit) else {
                return exit
            }
            options.expectations.state = state
        }
        switch options.validator(warn: { _ in }) {
        case .success(let validator):
            return listen(
                scheme: scheme, options: options, flowID: flowID, validator: validator, timeout: timeout, context: context)
        case .failure(let refusal):
            return context.print(Rendering.verdict(.failure(refusal)))
        }
    }

    /// Waits for the callback of `scheme` (from the spool, else on a socket of its own) and
    /// prints it judged as `parse` judges it. A second stateless listen is refused at its start
    /// (atomically: the check and the bind happen under one lock), not after the sign-in; a
    /// callback of another login (``HandoffWait/notMineReasons``) does not end the wait.
    private static func listen(
        scheme: CallbackScheme, options: CallbackOptions, flowID: String?, validator: CallbackValidator, timeout: Double,
        context: CommandContext
    ) -> Int32 {
        switch HandoffWait.receive(
            scheme: scheme, state: options.expectations.state, flowID: flowID, refusingSecondStateless: true,
            timeout: .milliseconds(Int64(timeout * 1000)), judge: options.judge(with: validator), command: name, context: context)
        {
        case .judged(let result):
            let verdict = Rendering.verdict(result)
            context.printOutcome(verdict.json)
            return verdict.exit
        case .conflict:
            let detail =
                "another listener of '\(scheme)' could take the same callback, so none got it: another login is already in progress"
            context.printOutcome(Rendering.rejectionJSON(reason: .conflict, detail: detail, offset: nil))
            return ExitCode.tryAgain
        case .timedOut:
            context.printOutcome(
                Rendering.rejectionJSON(
                    reason: .timeout, detail: "no callback for '\(scheme)' within \(Durations.describe(seconds: timeout))", offset: nil))
            return ExitCode.tryAgain
        case .ended(let exit):
            return exit
        }
    }

    /// `--logout` needs a state or `--no-state` (which ``modes`` keep to `--logout`), and
    /// `--response-mode` query at most.
    static func checkLogoutOptions(_ args: Arguments, hasState: Bool) throws(Arguments.UsageError) {
        guard args.has(LogoutOptions.logout) else { return }
        switch (hasState, args.has(CommonOptions.noState)) {
        case (true, true): throw Arguments.UsageError(description: "--state or --state-from-stdin, and --no-state, exclude each other")
        case (false, false):
            throw Arguments.UsageError(
                description: "--logout needs the end-session request's --state S (or --state-from-stdin), or --no-state")
        default: break
        }
        try LogoutOptions.refuseLoginOptions(args)
    }
}

#endif
