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

/// Login's flow, for `login` and for `token --login`: the authorization request (PKCE, state,
/// nonce), the loopback receiver (or a registered scheme), the browser on a one-time start
/// link, the wait, and one ``finish(_:of:tokenStep:context:concluded:)`` that redeems the code
/// and stores the tokens when a token step is given. Its last JSON is printed on stdout, as
/// `login` prints it, unless a ``SignInKeeper`` keeps the tokens for the command that asked.
struct LoginFlow {
    /// What the sign-in asks for.
    let plan: Plan
    /// The command that runs the flow: it names the messages and its usage errors.
    let command: any Command.Type
    /// Keeps a sign-in that ended with tokens instead of printing it; nil: printed.
    var keeper: SignInKeeper?

    static let schemeGroup = OptionGroup("SCHEME OPTIONS", note: "a scheme registered with 'callback-router register'")

    /// The options the flow reads besides the shared ones (the command limits them to its modes).
    static let noBrowser = OptionDeclaration.flag("no-browser", "Do not start a browser (the URL to open is on stderr, as always).")
    static let scheme = CommonOptions.scheme.described("Receive the callback through the desktop's x-scheme-handler.")
        .listed(under: schemeGroup)
    static let redirectURI = OptionDeclaration.value(
        "redirect-uri", "U", "The redirect URI to send (default S:/callback); its scheme must be S.", group: schemeGroup)

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
        var loopback: LoopbackReceiver.Configuration
        let timeout: Duration
        /// The timeout as given, for the messages (`300 seconds`).
        let timeoutText: String
        let noBrowser: Bool
        /// Whether the tokens are stored after the sign-in (`--no-store`, `--account`).
        var storing: TokenStoring

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

    /// The options read into a ``Plan``; usage errors only.
    static func plan(_ args: Arguments, context: CommandContext) throws(Arguments.UsageError) -> Plan {
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
        } else if context.offersPasteBack, !args.gave(Self.scheme), !args.has(CommonOptions.clientSecretFromStdin) {
            loopback.pasteDescriptor = context.standardInput
        }
        let scheme = try args.single(Self.scheme)
        if loopback.responseMode == .formPost { extra.append(("response_mode", "form_post")) }
        if args.has(CommonOptions.clientSecretFromStdin) && loopback.pasteDescriptor != nil {
            throw Arguments.UsageError(description: "--client-secret-from-stdin and --accept-paste both read stdin")
        }
        return Plan(
            endpoint: endpoint, clientID: clientID, scope: scope, extra: extra, expectations: expectations, scheme: scheme,
            loopback: loopback, timeout: timeout, timeoutText: timeoutText, noBrowser: args.has(Self.noBrowser),
            storing: try TokenStoring.read(args))
    }

    /// Runs the sign-in once the token step is ready: over SSH without a display, the device
    /// flow when the provider offers it (``DeviceFlow/instead(of:issuer:clientID:scope:codeFlowOptionGiven:command:storing:context:)``);
    /// else the code flow, on the authorization endpoint discovery names when none was given.
    static func signIn(
        _ plan: Plan, tokenStep: TokenStep?, codeFlowOptionGiven: Bool, redirectURI: String?, command: any Command.Type,
        keeper: SignInKeeper? = nil, context: CommandContext
    ) -> Int32 {
        var plan = plan
        if let step = tokenStep {
            if var device = DeviceFlow.instead(
                of: step, issuer: plan.expectations.issuer, clientID: plan.clientID, scope: plan.scope,
                codeFlowOptionGiven: codeFlowOptionGiven, command: command.name, storing: plan.storing, context: context)
            {
                device.keeper = keeper
                return device.run(context: context)
            }
            if plan.endpoint.isEmpty { plan.endpoint = step.metadata?.authorizationEndpoint ?? "" }
        }
        let secrets = AttemptSecrets()
        plan.expectations.state = secrets.state
        let flow = LoginFlow(plan: plan, command: command, keeper: keeper)
        if let scheme = plan.scheme {
            return flow.waitForScheme(scheme, redirectURI: redirectURI, secrets: secrets, tokenStep: tokenStep, context: context)
        }
        return flow.waitOnLoopback(secrets: secrets, tokenStep: tokenStep, context: context)
    }

    /// The loopback receiver: binds it, opens the browser on its one-time start link, waits.
    private func waitOnLoopback(secrets: AttemptSecrets, tokenStep: TokenStep?, context: CommandContext) -> Int32 {
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
            context.printError("\(command.name): \(error.detail)\(advice)")
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
        let attempt = Attempt(secrets: secrets, redirectURI: receiver.redirectURI, place: place)
        let seconds = plan.seconds
        let pasting = plan.loopback.pasteDescriptor != nil
        context.interruption?.beginWaiting(output: context.output, extras: attempt.extras)
        let presenting = BrowserLauncher.presentStartURL(
            receiver, noBrowser: plan.noBrowser, pasting: pasting, seconds: seconds, name: command.name, context: context)
        defer { presenting.withLock { $0 = true } }
        if pasting {
            context.printError("\(command.name): or paste here the URL the browser was sent to (from its address bar) and press Enter")
        }
        context.printError(
            "\(command.name): waiting for the callback on \(receiver.redirectURI)"
                + " (at most \(Durations.describe(seconds: seconds))\(timeoutOption))")
        let reminding = WaitReminder.start(seconds: seconds, redirectURI: receiver.redirectURI, name: command.name, context: context)
        defer { reminding.withLock { $0 = true } }

        let ending: Ending
        do {
            let result = try context.stoppable(by: receiver.close) { () throws(CallbackError) -> LoopbackWaitResult in
                try receiver.receive(expecting: plan.expectations, until: deadline) { line in
                    context.printError("\(command.name): \(line)")
                }
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
        let exit = finish(ending, of: attempt, tokenStep: tokenStep, context: context) { concluded = $0 }
        receiver.finish(HeldPage.ending(for: concluded, place: attempt.place.0, expectedIssuer: attempt.place.expected))
        return exit
    }

    /// `--scheme S`: the callback comes through the desktop's x-scheme-handler (`open`); the
    /// browser is opened on a one-time start link on 127.0.0.1.
    private func waitForScheme(
        _ schemeText: String, redirectURI: String?, secrets: AttemptSecrets, tokenStep: TokenStep?, context: CommandContext
    ) -> Int32 {
        let scheme: CallbackScheme
        do { scheme = try CallbackScheme(validating: schemeText) } catch {
            return command.usageError("--scheme: \(error.detail)", context: context)
        }
        if let warning = HandlerCheck.warning(for: scheme, context: context) { context.printError("\(command.name): \(warning)") }
        let redirectText = redirectURI ?? scheme.name + ":/callback"
        let expectations = plan.expectations
        let validator: CallbackValidator
        let request: AuthorizationRequest
        do {
            let redirect = try RedirectURI(redirectText, policy: .native)
            guard redirect.url.scheme == scheme.name else {
                return command.usageError("--redirect-uri must use the scheme '\(scheme.name)'", context: context)
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
        let attempt = Attempt(secrets: secrets, redirectURI: redirectText, place: place)
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
                context.printError("\(command.name): \(line)")
            }
        } catch {
            context.printError("\(command.name): the one-time sign-in link could not be served on 127.0.0.1: \(error.detail)")
            return error.exitCode
        }
        context.interruption?.beginWaiting(output: context.output, extras: attempt.extras)
        var presenting: Locked<Bool>?
        var reminding: Locked<Bool>?
        let received = HandoffWait.receive(
            scheme: scheme, state: secrets.state, timeout: .milliseconds(Int64(seconds * 1000)), judge: judge, command: command.name,
            context: context
        ) {
            presenting = BrowserLauncher.presentStartLink(
                link, noBrowser: plan.noBrowser, seconds: seconds, name: command.name, context: context)
            context.printError(
                "\(command.name): waiting for the callback on \(scheme.name): (the handler registered with 'callback-router register';"
                    + " at most \(Durations.describe(seconds: seconds))\(timeoutOption))")
            reminding = WaitReminder.start(
                seconds: seconds, redirectURI: redirectText, scheme: scheme.name, name: command.name, context: context)
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
        return finish(ending, of: attempt, tokenStep: tokenStep, context: context)
    }
    /// `; --timeout` after the wait's length, when the command has that option to change it.
    var timeoutOption: String { command.options.contains { $0.name == CommonOptions.timeout.name } ? "; --timeout" : "" }

    /// Where the person signs in, as the last line names it.
    var place: (String, expected: String?) {
        (SignInSummary.place(issuer: plan.expectations.issuer, endpoint: plan.endpoint), expected: plan.expectations.issuer)
    }

    /// Ends the login as its wait ended: the token step after a code, when asked; else the
    /// outcome JSON with the attempt's extras, and the line a person reads.
    /// `concluded` sees the final JSON (the loopback page is told how the sign-in ended).
    func finish(
        _ ending: Ending, of attempt: Attempt, tokenStep: TokenStep?, context: CommandContext,
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
            return concludeRejection(.timeout, detail: Self.timeoutDetail(plan.timeoutText), extras: extras, place: place, context: context)
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

extension LoginFlow {
    /// The detail of a login that no callback ended in time, both receivers alike.
    static func timeoutDetail(_ timeoutText: String) -> String { "no callback for this login arrived within \(timeoutText)" }

    /// Concludes with the rejection `reason` (a timeout, a conflict): its JSON with `extras`
    /// and the human line; returns its exit code, 75 (try again).
    func concludeRejection(
        _ reason: ReasonCode, detail: String, extras: [(String, JSONValue)], place: (String, expected: String?), context: CommandContext
    ) -> Int32 {
        conclude(place: place, context: context, Rendering.rejectionJSON(reason: reason, detail: detail, offset: nil).appending(extras))
        return ExitCode.tryAgain
    }

    /// Prints the final JSON, then on stderr the line a person reads (SignInSummary), in
    /// colour only on a terminal and never with NO_COLOR set. Not when stdout lost the JSON:
    /// the command then ends 74 with the line that says so, never "✓ Signed in".
    func conclude(place: (String, expected: String?), context: CommandContext, _ json: JSONValue) {
        guard keeper?.conclude(json, context: context) ?? context.printOutcome(json) else { return }
        context.writeHumanLine(
            SignInSummary.line(for: json, place: place.0, expectedIssuer: place.expected, colour: context.colourOnStandardError))
    }
}

extension LoginFlow.Plan {
    /// The plan of `login --issuer ISSUER --client-id CLIENT [--scope S] [--account A]`,
    /// with login's defaults for the rest (the loopback receiver, a 300-second wait, the
    /// browser opened, the tokens stored), read by login's own reader so the two agree.
    init(
        issuer: String, clientID: String, scope: String?, account: String?, context: CommandContext
    ) throws(Arguments.UsageError) {
        // `--name=value`: a value that starts with '-' is still the option's value.
        let given = [
            (CommonOptions.issuer, issuer), (CommonOptions.clientID, clientID), (CommonOptions.scope, scope),
            (TokenStoring.account, account),
        ]
        let arguments = given.compactMap { option, value in value.map { "--\(option.name)=\($0)" } }
        let names = Set(given.map(\.0.name))
        self = try LoginFlow.plan(try Arguments(arguments, options: names, flags: []), context: context)
    }
}

#endif
