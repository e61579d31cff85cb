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
import CallbackSystem
import CallbackTokens

/// `login --device`: the device authorization grant (RFC 8628). Discovery names the device
/// authorization endpoint; its answer (a user code and a page) is shown on stderr for a
/// person to type on any device; the token endpoint is polled within the interval until the
/// person approves, refuses, or the code expires. The library reads every answer
/// (``DeviceAuthorizationResponse``, ``DevicePoll``); ``CurlTransport`` carries the bytes,
/// every secret (device code, client secret, tokens) on curl's stdin only.
struct DeviceFlow {
    let step: TokenStep
    let issuer: String
    let clientID: String
    let scope: String?
    let command: String
    /// `--device-authorization-endpoint`: for a provider whose discovery does not name it.
    var endpoint: String?
    /// Where the tokens are kept after the sign-in (`--no-store`, `--account`), as the code flow keeps them.
    var storing = TokenStoring(enabled: false, account: nil)
    /// Keeps the tokens for the command that asked for the sign-in (`token --login`) instead of printing them; nil: printed.
    var keeper: SignInKeeper?

    /// The step every refusal of the device authorization request names.
    static let authorizationStep = "device_authorization"

    /// Reads `login --device`'s options, runs discovery, asks for the codes, shows them and
    /// polls; prints one JSON object and returns the exit code.
    /// `endpointOption` is the command's `--device-authorization-endpoint`.
    static func login<C: Command>(
        _ args: Arguments, for command: C.Type, endpointOption: OptionDeclaration, context: CommandContext
    ) -> Int32 {
        let clientID: String, issuer: String, scope: String?, endpoint: String?, storing: TokenStoring
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            guard let id = try args.single(CommonOptions.clientID) else {
                throw Arguments.UsageError(description: "--client-id is required")
            }
            guard let given = try args.single(CommonOptions.issuer), !given.isEmpty else {
                throw Arguments.UsageError(
                    description: "--device needs --issuer: its discovery document names the device authorization endpoint")
            }
            (clientID, issuer) = (id, given)
            scope = try OptionValues.scope(args)
            endpoint = try args.single(endpointOption)
            storing = try TokenStoring.read(args)
            try OutputOption.apply(args, context: context)
        } catch {
            return command.usageError(error.description, context: context)
        }
        var secret: String?
        if args.has(CommonOptions.clientSecretFromStdin) {
            var exit: Int32 = 0
            guard let lines = TokenStep.readSecrets(1, naming: "client secret", for: command, context: context, exit: &exit) else {
                return exit
            }
            secret = lines[0]
        }
        let expectsIDToken = scope?.split(separator: " ").contains("openid") ?? false
        switch TokenStep.prepare(
            args, for: command, clientID: clientID, issuer: issuer, secret: secret, expectsIDToken: expectsIDToken, context: context)
        {
        case .ended(let exit): return exit
        case .ready(let step):
            let flow = DeviceFlow(
                step: step, issuer: issuer, clientID: clientID, scope: scope, command: command.name, endpoint: endpoint, storing: storing)
            return flow.run(context: context)
        }
    }

    /// Over SSH without a display, `login` without `--device` signs in with the device flow
    /// when the provider offers it: a browser on the person's computer cannot reach this
    /// machine's 127.0.0.1 (the start link, the redirect) unless a port was forwarded, and
    /// the port is only known once chosen. Not when an X or Wayland display is forwarded (a
    /// browser started here shows there and reaches 127.0.0.1 here), nor when an option of
    /// the code flow was given (`--port`: the person forwards it; `--accept-paste`,
    /// `--endpoint`, `--scheme`…), nor when the provider's `grant_types_supported` leaves the
    /// device grant out. Says so on stderr, with how to keep the code flow. Nil: not used.
    static func instead(
        of step: TokenStep, issuer: String?, clientID: String, scope: String?, codeFlowOptionGiven: Bool, command: String,
        storing: TokenStoring, context: CommandContext
    ) -> DeviceFlow? {
        let environment = context.environment
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard context.isSSHSession, !display, !codeFlowOptionGiven, let issuer, let metadata = step.metadata,
            metadata.deviceAuthorizationEndpoint != nil,
            metadata.grantTypesSupported?.contains(TokenRequest.deviceCodeGrantType) ?? true
        else { return nil }
        context.printError(
            "\(command): this is an SSH session without a display, and \(CallbackError.printable(issuer)) offers the device flow:"
                + " signing in with it (as login --device), since a browser on your computer cannot reach this machine's 127.0.0.1."
                + " To use the browser redirect instead, give --port P and forward it (ssh -L P:127.0.0.1:P)")
        return DeviceFlow(step: step, issuer: issuer, clientID: clientID, scope: scope, command: command, storing: storing)
    }

    /// The device authorization request, the codes shown, then the polling.
    func run(context: CommandContext) -> Int32 {
        let authorization: DeviceAuthorization
        do throws(StepFailure) {
            guard let endpoint = self.endpoint ?? step.metadata?.deviceAuthorizationEndpoint else {
                throw StepFailure(
                    reason: .invalidConfiguration,
                    detail: "the provider \(CallbackError.printable(issuer)) names no device_authorization_endpoint in its discovery"
                        + " document: if it offers the device flow (RFC 8628), give --device-authorization-endpoint URL;"
                        + " else sign in without --device",
                    exit: ExitCode.usage, step: "discovery")
            }
            switch try authorize(at: endpoint) {
            case .authorization(let answer): authorization = answer
            case .error(let error):
                return conclude(TokenStep.errorJSON(error), line: deniedLine(error, context: context), context: context)
            }
        } catch {
            return conclude(error.json(), context: context, exit: error.exit)
        }
        show(authorization, context: context)
        return poll(authorization, context: context)
    }

    /// Sends the device authorization request (RFC 8628 §3.1) and reads its answer.
    func authorize(at endpoint: String) throws(StepFailure) -> DeviceAuthorizationResponse {
        let request: TokenRequest
        do {
            request = try TokenRequest.deviceAuthorization(
                endpoint: endpoint, clientID: clientID, scope: scope, authentication: step.authentication,
                allowingLoopbackHTTP: step.allowHTTP)
        } catch {
            throw StepFailure(error, step: Self.authorizationStep)
        }
        let response: CurlTransport.Response
        do {
            response = try step.transport.send(
                .init(url: request.url, method: request.method, headers: request.headers.map { ($0.name, $0.value) }, body: request.body))
        } catch {
            throw StepFailure(error, step: Self.authorizationStep)
        }
        do {
            return try DeviceAuthorizationResponse(
                status: response.status, body: response.body, allowingLoopbackHTTP: step.allowHTTP,
                maxBodyBytes: step.transport.maxResponseBytes)
        } catch {
            throw StepFailure(error, step: Self.authorizationStep)
        }
    }

    /// Shows the page and the user code on stderr, the code on a line of its own in
    /// groups, then how long it lives.
    func show(_ authorization: DeviceAuthorization, context: CommandContext) {
        let bold = context.colourOnStandardError
        let code = CallbackError.printable(authorization.userCode)
        let grouped = Self.grouped(code)
        let shown = bold ? "\u{1B}[1m\(grouped)\u{1B}[0m" : grouped
        // The page and the code stand on lines of their own, without the program's prefix:
        // what a person reads and types.
        context.printError("\(command): to sign in, open this page in a browser on any device (a phone, your laptop):")
        context.output.writeErr("\n      \(CallbackError.printable(authorization.verificationURI))\n\n")
        context.printError("\(command): and enter this code:")
        context.output.writeErr("\n      \(shown)\n\n")
        if grouped != code {
            context.printError("\(command): (spaced here for reading; the code is \(code))")
        }
        if let complete = authorization.verificationURIComplete {
            context.printError(
                "\(command): or open this link, which carries the code (check that the page shows the same code):"
                    + " \(CallbackError.printable(complete))")
        }
        context.printError(
            "\(command): waiting for the sign-in at \(CallbackError.printable(issuer)) (at most"
                + " \(Durations.describe(seconds: Double(authorization.expiresIn))): the code expires then; Ctrl-C stops)")
    }

    /// The user code in groups of at most four characters, two spaces between groups: at
    /// the provider's own separators (`-`, a space) when it has them, else every four.
    static func grouped(_ code: String) -> String {
        let parts = code.split(whereSeparator: { $0 == "-" || $0 == " " }).map(String.init)
        let groups =
            parts.count > 1 || code.count <= 5
            ? parts
            : stride(from: 0, to: code.count, by: 4).map { start in
                String(code.dropFirst(start).prefix(4))
            }
        return groups.joined(separator: parts.count > 1 ? " - " : "  ")
    }

    /// Polls the token endpoint (RFC 8628 §3.4) every interval, 5 seconds longer after each
    /// `slow_down`, until tokens, a refusal, the code's expiry, or a signal.
    func poll(_ authorization: DeviceAuthorization, context: CommandContext) -> Int32 {
        let stopped = Locked(false)
        context.interruption?.beginWaiting(output: context.output)
        let started = SystemClock.monotonicMilliseconds()
        let lifetime = authorization.expiresIn * 1000
        var interval = authorization.pollingInterval
        var reminded: Int64 = 0
        let request: TokenRequest
        do {
            request = try TokenRequest.deviceCode(
                authorization, tokenEndpoint: step.tokenEndpoint, clientID: clientID, authentication: step.authentication,
                allowingLoopbackHTTP: step.allowHTTP)
        } catch {
            return conclude(StepFailure(error, step: "token_request").json(), context: context, exit: Rendering.exitCode(for: error))
        }
        let stop: @Sendable () -> Void = { stopped.withLock { $0 = true } }
        return context.stoppable(by: stop) { () -> Int32 in
            while true {
                // The wait before each poll, in short slices a signal can end.
                let due = SystemClock.monotonicMilliseconds() + Int64(interval.components.seconds) * 1000
                while SystemClock.monotonicMilliseconds() < due, !stopped.withLock({ $0 }) {
                    Pause.milliseconds(100)
                }
                if stopped.withLock({ $0 }) {
                    return conclude(context.stoppedJSON(), context: context, exit: context.stoppedExitCode())
                }
                let elapsed = SystemClock.monotonicMilliseconds() - started
                guard elapsed < lifetime else { return expired(authorization, context: context) }
                if context.standardErrorIsTerminal, elapsed / 60_000 > reminded {
                    reminded = elapsed / 60_000
                    let left = Durations.describe(seconds: Double((lifetime - elapsed + 999) / 1000))
                    context.printError("\(command): still waiting for the sign-in (\(left) left; Ctrl-C stops)")
                }
                let answer: DevicePoll
                do throws(StepFailure) {
                    answer = DevicePoll(try step.exchange(request, context: context))
                } catch {
                    return conclude(error.json(), context: context, exit: error.exit)
                }
                if stopped.withLock({ $0 }) {
                    return conclude(context.stoppedJSON(), context: context, exit: context.stoppedExitCode())
                }
                switch answer {
                case .authorizationPending:
                    continue
                case .slowDown:
                    interval = answer.nextInterval(after: interval) ?? interval
                    context.printError(
                        "\(command): the provider asked to poll less often (slow_down): every \(interval.components.seconds) seconds now")
                case .tokens(let tokens):
                    return finish(tokens, context: context)
                case .accessDenied(let error):
                    return conclude(TokenStep.errorJSON(error), line: deniedLine(error, context: context), context: context)
                case .expiredToken:
                    return expired(authorization, context: context)
                case .error(let error):
                    return conclude(TokenStep.errorJSON(error), line: deniedLine(error, context: context), context: context)
                }
            }
        }
    }

    /// The code expired (the provider said `expired_token`, or its `expires_in` passed):
    /// the rejection `timeout`, exit 75, as a code flow's timeout.
    func expired(_ authorization: DeviceAuthorization, context: CommandContext) -> Int32 {
        let detail =
            "the code expired before the sign-in was finished (after \(Durations.describe(seconds: Double(authorization.expiresIn))));"
            + " run login --device again for a new code"
        return conclude(Rendering.rejectionJSON(reason: .timeout, detail: detail, offset: nil), context: context, exit: ExitCode.tryAgain)
    }

    /// The tokens, with the ID token's claims checked (no nonce was sent, no code redeemed).
    func finish(_ tokens: TokenSet, context: CommandContext) -> Int32 {
        var claims: IDTokenClaims?
        if tokens.idToken == nil && step.expectsIDToken {
            // OpenID Connect defines the ID token for its own flows; RFC 8628 is OAuth, and
            // providers differ (django-oauth-toolkit 3.4.1 issues none): said, not refused.
            context.printError(
                "\(command): the scope has openid, and the provider sent no ID token with the device flow's tokens:"
                    + " no identity was checked (\"id_token_claims\" is null)")
        }
        if tokens.idToken != nil {
            do {
                claims = try tokens.checkDeviceFlowIDToken(
                    clientID: clientID, issuer: issuer, signingAlgorithms: step.signingAlgorithms)
            } catch {
                return conclude(StepFailure(error, step: "id_token").json(), context: context, exit: Rendering.exitCode(for: error))
            }
        }
        // No nonce was sent, so none was compared: "nonce_matched" is null, as refresh prints it.
        let members = TokenStep.tokenMembers(tokens, claims: claims).map { member -> (String, JSONValue) in
            guard member.0 == "id_token_claims", case .object(let claimed) = member.1.storage else { return member }
            return (member.0, .object(claimed.map { $0.0 == "nonce_matched" ? ($0.0, .null) : $0 }))
        }
        let json = JSONValue.object([("outcome", .string("tokens")), ("grant", .string("device_code"))] + members)
        return conclude(storing.afterLogin(json, issuer: issuer, clientID: clientID, scope: scope, context: context), context: context)
    }

    /// An error answer of the provider (`access_denied`: the person said no; any other:
    /// the provider refused the request), in words.
    func deniedLine(_ error: TokenError, context: CommandContext) -> String {
        let bad = context.colourOnStandardError ? "\u{1B}[1;31m✗\u{1B}[0m" : "✗"
        let code = CallbackError.printable(error.code.rawValue)
        if error.code == .accessDenied {
            return
                "\(bad) Sign-in refused at the provider: \(code) (the code was declined on the device page); run login --device again to retry"
        }
        return "\(bad) The provider refused the device sign-in: \(code); its error_description is in the JSON on stdout"
    }

    /// Prints the final JSON, then the line a person reads: `line`, else the code flow's
    /// (``SignInSummary``). Returns `exit`, else 1 for a provider's error answer and 0 for tokens.
    func conclude(_ json: JSONValue, line: String? = nil, context: CommandContext, exit: Int32? = nil) -> Int32 {
        let code = exit ?? (line == nil ? ExitCode.success : ExitCode.providerFailure)
        guard keeper?.conclude(json, context: context) ?? context.printOutcome(json) else { return code }
        context.writeHumanLine(
            line ?? SignInSummary.line(for: json, place: issuer, expectedIssuer: issuer, colour: context.colourOnStandardError))
        return code
    }
}

#endif
