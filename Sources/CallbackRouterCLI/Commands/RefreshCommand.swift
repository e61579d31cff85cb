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

import CallbackRouter

/// `callback-router refresh`: a refresh token (stdin) for new tokens (RFC 6749 §6).
enum RefreshCommand: Command {
    static let name = "refresh"
    static let summary = "Redeem a refresh token (read from stdin) for new tokens"
    static let overview = """
        OVERVIEW: Send a refresh request (RFC 6749 §6) and print the new tokens.

        USAGE: callback-router refresh --client-id ID (--issuer I | --token-endpoint URL)
                                       [--scope S] [--client-secret-from-stdin [--client-auth M]]

        STDIN:
          Line 1: the refresh token. With --client-secret-from-stdin, line 2: the client
          secret. Neither is ever taken from argv or the environment, nor shown on stderr.

        OUTPUT (one JSON object on stdout; the tokens are secrets):
          {"outcome":"tokens","access_token":…,"token_type":…,"expires_in":N|null,
           "refresh_token":…|null,"scope":…|null,"id_token":…|null}
          A refreshed ID token is passed on as received, not checked here (checking it needs
          the claims of the login's ID token: the library's checkRefreshedIDToken does that).
          An error response: {"outcome":"token_error","error":…,"error_description":…|null,
          "error_uri":…|null,"status":N}. A refusal: {"outcome":"rejected","reason":…,
          "detail":…,"offset":null,"step":…}.

        """
    static let options: [OptionDeclaration] =
        [
            .value("client-id", "ID", "The client id."),
            .value("issuer", "I", "The issuer whose discovery document names the token endpoint."),
            .value("scope", "S", "Ask for a narrower scope than the one granted (RFC 6749 §6)."),
        ] + TokenStep.sharedDeclarations.map { $0.listed(under: refreshGroup) }
    static let refreshGroup = OptionGroup("TOKEN OPTIONS", note: "the tokens are secrets, printed on stdout only; needs curl")
    static let discussion = """
        EXIT CODES:
          0 new tokens; 1 the token endpoint answered an error (e.g. invalid_grant: the
          refresh token expired or was revoked); 64 usage; 65 a refused response or
          document; 69 curl missing or no HTTP answer (transport_unavailable,
          transport_failed); 75 timed out (also: no line on stdin within 30 seconds).

        EXAMPLE:
          jq -r .refresh_token login.json | callback-router refresh \\
              --issuer https://example.auth0.com/ --client-id abc123 > tokens.json

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let clientID: String, issuer: String?, scope: String?
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            guard let id = try args.single("client-id") else { throw Arguments.UsageError(description: "--client-id is required") }
            clientID = id
            issuer = try args.single("issuer")
            scope = try args.single("scope")
        } catch {
            return usageError(error.description, context: context)
        }
        let withSecret = args.has("client-secret-from-stdin")
        var exit: Int32 = 0
        guard
            let lines = TokenStep.readSecrets(
                withSecret ? 2 : 1, naming: withSecret ? "refresh token and client secret" : "refresh token", for: Self.self,
                context: context, exit: &exit)
        else { return exit }
        let step: TokenStep
        switch TokenStep.prepare(
            args, for: Self.self, clientID: clientID, issuer: issuer, secret: withSecret ? lines[1] : nil, expectsIDToken: false,
            context: context)
        {
        case .ready(let ready): step = ready
        case .ended(let exit): return exit
        }
        do throws(StepFailure) {
            let request: TokenRequest
            do {
                request = try TokenRequest.refresh(
                    lines[0], tokenEndpoint: step.tokenEndpoint, clientID: clientID, scope: scope,
                    authentication: step.authentication, allowingLoopbackHTTP: step.allowHTTP)
            } catch {
                throw StepFailure(error, step: "token_request")
            }
            switch try step.exchange(request, context: context) {
            case .error(let tokenError):
                context.printJSON(TokenStep.errorJSON(tokenError))
                return ExitCode.providerFailure
            case .tokens(let tokens):
                let members = TokenStep.tokenMembers(tokens, claims: nil).filter { $0.0 != "id_token_claims" }
                context.printJSON(.object([("outcome", .string("tokens"))] + members))
                return ExitCode.success
            }
        } catch {
            return error.print(context: context)
        }
    }
}
