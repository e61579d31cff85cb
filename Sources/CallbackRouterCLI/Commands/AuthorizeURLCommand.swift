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

/// `callback-router authorize-url …`: an authorization request URL and its fresh secrets.
enum AuthorizeURLCommand: Command {
    static let name = "authorize-url"
    static let summary = "Build an OAuth 2.0 / OIDC authorization request URL"
    static let overview = """
        OVERVIEW: Build an OAuth 2.0 / OIDC authorization request URL with PKCE, with a fresh
        random state, code verifier and nonce, for scripts that drive a login.

        """
    static let options: [OptionDeclaration] = [
        CommonOptions.endpoint.required().described(
            "The provider's authorization endpoint, e.g. https://example.auth0.com/authorize. https, or http only to a loopback IP literal (127.0.0.1, [::1]), without --allow-http-loopback: this command opens and sends nothing (login and refresh need the flag for http); no userinfo, no fragment. Its own query parameters are kept."
        ),
        CommonOptions.clientID.required().described("The client_id (printable ASCII)."),
        CommonOptions.redirectURI.required().described(
            "Where the provider sends the browser back, sent exactly as given. Checked as 'parse' checks a --redirect-uri: an absolute URI without fragment or userinfo, not javascript:, data:, file:, vbscript:, about:, blob: or urn: (the out-of-band urn:ietf:wg:oauth:2.0:oob reaches no app), no repeated query parameter and none named like a response parameter (code, state…), and allowed by the policy."
        ),
        CommonOptions.scope.alternative("scope"),
        CommonOptions.noScope.alternative("scope").described(
            "Send no scope at all (RFC 6749 §3.3: the provider's default applies; plain OAuth 2.0 providers such as GitHub accept it)."),
        Option.noNonce,
        CommonOptions.param.described(
            "An extra parameter (audience, prompt, login_hint…); repeat for more. It may not be one the request sets itself (response_type, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method, nonce), nor one the endpoint's query already has, nor be given twice (resource, RFC 8707, may repeat). The first '=' splits name from value."
        ),
        Option.responseMode,
        OptionValues.policy.declaration(then: "As for 'parse'."),
        CommonOptions.allowLocalhost,
        CommonOptions.stateFromStdin.described(
            "Use the first line of stdin as the state instead of a fresh random one (an app that encodes its own value, or a test that needs a known one). Any valid UTF-8, 1 to 512 bytes; a CR before the LF is dropped; read within 60 seconds. The state is the only defence against cross-site request forgery: it must carry at least 128 bits the attacker cannot guess (a shorter one than 16 bytes gets a warning on stderr). The verifier and the nonce are still fresh and random."
        ),
    ]
    static let discussion = """
        The URL carries response_type=code, client_id, redirect_uri, scope (unless
        --no-scope), state, code_challenge, code_challenge_method=S256 and nonce (unless
        --no-nonce), then the extra parameters. The
        state, the verifier and the nonce are each 32 bytes from the system CSPRNG,
        base64url-encoded (43 characters). Every value is percent-encoded: only
        A-Z a-z 0-9 - . _ ~ stay raw, a space is %20 (never '+', which form decoders and
        RFC 3986 decoders read differently).

        OUTPUT:
          {"url":…,"state":…,"code_verifier":…,"nonce":…}   (no "nonce" with --no-nonce)
          Keep state to check the callback (callback-router parse --state) and code_verifier
          for the token request; both are secrets. A bad setting prints
          {"outcome":"rejected","reason":"invalid_configuration","detail":…,"offset":N|null}
          (the offset, when there is one, is into the --redirect-uri value). A private-use
          scheme without a dot (myapp) is accepted with a warning on stderr (RFC 8252 §7.1
          recommends a reverse domain name).

        EXIT CODES:
          0 printed, 64 usage or invalid configuration (an empty, over-long or
          non-UTF-8 state from stdin), 75 no state arrived on stdin in time.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router authorize-url --endpoint https://example.auth0.com/authorize \\
              --client-id abc123 --redirect-uri http://127.0.0.1:8400/callback \\
              --scope 'openid profile offline_access' --param audience=https://api.example.com

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let endpoint: String, clientID: String, redirectURI: String, scope: String?
        let policy: RedirectURIPolicy
        var extra: [(String, String)] = []
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            endpoint = try args.required(CommonOptions.endpoint)
            clientID = try args.required(CommonOptions.clientID)
            redirectURI = try args.required(CommonOptions.redirectURI)
            scope = try OptionValues.scope(args)
            policy = try OptionValues.policy.read(args)
            for pair in args.all(CommonOptions.param) {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw Arguments.UsageError(description: "--param takes NAME=VALUE")
                }
                extra.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            }
            if let mode = try args.single(Option.responseMode) {
                guard mode == "form_post" else {
                    throw Arguments.UsageError(description: "--response-mode takes form_post (query is the default and needs no parameter)")
                }
                extra.append(("response_mode", mode))
            }
        } catch {
            return usageError(error.description, context: context)
        }

        // The same rules as parse's --redirect-uri; the string itself is sent unchanged
        // (providers compare redirect_uri by exact string, RFC 9700 §2.1).
        if let exit = RedirectURIOption.refusal(
            of: redirectURI, label: "--redirect-uri", policy: policy, allowLocalhost: args.has(CommonOptions.allowLocalhost),
            command: name, context: context)
        {
            return exit
        }

        let secrets: AttemptSecrets
        if args.has(CommonOptions.stateFromStdin) {
            switch secretsWithStateFromStandardInput(context: context) {
            case .success(let given): secrets = given
            case .failure(let ended): return ended.exit
            }
        } else {
            secrets = AttemptSecrets()
        }
        let request: AuthorizationRequest
        do {
            request = try AuthorizationRequest(
                endpoint: endpoint, clientID: clientID, redirectURI: redirectURI,
                scope: scope, secrets: secrets, includeNonce: !args.has(Option.noNonce),
                extraParameters: extra)
        } catch {
            context.printJSON(Rendering.rejectionJSON(reason: error.reason, detail: error.detail, offset: nil))
            return ExitCode.usage
        }
        var fields: [(String, JSONValue)] = [
            ("url", .string(request.url)),
            ("state", .string(secrets.state)),
            ("code_verifier", .string(secrets.pkce.verifier)),
        ]
        if !args.has(Option.noNonce) { fields.append(("nonce", .string(secrets.nonce))) }
        context.printJSON(.object(fields))
        return ExitCode.success
    }

    /// The options only authorize-url reads.
    enum Option {
        static let noNonce = OptionDeclaration.flag(
            "no-nonce", "Send no nonce (a plain OAuth 2.0 request, not OpenID Connect); the output then has no \"nonce\" either.")
        static let responseMode = OptionDeclaration.value(
            "response-mode", "form_post",
            "Ask for the OpenID Connect Form Post Response Mode (the callback is a POST; receive it with 'loopback --response-mode form_post'). Adds response_mode=form_post.",
            choices: ["form_post"])
    }

    /// A command that has already said why it ends, with its exit code.
    struct Ended: Error {
        let exit: Int32
    }

    /// `--state-from-stdin`: fresh secrets around the state read from the first line of
    /// stdin (within ``stateWaitSeconds``), with a warning when it is too short to be safe.
    static func secretsWithStateFromStandardInput(context: CommandContext) -> Result<AttemptSecrets, Ended> {
        let secrets: AttemptSecrets
        let state: String
        switch StandardInput.readLine(from: context.standardInput, until: .now.advanced(by: .seconds(stateWaitSeconds))) {
        case .success(let line):
            state = line
        case .failure(.timedOut):
            context.printJSON(
                Rendering.rejectionJSON(
                    reason: .timeout,
                    detail: "no state arrived on stdin within \(stateWaitSeconds) seconds", offset: nil))
            return .failure(Ended(exit: ExitCode.tryAgain))
        case .failure(let problem):
            return .failure(Ended(exit: usageError("--state-from-stdin: \(problem)", context: context)))
        }
        do {
            secrets = try AttemptSecrets(state: state, pkce: PKCE(), nonce: AttemptSecrets.randomToken())
        } catch {
            context.printJSON(Rendering.rejectionJSON(reason: error.reason, detail: "--state-from-stdin: " + error.detail, offset: nil))
            return .failure(Ended(exit: ExitCode.usage))
        }
        if state.utf8.count < AttemptSecrets.minimumTokenByteCount {
            context.printError(
                "\(name): warning: the state from stdin is \(state.utf8.count) bytes; fewer than \(AttemptSecrets.minimumTokenByteCount) cannot carry the 128 unguessable bits that protect the login against cross-site request forgery"
            )
        }
        return .success(secrets)
    }

    /// How long `--state-from-stdin` waits for its line.
    static let stateWaitSeconds = 60
}

#endif
