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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackDesktop
import CallbackLoopback
import CallbackRouter

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

        USAGE: callback-router login --issuer URL --client-id ID [--scope S | --no-scope]
                                     [--param NAME=VALUE]... [--no-browser] [--timeout SECONDS]
                                     [loopback options | --scheme S [--redirect-uri U]]
               callback-router login --endpoint URL --client-id ID [...]   (no discovery: the
                                     code and what its token request needs, or --token-endpoint)

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
            .value(
                "endpoint", "URL",
                "The authorization endpoint (https); without it, --issuer's discovery document names it (with it, it overrides that one)."
            ),
            .value("client-id", "ID", "The client id."),
            .value("scope", "S", "Space-separated scopes (default: openid)."),
            .flag("no-scope", "Send no scope at all (the provider's default applies), as authorize-url."),
            .value("param", "NAME=VALUE", "An extra authorization parameter (repeatable), as authorize-url.", repeatable: true),
            .flag("no-browser", "Do not start a browser (the URL to open is on stderr, as always)."),
            .value("timeout", "SECONDS", "How long to wait for the callback (default 300; fractions allowed)."),
            OptionValues.dialect.declaration(
                then: "As for parse. " + OptionValues.listed(OptionValues.customSchemeDialects)
                    + " need --scheme (their providers accept only a custom scheme)."),
            .value(
                "issuer", "I",
                "The issuer: its discovery document names the endpoints (--endpoint overrides the authorization endpoint), the token step runs, and the callback's 'iss' (RFC 9207) is checked when it has one."
            ),
            .flag("require-issuer", "The callback must carry iss (issuer_missing otherwise); needs --issuer."),
            OptionValues.profileDeclaration,
            OutputOption.declaration,
        ] + OptionValues.limitDeclarations
        + LoopbackOptions.receiver(
            under: loopbackGroup, notes: ["response-mode": "login asks the provider for it (response_mode=form_post)."])
        + [
            .value("scheme", "S", "Receive the callback through the desktop's x-scheme-handler.", group: schemeGroup),
            .value("redirect-uri", "U", "The redirect URI to send (default S:/callback); its scheme must be S.", group: schemeGroup),
        ] + TokenStep.loginDeclarations
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
          Under SSH (SSH_CONNECTION set) no browser is started on the server: stderr shows
          the link to open on your computer with the ssh -L command that forwards the port,
          and offers --accept-paste (paste the address the browser ends at); with --scheme,
          the link to open in a browser on the machine whose desktop handles the scheme.

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
          callback-router login --endpoint https://example.auth0.com/authorize \\
              --client-id abc123 --scope 'profile' --output login.json
          jq -r .code,.code_verifier,.redirect_uri login.json   # then POST the token request

        """

    static let loopbackGroup = OptionGroup("LOOPBACK OPTIONS", note: "the default: an RFC 8252 receiver on 127.0.0.1")
    static let schemeGroup = OptionGroup("SCHEME OPTIONS", note: "a scheme registered with 'callback-router register'")

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        var endpoint: String, clientID: String, scope: String?, timeoutText: String, timeout: Duration
        var extra: [(String, String)] = []
        var expectations = LoopbackExpectations()
        let scheme: String?
        let loopback: LoopbackReceiver.Configuration
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            let endpointText = try args.single("endpoint") ?? ""
            if endpointText.isEmpty && !TokenStep.isRequested(args) { throw Arguments.UsageError(description: "--endpoint is required") }
            guard let clientText = try args.single("client-id") else { throw Arguments.UsageError(description: "--client-id is required") }
            endpoint = endpointText
            clientID = clientText
            scope = try OptionValues.scope(args)
            for pair in args.all("param") {
                guard let equals = pair.firstIndex(of: "=") else { throw Arguments.UsageError(description: "--param takes NAME=VALUE") }
                if let hint = ExtraParameterHints.loginRefusal(of: String(pair[..<equals])) {
                    throw Arguments.UsageError(description: hint)
                }
                extra.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            }
            expectations.dialect = try OptionValues.dialect.read(args)
            expectations.issuer = try args.single("issuer")
            if expectations.issuer?.isEmpty == true { throw Arguments.UsageError(description: "--issuer must not be empty") }
            expectations.requiresIssuer = args.has("require-issuer")
            if expectations.requiresIssuer && expectations.issuer == nil {
                throw Arguments.UsageError(description: "--require-issuer needs --issuer")
            }
            expectations.limits = try OptionValues.limits(args)
            expectations.profiles = try OptionValues.profiles(args)
            try OutputOption.apply(args, context: context)
            var (configuration, duration, text) = try LoopbackOptions.readConfiguration(args)
            timeout = duration
            if configuration.pasteDescriptor != nil {
                configuration.pasteDescriptor = context.standardInput
            } else if context.offersPasteBack, try args.single("scheme") == nil, !args.has("client-secret-from-stdin") {
                configuration.pasteDescriptor = context.standardInput
            }
            loopback = configuration
            timeoutText = text
            scheme = try args.single("scheme")
            if scheme != nil {
                for option in ["port", "path", "response-mode", "success-url", "failure-url", "host"] where try args.single(option) != nil {
                    throw Arguments.UsageError(description: "--\(option) is a loopback option: it cannot be used with --scheme")
                }
                for flag in ["ipv6", "allow-other-users"] where args.has(flag) {
                    throw Arguments.UsageError(description: "--\(flag) is a loopback option: it cannot be used with --scheme")
                }
            } else if try args.single("redirect-uri") != nil {
                throw Arguments.UsageError(description: "--redirect-uri goes with --scheme; the loopback receiver makes its own")
            }
            if loopback.responseMode == .formPost { extra.append(("response_mode", "form_post")) }
            if args.has("client-secret-from-stdin") && loopback.pasteDescriptor != nil {
                throw Arguments.UsageError(description: "--client-secret-from-stdin and --accept-paste both read stdin")
            }
        } catch {
            return usageError(error.description, context: context)
        }
        var tokenStep: TokenStep?
        if TokenStep.isRequested(args) {
            switch TokenStep.prepareLogin(
                args, for: Self.self, clientID: clientID, scope: scope, expectations: &expectations, context: context)
            {
            case .ready(let step):
                tokenStep = step
                if endpoint.isEmpty { endpoint = step.metadata?.authorizationEndpoint ?? "" }
            case .ended(let exit): return exit
            }
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let secrets = AttemptSecrets()
        expectations.state = secrets.state
        let place = (SignInSummary.place(issuer: expectations.issuer, endpoint: endpoint), expected: expectations.issuer)

        if let scheme {
            return runScheme(
                scheme, args: args, endpoint: endpoint, clientID: clientID, scope: scope, extra: extra,
                secrets: secrets, expectations: expectations, timeoutText: timeoutText, seconds: seconds, tokenStep: tokenStep,
                context: context)
        }

        if let refusal = LoopbackOptions.refusal(of: expectations.dialect) {
            return context.print(Rendering.verdict(.failure(refusal)))
        }
        let receiver: LoopbackReceiver
        do {
            receiver = try LoopbackReceiver(loopback)
        } catch {
            // The outcome JSON like every other failure (a taken --port printed none).
            let reason: ReasonCode = error.code == .addressInUse ? .conflict : .invalidConfiguration
            context.printJSON(Rendering.rejectionJSON(reason: reason, detail: error.detail, offset: nil))
            let advice = error.code == .addressInUse ? "; choose another --port, or leave it out for a free one" : ""
            context.printError("\(name): \(error.detail)\(advice)")
            return error.exitCode
        }
        let request: AuthorizationRequest
        do {
            request = try AuthorizationRequest(
                endpoint: endpoint, clientID: clientID, redirectURI: receiver.redirectURI,
                scope: scope, secrets: secrets, extraParameters: extra)
            try receiver.setAuthorizationURL(request.url)
        } catch {
            context.printJSON(Rendering.rejectionJSON(error))
            return ExitCode.usage
        }
        let extras: [(String, JSONValue)] = [
            ("code_verifier", .string(secrets.pkce.verifier)), ("redirect_uri", .string(receiver.redirectURI)),
            ("nonce", .string(secrets.nonce)),
        ]
        context.interruption?.beginWaiting(output: context.output, extras: extras)
        let presenting = BrowserLauncher.presentStartURL(
            receiver, noBrowser: args.has("no-browser"), pasting: loopback.pasteDescriptor != nil, seconds: seconds, name: name,
            context: context)
        defer { presenting.withLock { $0 = true } }
        if loopback.pasteDescriptor != nil {
            context.printError("\(name): or paste here the URL the browser was sent to (from its address bar) and press Enter")
        }
        context.printError(
            "\(name): waiting for the callback on \(receiver.redirectURI) (at most \(Durations.describe(seconds: seconds)); --timeout)")
        let reminding = WaitReminder.start(seconds: seconds, redirectURI: receiver.redirectURI, name: name, context: context)
        defer { reminding.withLock { $0 = true } }

        let result: LoopbackWaitResult
        do {
            result = try context.stoppable(by: receiver.close) { () throws(CallbackError) -> LoopbackWaitResult in
                try receiver.receive(expecting: expectations, until: deadline) { line in context.printError("\(name): \(line)") }
            }
        } catch {
            conclude(place: place, context: context, Rendering.rejectionJSON(error))
            return ExitCode.usage
        }
        switch result {
        case .callback(.success(let outcome)):
            if let tokenStep {
                return tokenStep.finish(
                    outcome, secrets: secrets, redirectURI: receiver.redirectURI, printed: Rendering.outcomeJSON(outcome).appending(extras),
                    context: context
                ) { conclude(place: place, context: context, $0) }
            }
            conclude(place: place, context: context, Rendering.outcomeJSON(outcome).appending(extras))
            return Rendering.exitCode(for: outcome)
        case .callback(.failure(let error)):
            conclude(place: place, context: context, Rendering.rejectionJSON(error).appending(extras))
            return Rendering.exitCode(for: error)
        case .timedOut:
            return concludeRejection(.timeout, detail: timeoutDetail(timeoutText), extras: extras, place: place, context: context)
        case .stopped:
            conclude(place: place, context: context, context.stoppedJSON().appending(extras))
            return context.stoppedExitCode()
        }
    }

    /// `--scheme S`: the callback comes through the desktop's x-scheme-handler (`open`).
    private static func runScheme(
        _ schemeText: String, args: Arguments, endpoint: String, clientID: String, scope: String?,
        extra: [(String, String)], secrets: AttemptSecrets, expectations: LoopbackExpectations,
        timeoutText: String, seconds: Double, tokenStep: TokenStep? = nil, context: CommandContext
    ) -> Int32 {
        let place = (SignInSummary.place(issuer: expectations.issuer, endpoint: endpoint), expected: expectations.issuer)
        let scheme: CallbackScheme
        do { scheme = try CallbackScheme(validating: schemeText) } catch {
            return usageError("--scheme: \(error.detail)", context: context)
        }
        if let warning = HandlerCheck.warning(for: scheme, context: context) { context.printError("\(name): \(warning)") }
        let redirectText = (try? args.single("redirect-uri")) ?? nil ?? scheme.name + ":/callback"
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
                endpoint: endpoint, clientID: clientID, redirectURI: redirectText, scope: scope,
                secrets: secrets, extraParameters: extra)
        } catch {
            context.printJSON(Rendering.rejectionJSON(error))
            return ExitCode.usage
        }
        let extras: [(String, JSONValue)] = [
            ("code_verifier", .string(secrets.pkce.verifier)), ("redirect_uri", .string(redirectText)), ("nonce", .string(secrets.nonce)),
        ]
        // The routing rule already keeps callbacks without this state away; one of another
        // redirect URI is not this login's either: the wait goes on.
        let judge = CallbackJudge(validator: validator, limits: expectations.limits)
        // The browser is opened on a one-time link on 127.0.0.1, never on the authorization
        // URL: a command line is readable by every local user. Only the redirect comes back
        // through the scheme.
        let link: LoopbackStartLink
        do {
            link = try LoopbackStartLink(authorizationURL: request.url, .init(lifetime: .milliseconds(Int64(seconds * 1000)))) { line in
                context.printError("\(name): \(line)")
            }
        } catch {
            context.printError("\(name): the one-time sign-in link could not be served on 127.0.0.1: \(error.detail)")
            return error.exitCode
        }
        context.interruption?.beginWaiting(output: context.output, extras: extras)
        var presenting: Locked<Bool>?
        let ending = HandoffWait.receive(
            scheme: scheme, state: secrets.state, timeout: .milliseconds(Int64(seconds * 1000)), judge: judge, command: name,
            context: context
        ) {
            presenting = BrowserLauncher.presentStartLink(
                link, noBrowser: args.has("no-browser"), seconds: seconds, name: name, context: context)
            context.printError(
                "\(name): waiting for the callback on \(scheme.name): (the handler registered with 'callback-router register')")
        }
        // The wait is over: the link is not served a moment longer than it is needed.
        presenting?.withLock { $0 = true }
        link.close()
        switch ending {
        case .judged(.success(let outcome)):
            if let tokenStep {
                return tokenStep.finish(
                    outcome, secrets: secrets, redirectURI: redirectText, printed: Rendering.outcomeJSON(outcome).appending(extras),
                    context: context
                ) { conclude(place: place, context: context, $0) }
            }
            conclude(place: place, context: context, Rendering.outcomeJSON(outcome).appending(extras))
            return Rendering.exitCode(for: outcome)
        case .judged(.failure(let error)):
            conclude(place: place, context: context, Rendering.rejectionJSON(error).appending(extras))
            return Rendering.exitCode(for: error)
        case .conflict:
            return concludeRejection(
                .conflict, detail: "another listener of '\(scheme)' could take the same callback, so none got it", extras: extras,
                place: place, context: context)
        case .timedOut:
            return concludeRejection(.timeout, detail: timeoutDetail(timeoutText), extras: extras, place: place, context: context)
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

extension JSONValue {
    /// The object with `members` added at the end (nothing added to a non-object).
    func appending(_ members: [(String, JSONValue)]) -> JSONValue {
        guard case .object(let existing) = storage else { return self }
        return .object(existing + members)
    }
}

#endif
