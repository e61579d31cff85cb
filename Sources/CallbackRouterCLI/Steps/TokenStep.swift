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

import CallbackLoopback
import CallbackRouter
import CallbackRouterKit
import CallbackTokens
import CallbackSystem

/// What `login` does after the callback when asked to finish the job, and what `refresh`
/// does: discovery (OpenID Connect Discovery 1.0, checked by ``ProviderMetadata``), the
/// token request (``TokenRequest``), the response (``TokenResponse``) and the ID token's
/// claims (``TokenSet/checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``), sent by
/// ``CurlTransport``. The library decides; this only carries bytes and prints.
struct TokenStep {
    /// The token options, listed under their own heading.
    static let group = OptionGroup(
        "TOKEN OPTIONS",
        note: "with --token-endpoint or --issuer: redeem the code;"
            + " the tokens are secrets, printed on stdout only; needs curl")

    /// `--token-endpoint`: a provider without discovery.
    static let tokenEndpoint = OptionDeclaration.value(
        "token-endpoint", "URL",
        "The token endpoint (https), for a provider without discovery. Without it, the endpoints come from --issuer's discovery document.",
        group: group)
    /// `--client-secret-from-stdin`: a confidential client's secret, one line of stdin.
    static let clientSecretFromStdin = OptionDeclaration.flag(
        "client-secret-from-stdin",
        "Read the client secret of a confidential client from a line of stdin (never from argv or the environment).",
        group: group)
    /// `--client-auth`: how the secret is sent.
    static let clientAuth = OptionDeclaration.value(
        "client-auth", "METHOD", "How the secret is sent: client_secret_basic (the default) or client_secret_post.",
        choices: ["client_secret_basic", "client_secret_post"], group: group)
    /// `--token-type`: a token_type accepted besides Bearer.
    static let tokenType = OptionDeclaration.value(
        "token-type", "T", "Also accept this token_type besides Bearer (repeatable, e.g. DPoP).", repeatable: true, group: group)
    /// `--allow-http-loopback`: ``HTTPLoopbackRule``'s flag.
    static let allowHTTPLoopback = OptionDeclaration.flag(
        HTTPLoopbackRule.flag,
        "Accept http:// for the issuer and every endpoint, given as an option or named by discovery, when they are a loopback IP literal (127.0.0.1, ::1): a local test server only. Without it, each must be https.",
        group: group)

    /// The options `login` and `refresh` share.
    static let sharedDeclarations: [OptionDeclaration] = [
        tokenEndpoint, clientSecretFromStdin, clientAuth, tokenType, allowHTTPLoopback,
    ]

    /// `login`'s token options (its `--issuer` is declared with its other options).
    static let loginDeclarations = sharedDeclarations

    /// Reads `count` secret lines from stdin (at most `seconds` waiting); nil with `exit`
    /// set once the refusal is printed (`timeout`, 75) or the usage error (64).
    static func readSecrets<C: Command>(
        _ count: Int, naming what: String, for command: C.Type, seconds: Int = 30, context: CommandContext, exit: inout Int32
    ) -> [String]? {
        // A person at a terminal is asked, and told the limit, rather than left waiting in silence.
        // What is pasted is not shown (echo off; back on at the end, and on Ctrl-C).
        var echo: TerminalEcho?
        if context.output is StandardStreams, TerminalDevice.isTerminal(context.standardInput) {
            context.printError(
                "\(command.name): paste the \(what) (one a line, not shown) and press Enter; within \(seconds) seconds, or this gives up")
            echo = TerminalEcho.off(context.standardInput)
            if let echo { context.interruption?.addExitCleanup { echo.restore() } }
        }
        defer {
            if let echo {
                echo.restore()
                context.output.writeErr("\n")
            }
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        switch StandardInput.readLines(count, from: context.standardInput, until: deadline) {
        case .success(let lines):
            return lines
        case .failure(.timedOut):
            context.printJSON(
                Rendering.rejectionJSON(reason: .timeout, detail: "no \(what) arrived on stdin within \(seconds) seconds", offset: nil))
            exit = ExitCode.tryAgain
        case .failure(let problem):
            exit = command.usageError("stdin: " + problem.description(of: what), context: context)
        }
        return nil
    }

    let issuer: String?
    let tokenEndpoint: String
    /// From discovery: the authorization endpoint, and whether the callback must carry `iss`.
    let metadata: ProviderMetadata?
    let clientID: String
    let authentication: ClientAuthentication
    let allowedTokenTypes: [String]
    let allowHTTP: Bool
    let expectsIDToken: Bool
    let transport: CurlTransport

    /// How preparing ended when it did not give a step: a usage error or a printed refusal.
    enum Prepared {
        case ready(TokenStep)
        case ended(Int32)
    }

    /// `login`'s preparation: the secret (one line of stdin) when asked, then
    /// ``prepareLogin(_:for:clientID:scope:expectations:secret:context:)``.
    static func prepareLogin<C: Command>(
        _ args: Arguments, for command: C.Type, clientID: String, scope: String?, expectations: inout LoopbackExpectations,
        context: CommandContext
    ) -> Prepared {
        var secret: String?
        if args.has(Self.clientSecretFromStdin) {
            var exit: Int32 = 0
            guard let lines = readSecrets(1, naming: "client secret", for: command, context: context, exit: &exit) else {
                return .ended(exit)
            }
            secret = lines[0]
        }
        return prepareLogin(
            args, for: command, clientID: clientID, scope: scope, expectations: &expectations, secret: secret, context: context)
    }

    /// A sign-in's preparation with the client secret already read (nil: a public client):
    /// discovery, the RFC 9207 requirement the metadata turns on (`iss` then must be in the
    /// callback), and the metadata's check of the request before the browser opens.
    static func prepareLogin<C: Command>(
        _ args: Arguments, for command: C.Type, clientID: String, scope: String?, expectations: inout LoopbackExpectations,
        secret: String?, context: CommandContext
    ) -> Prepared {
        let expectsIDToken = scope?.split(separator: " ").contains("openid") ?? false
        if expectsIDToken && expectations.issuer == nil {
            return .ended(
                command.usageError(
                    "the scope has openid, so an ID token comes back and its iss is checked: give --issuer (or a scope without openid)",
                    context: context))
        }
        let prepared = prepare(
            args, for: command, clientID: clientID, issuer: expectations.issuer, secret: secret,
            expectsIDToken: expectsIDToken, context: context)
        guard case .ready(let step) = prepared, let metadata = step.metadata else { return prepared }
        if metadata.authorizationResponseIssParameterSupported == true { expectations.requiresIssuer = true }
        if let refusal = unsupported(by: metadata, scope: scope, command: command, context: context) { return .ended(refusal) }
        return prepared
    }

    /// Checks the request against the discovery metadata before the browser opens: a
    /// provider that does not list `code` in `response_types_supported` cannot answer this
    /// flow (refused, 64, `invalid_configuration`); a scope missing from
    /// `scopes_supported` is named in a warning (a provider MAY leave supported scopes out
    /// of the list, OpenID Connect Discovery 1.0 §3, so it is not refused). A list the
    /// metadata omits checks nothing; S256 is checked by ``ProviderMetadata`` itself.
    static func unsupported<C: Command>(
        by metadata: ProviderMetadata, scope: String?, command: C.Type, context: CommandContext
    ) -> Int32? {
        if let types = metadata.responseTypesSupported, !types.contains("code") {
            let failure = StepFailure(
                reason: .invalidConfiguration,
                detail: "the provider's response_types_supported does not list code (\(shownList(types))): it cannot answer this login",
                exit: ExitCode.usage, step: "discovery")
            return failure.print(context: context)
        }
        if let supported = metadata.scopesSupported {
            let missing = (scope ?? "").split(separator: " ").map(String.init).filter { !supported.contains($0) }
            if !missing.isEmpty {
                context.printError(
                    "\(command.name): warning: the provider's discovery document does not list the scope \(shownList(missing))"
                        + " (scopes_supported: \(shownList(supported))): if it refuses the sign-in, leave \(missing.count == 1 ? "it" : "them")"
                        + " out of --scope")
            }
        }
        return nil
    }

    /// Values from the metadata (public), each made printable, space-separated.
    static func shownList(_ values: [String]) -> String { values.map(CallbackError.printable).joined(separator: " ") }

    /// Whether `login`'s arguments ask for the token step: `--token-endpoint`, or
    /// `--issuer` (discovery then names the token endpoint; `--endpoint`, when given,
    /// overrides the authorization endpoint discovery names). A login given an issuer never
    /// ends 0 without the tokens (no "✓ Signed in" without them).
    static func isRequested(_ args: Arguments) -> Bool {
        let tokenEndpoint = (try? args.single(Self.tokenEndpoint)) ?? nil
        let issuer = (try? args.single(CommonOptions.issuer)) ?? nil
        return tokenEndpoint != nil || issuer != nil
    }

    /// Reads the token options, the secret (when asked, the line after `precedingLines`
    /// lines already read) and runs discovery when there is no `--token-endpoint`. Every
    /// refusal is printed here (one JSON object, or a usage error) before any login starts.
    static func prepare<C: Command>(
        _ args: Arguments, for command: C.Type, clientID: String, issuer: String?, secret: String?, expectsIDToken: Bool,
        context: CommandContext
    ) -> Prepared {
        if let refusal = HTTPLoopbackRule.refusal(args) { return .ended(refusal.print(context: context)) }
        let allowHTTP = args.has(Self.allowHTTPLoopback)
        let tokenEndpointText: String?
        let authentication: ClientAuthentication
        do throws(Arguments.UsageError) {
            tokenEndpointText = try args.single(Self.tokenEndpoint)
            let method = try args.single(Self.clientAuth)
            if secret == nil && method != nil {
                throw Arguments.UsageError(description: "--client-auth needs --client-secret-from-stdin")
            }
            switch (secret, method) {
            case (nil, _): authentication = .none
            case (let secret?, nil), (let secret?, "client_secret_basic"?): authentication = .clientSecretBasic(secret)
            case (let secret?, "client_secret_post"?): authentication = .clientSecretPost(secret)
            default: throw Arguments.UsageError(description: "--client-auth is client_secret_basic or client_secret_post")
            }
            if tokenEndpointText == nil && issuer == nil {
                throw Arguments.UsageError(description: "the token step needs --issuer (discovery) or --token-endpoint")
            }
        } catch {
            return .ended(command.usageError(error.description, context: context))
        }
        let transport = CurlTransport(environment: context.environment, allowLoopbackHTTP: allowHTTP)
        var metadata: ProviderMetadata?
        let tokenEndpoint: String
        if let tokenEndpointText {
            tokenEndpoint = tokenEndpointText
        } else {
            let issuer = issuer ?? ""
            do throws(StepFailure) {
                metadata = try discover(issuer, allowHTTP: allowHTTP, transport: transport)
            } catch {
                return .ended(error.print(context: context))
            }
            tokenEndpoint = metadata?.tokenEndpoint ?? ""
        }
        // The endpoint, the client id and the secret are checked now, before the browser
        // opens: a refresh request for a placeholder token is built and thrown away.
        do throws(CallbackError) {
            _ = try TokenRequest.refresh(
                "placeholder", tokenEndpoint: tokenEndpoint, clientID: clientID, authentication: authentication,
                allowingLoopbackHTTP: allowHTTP)
        } catch {
            return .ended(StepFailure(error, step: "configuration").print(context: context))
        }
        return .ready(
            TokenStep(
                issuer: issuer, tokenEndpoint: tokenEndpoint, metadata: metadata, clientID: clientID, authentication: authentication,
                allowedTokenTypes: args.all(Self.tokenType), allowHTTP: allowHTTP, expectsIDToken: expectsIDToken, transport: transport))
    }

    /// The `alg` values an ID token may carry: the discovered provider's, else RS256.
    var signingAlgorithms: [String] { metadata?.idTokenSigningAlgorithms ?? TokenSet.defaultSigningAlgorithms }

    /// Fetches and checks the issuer's OpenID Connect discovery document.
    static func discover(_ issuer: String, allowHTTP: Bool, transport: CurlTransport) throws(StepFailure) -> ProviderMetadata {
        do {
            let url = try ProviderMetadata.discoveryURL(issuer: issuer, allowingLoopbackHTTP: allowHTTP)
            let response = try transport.send(.init(url: url, headers: [("Accept", "application/json")]))
            guard response.status == 200 else {
                throw EndpointStatus.refusal(response.status, from: "the discovery URL \(url)")
            }
            return try ProviderMetadata(parsing: response.body, expectedIssuer: issuer, allowingLoopbackHTTP: allowHTTP)
        } catch let error as CallbackError {
            throw StepFailure(error, step: "discovery")
        } catch let error as CurlTransport.Failure {
            throw StepFailure(error, step: "discovery")
        } catch {
            throw StepFailure(reason: .invalidConfiguration, detail: "discovery failed", exit: ExitCode.usage, step: "discovery")
        }
    }

    /// Redeems the code of `outcome` (login's success branches call this) and prints one
    /// JSON object: `printed` (today's fields) plus the tokens and the checked claims; or
    /// the token error, or the refusal. Other outcomes are printed as they were.
    /// Every final line goes through `conclude` (login's: the interruption rule and the
    /// human line on stderr).
    func finish(
        _ outcome: CallbackOutcome, secrets: AttemptSecrets, redirectURI: String, printed: JSONValue, context: CommandContext,
        conclude: (JSONValue) -> Void
    ) -> Int32 {
        guard outcome.kind == .authorizationCode else {
            conclude(printed)
            return Rendering.exitCode(for: outcome)
        }
        // A refused redemption still carries the two values every line of login carries.
        let carried: [(String, JSONValue)] = [("code_verifier", .string(secrets.pkce.verifier)), ("redirect_uri", .string(redirectURI))]
        do throws(StepFailure) {
            let delivery: Delivery
            let request: TokenRequest
            do {
                delivery = try Delivery(validated: outcome, secrets: secrets, redirectURI: redirectURI, issuer: issuer)
                request = try TokenRequest.authorizationCode(
                    for: delivery, redirectURI: redirectURI, tokenEndpoint: tokenEndpoint, clientID: clientID,
                    authentication: authentication, allowingLoopbackHTTP: allowHTTP)
            } catch {
                throw StepFailure(error, step: "token_request")
            }
            switch try exchange(request, context: context) {
            case .error(let tokenError):
                conclude(TokenStep.errorJSON(tokenError).appending(carried))
                return ExitCode.providerFailure
            case .tokens(let tokens):
                var claims: IDTokenClaims?
                if tokens.idToken != nil || expectsIDToken {
                    guard let issuer else {
                        throw StepFailure(
                            reason: .issuerMissing, detail: "an ID token arrived, and no --issuer says whose it must be",
                            exit: ExitCode.rejected, step: "id_token")
                    }
                    do {
                        claims = try tokens.checkIDToken(
                            for: delivery, clientID: clientID, issuer: issuer, signingAlgorithms: signingAlgorithms)
                    } catch {
                        throw StepFailure(error, step: "id_token")
                    }
                }
                conclude(printed.appending(TokenStep.tokenMembers(tokens, claims: claims)))
                return ExitCode.success
            }
        } catch {
            conclude(error.json(appending: carried))
            return error.exit
        }
    }

    /// Sends `request` and reads the answer with the library.
    func exchange(_ request: TokenRequest, context: CommandContext) throws(StepFailure) -> TokenResponse {
        let response: CurlTransport.Response
        do {
            response = try transport.send(
                .init(url: request.url, method: request.method, headers: request.headers.map { ($0.name, $0.value) }, body: request.body))
        } catch {
            throw StepFailure(error, step: "token_request")
        }
        if response.status == 200, !(response.header("Cache-Control").map(CurlTransport.lowercased)?.contains("no-store") ?? false) {
            context.printError("the token endpoint did not send Cache-Control: no-store (RFC 6749 §5.1); nothing here stores the response")
        }
        do {
            return try TokenResponse(
                status: response.status, body: response.body, allowedTokenTypes: allowedTokenTypes,
                maxBodyBytes: transport.maxResponseBytes)
        } catch {
            throw StepFailure(error, step: "token_response")
        }
    }

    /// `{"outcome":"token_error","error":…,"error_description":…|null,"error_uri":…|null,"status":N}`.
    static func errorJSON(_ error: TokenError) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("outcome", .string("token_error")), ("error", .string(error.code.rawValue)),
            ("error_description", .string(error.errorDescription)), ("error_uri", .string(error.errorURI)), ("status", .int(error.status)),
        ]
        if !error.withheldFields.isEmpty { members.append(("withheld", .array(error.withheldFields.map { .string($0) }))) }
        return .object(members)
    }

    /// The tokens (secrets: printed on stdout only) and the checked claims.
    static func tokenMembers(_ tokens: TokenSet, claims: IDTokenClaims?) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("access_token", .string(tokens.accessToken)), ("token_type", .string(tokens.tokenType)),
            ("expires_in", .int(tokens.expiresIn.map { Int(clamping: $0) })), ("refresh_token", .string(tokens.refreshToken)),
            ("scope", .string(tokens.scope)), ("id_token", .string(tokens.idToken)),
        ]
        if let claims {
            members.append(
                (
                    "id_token_claims",
                    .object([
                        ("sub", .string(claims.subject)), ("iss", .string(claims.issuer)),
                        ("aud", .array(claims.audience.map { .string($0) })),
                        ("exp", .int(Int(clamping: claims.expiresAt))), ("iat", .int(Int(clamping: claims.issuedAt))),
                        ("nonce_matched", .bool(true)),
                    ])
                ))
        } else {
            members.append(("id_token_claims", .null))
        }
        return members
    }
}

#endif
