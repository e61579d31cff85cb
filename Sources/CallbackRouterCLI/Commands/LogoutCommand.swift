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
import CallbackTokenStore
import CallbackTokens

/// `callback-router logout`: revokes a stored sign-in's refresh token and access token at
/// the provider (RFC 7009, discovery's `revocation_endpoint`) and removes its entry.
enum LogoutCommand: Command {
    static let name = "logout"
    static let summary = "Revoke a stored sign-in's tokens at the provider and remove them from the token store"
    static let overview = """
        OVERVIEW: Revoke the refresh token and the access token of a stored sign-in at the
        issuer's revocation_endpoint (RFC 7009) and remove the entry from the token store;
        'token' then fails until the next 'login'. When the provider names no revocation
        endpoint, the entry is removed and stderr says the tokens stay valid until they expire.
        A revocation the provider refuses keeps the entry (run logout again, or
        --forget to remove it without revoking).

        OUTPUT (one JSON object on stdout; no token):
          {"outcome":"logged_out","issuer":…,"client_id":…,"scope":…|null,"account":…|null,
           "revoked":["refresh_token","access_token"],"store":"file"|"secret-service"}
          A refusal: {"outcome":"rejected","reason":…,"detail":…,"offset":null,"step":…}.

        """
    static let options: [OptionDeclaration] =
        [
            CommonOptions.issuer.required().described(
                "The issuer the tokens were stored under; its discovery names the revocation endpoint."),
            CommonOptions.clientID.required(),
            CommonOptions.scope.described("The scopes given to login, when several entries of this client are stored."),
            TokenStoring.account,
            Option.revocationEndpoint, Option.forget,
        ] + TokenStep.sharedDeclarations.filter { $0.name != CommonOptions.tokenEndpoint.name }.map { $0.listed(under: revokeGroup) }

    enum Option {
        static let revocationEndpoint = OptionDeclaration.value(
            "revocation-endpoint", "URL", "The revocation endpoint (https), for a provider whose discovery does not name it.")
        static let forget = OptionDeclaration.flag("forget", "Remove the entry without revoking anything at the provider.")
    }
    static let revokeGroup = OptionGroup("REVOCATION OPTIONS", note: "needs curl")

    static let discussion = """
        EXIT CODES:
          0 revoked (or nothing to revoke at) and removed; 1 the revocation endpoint answered
          an error (the entry is kept); 64 usage; 65 a refused document or store; 69 curl
          missing or no HTTP answer (the entry is kept); 75 the store is locked, try again;
          77 nothing is stored for this client.

        EXAMPLE:
          callback-router logout --issuer https://example.auth0.com/ --client-id abc123

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let selection: TokenStoreKey, endpoint: String?
        do throws(Arguments.UsageError) {
            selection = try TokenStoring.readSelection(args)
            endpoint = try args.single(Option.revocationEndpoint)
        } catch {
            return usageError(error.description, context: context)
        }
        return TokenStoring.withSelectedEntry(
            selection, args: args, for: Self.self, context: context,
            advice: "nothing to log out"
        ) { store, entry, secret throws(TokenStoreError) -> Int32 in
            var revoked: [String] = []
            if !args.has(Option.forget) {
                switch revoke(entry, endpoint: endpoint, secret: secret, args: args, context: context) {
                case .success(let names): revoked = names
                case .failure(let ended): return ended.exit
                }
            }
            try store.remove(entry.key)
            context.printJSON(
                .object(
                    [("outcome", .string("logged_out"))] + TokenStoring.keyMembers(entry.key) + [
                        ("revoked", .array(revoked.map { .string($0) })), ("store", .string(store.backend.name)),
                    ]))
            return ExitCode.success
        }
    }

    /// Revokes the refresh token, then the access token; the names of those revoked, or the
    /// exit code once the failure is printed. No endpoint known: nothing revoked, said on stderr.
    static func revoke(
        _ entry: StoredTokens, endpoint given: String?, secret: String?, args: Arguments, context: CommandContext
    ) -> Result<[String], TokenStoring.Ended> {
        // Discovery, the client's authentication and loopback http as the token step reads them.
        let step: TokenStep
        switch TokenStep.prepare(
            args, for: Self.self, clientID: entry.key.clientID, issuer: entry.key.issuer, secret: secret, expectsIDToken: false,
            context: context)
        {
        case .ready(let ready): step = ready
        case .ended(let exit): return .failure(TokenStoring.Ended(exit: exit))
        }
        let endpoint = given ?? step.metadata?.revocationEndpoint
        guard let endpoint else {
            context.printError(
                "\(name): the provider's discovery names no revocation_endpoint: the tokens are removed here but stay valid at the"
                    + " provider until they expire (give --revocation-endpoint if it has one)")
            return .success([])
        }
        var revoked: [String] = []
        let tokens = [("refresh_token", entry.refreshToken), ("access_token", Optional(entry.accessToken))]
        for case let (hint, token?) in tokens {
            do throws(StepFailure) {
                let request: TokenRequest
                do {
                    request = try TokenRequest.revocation(
                        token, typeHint: hint, revocationEndpoint: endpoint, clientID: entry.key.clientID,
                        authentication: step.authentication,
                        allowingLoopbackHTTP: step.allowHTTP)
                } catch {
                    throw StepFailure(error, step: "revocation_request")
                }
                let response: CurlTransport.Response
                do {
                    response = try step.transport.send(
                        .init(
                            url: request.url, method: request.method, headers: request.headers.map { ($0.name, $0.value) },
                            body: request.body))
                } catch {
                    throw StepFailure(error, step: "revocation_request")
                }
                if response.status == 200 {
                    revoked.append(hint)
                    continue
                }
                // An access token the provider cannot revoke (RFC 7009 §2.2.1) is not a failure: it expires.
                if hint == "access_token", case .error(let error) = try? TokenResponse(status: response.status, body: response.body),
                    error.code.rawValue == "unsupported_token_type"
                {
                    continue
                }
                if case .error(let error) = try? TokenResponse(status: response.status, body: response.body) {
                    context.printJSON(TokenStep.errorJSON(error).appending([("step", .string("revocation"))]))
                } else {
                    context.printJSON(
                        Rendering.rejectionJSON(
                            reason: .invalidParameter, detail: "the revocation endpoint answered HTTP \(response.status)", offset: nil
                        ).appending([("step", .string("revocation"))]))
                }
                context.printError(
                    "\(name): the provider did not revoke the \(words(hint)) (HTTP \(response.status)); the entry is kept:"
                        + " run logout again later, or with --forget to remove it without revoking")
                return .failure(TokenStoring.Ended(exit: ExitCode.providerFailure))
            } catch {
                context.printError("\(name): the \(words(hint)) was not revoked; the entry is kept")
                return .failure(TokenStoring.Ended(exit: error.print(context: context)))
            }
        }
        return .success(revoked)
    }

    /// `refresh_token` → `refresh token`.
    static func words(_ name: String) -> String { String(name.map { $0 == "_" ? " " : $0 }) }
}

#endif
