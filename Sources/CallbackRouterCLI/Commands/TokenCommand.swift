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
import CallbackTokenStore
import CallbackTokens

/// `callback-router token`: a currently valid access token from the token store, refreshed
/// (under the store's lock, so once for concurrent calls) when it expires within a margin;
/// as JSON, bare, or as kubectl's `ExecCredential`. `--list` shows what is stored.
enum TokenCommand: Command {
    static let name = "token"
    static let summary = "Print a valid access token from the token store, refreshing it when needed"
    static let overview = """
        OVERVIEW: Print a currently valid access token of a stored sign-in ('login' stores
        them). A token that expires within --min-valid seconds is refreshed first (the
        rotated refresh token is stored); two calls at the same instant refresh once. It
        never opens a browser: with nothing valid stored it fails with the 'login' to run.

        OUTPUT (one JSON object on stdout; the token is a secret):
          {"outcome":"token","access_token":…,"token_type":…,"expires_at":N|null,
           "expires_in":N|null,"refreshed":true|false,"issuer":…,"client_id":…,"scope":…|null,
           "account":…|null,"store":"file"|"secret-service"}
          With --bare: the access token alone, and a newline.
          With --exec-credential: kubectl's ExecCredential, in the apiVersion that
          KUBERNETES_EXEC_INFO names (client.authentication.k8s.io/v1 or v1beta1; v1 without it):
          {"apiVersion":…,"kind":"ExecCredential",
           "status":{"token":…,"expirationTimestamp":…}}
          With --list (never a token):
          {"outcome":"stored","store":…,"path":…|null,"entries":[{"issuer":…,"client_id":…,
           "scope":…|null,"account":…|null,"expires_at":N|null,"refresh_token":true|false}]}
          A refusal, and a token error of the refresh (as 'refresh'):
          {"outcome":"rejected","reason":…,"detail":…,"offset":null,"step":…}
          {"outcome":"token_error",…}

        """
    static let serveMode = CommandMode("token")
    static let listMode = CommandMode("list", chosenBy: "list")
    static let modes = [serveMode, listMode]

    static let options: [OptionDeclaration] =
        [
            CommonOptions.issuer.required(in: serveMode).described("The issuer the tokens were stored under.").only(in: serveMode),
            CommonOptions.clientID.required(in: serveMode).only(in: serveMode),
            CommonOptions.scope.described("The scopes given to login, when several entries of this client are stored.").only(
                in: serveMode),
            TokenStoring.account.only(in: serveMode),
            Option.bare, Option.execCredential, Option.minValid,
            Option.list,
            RefreshedIDTokenCheck.requireSameAuthTime.listed(under: refreshGroup).only(in: serveMode),
        ] + TokenStep.sharedDeclarations.map { $0.listed(under: refreshGroup).only(in: serveMode) }

    /// The options only token reads.
    enum Option {
        static let bare = OptionDeclaration.flag("bare", "Print the access token alone (for $(…) in a shell).").only(in: serveMode)
        static let execCredential = OptionDeclaration.flag(
            "exec-credential", "Print kubectl's ExecCredential (a kubeconfig exec plugin; reads KUBERNETES_EXEC_INFO)."
        ).only(in: serveMode)
        static let minValid = OptionDeclaration.value(
            "min-valid", "SECONDS", "Refresh a token that expires within this many seconds (default 60)."
        ).only(in: serveMode)
        static let list = OptionDeclaration.flag(
            "list", "List the stored sign-ins: issuers, clients, scopes, accounts, expiry; never a token.")
    }
    static let refreshGroup = OptionGroup("REFRESH OPTIONS", note: "used only when the stored token must be refreshed; needs curl")

    static let discussion = """
        EXIT CODES:
          0 a valid token; 1 the refresh was refused by the token endpoint (invalid_grant:
          the entry is removed, log in again); 64 usage; 65 a refused response, or a store
          that is corrupt or written by a newer version; 69 curl missing, no HTTP answer, or
          no keyring; 74 the store could not be written; 75 the store or keyring is locked,
          try again; 77 nothing valid is stored (the 'login' to run is on stderr), or a store
          file that is not yours or not private.

        EXAMPLE:
          curl -H "Authorization: Bearer $(callback-router token --issuer https://example.auth0.com/ \\
              --client-id abc123 --bare)" https://api.example.com/me
          # a kubeconfig user:
          #   exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: callback-router,
          #          args: [token, --issuer, https://example.auth0.com/, --client-id, abc123,
          #                 --exec-credential], interactiveMode: Never}

        """

    /// How the token is printed.
    enum Format {
        case json
        case bare
        case execCredential(apiVersion: String)
    }

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        if args.has(Option.list) { return list(context: context) }
        let selection: TokenStoreKey, margin: Int64
        let format: Format
        do throws(Arguments.UsageError) {
            selection = try TokenStoring.readSelection(args)
            let minValid = try args.single(Option.minValid) ?? "60"
            guard let seconds = Int64(minValid), seconds >= 0, seconds <= 86_400 else {
                throw Arguments.UsageError(description: "--min-valid is a whole number of seconds from 0 to 86400")
            }
            margin = seconds
            format = try readFormat(args, context: context)
        } catch {
            return usageError(error.description, context: context)
        }
        let (issuer, clientID, scope, account) = (selection.issuer, selection.clientID, selection.scope, selection.account)
        let login = TokenStoring.loginCommand(issuer: issuer, clientID: clientID, scope: scope, account: account)
        return TokenStoring.withSelectedEntry(
            selection, args: args, for: Self.self, context: context,
            advice: "run \(login)"
        ) { store, entry, secret throws(TokenStoreError) -> Int32 in
            let now = WallClock.system.seconds()
            if entry.isValid(at: now, margin: margin) {
                return print(entry, refreshed: false, format: format, store: store, now: now, context: context)
            }
            guard let refreshToken = entry.refreshToken else {
                return TokenStoring.refuse(
                    "the stored access token has expired and no refresh token was issued: run \(login)", context: context)
            }
            return try refresh(
                entry, with: refreshToken, secret: secret, args: args, login: login, format: format, store: store, context: context)
        }
    }

    /// `--bare` / `--exec-credential` (with the apiVersion kubectl asks for), or JSON.
    static func readFormat(_ args: Arguments, context: CommandContext) throws(Arguments.UsageError) -> Format {
        if args.has(Option.bare) && args.has(Option.execCredential) {
            throw Arguments.UsageError(description: "--bare and --exec-credential are two formats: give one")
        }
        if args.has(Option.bare) { return .bare }
        guard args.has(Option.execCredential) else { return .json }
        let supported = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"]
        guard let info = context.environment["KUBERNETES_EXEC_INFO"], !info.isEmpty else {
            return .execCredential(apiVersion: supported[0])
        }
        guard let object = try? JSONReader.parse(info).object, let version = object["apiVersion"]?.string else {
            throw Arguments.UsageError(description: "KUBERNETES_EXEC_INFO is not kubectl's ExecCredential JSON with an apiVersion")
        }
        guard supported.contains(version) else {
            throw Arguments.UsageError(
                description:
                    "kubectl asks for \(CallbackError.printable(version)); this helper speaks \(supported.joined(separator: " and "))")
        }
        return .execCredential(apiVersion: version)
    }

    /// Refreshes `entry` at the token endpoint (discovery, or --token-endpoint), stores the
    /// new tokens (the rotated refresh token) and prints the access token.
    static func refresh(
        _ entry: StoredTokens, with refreshToken: String, secret: String?, args: Arguments, login: String, format: Format,
        store: TokenStore, context: CommandContext
    ) throws(TokenStoreError) -> Int32 {
        let step: TokenStep
        switch TokenStep.prepare(
            args, for: Self.self, clientID: entry.key.clientID, issuer: entry.key.issuer, secret: secret, expectsIDToken: false,
            context: context)
        {
        case .ready(let ready): step = ready
        case .ended(let exit): return exit
        }
        let tokens: TokenSet
        // The logout of the same entry: login's selection options (issuer, client id, scope, account).
        let logout = "callback-router logout" + login.dropFirst("callback-router login".count)
        do throws(StepFailure) {
            if let loginIDToken = entry.idToken {
                // Read before the refresh is sent, so that a stored ID token that cannot serve for
                // the comparison is refused before a (possibly rotating) refresh token is spent.
                do throws(CallbackError) {
                    try TokenSet.checkPreviousIDToken(loginIDToken, clientID: entry.key.clientID, issuer: entry.key.issuer)
                } catch {
                    context.printError(
                        "\(name): the stored sign-in's ID token cannot be read to compare the refreshed one with"
                            + " (\(error.reason.rawValue)); no refresh was sent: sign in again: \(logout), then \(login)")
                    throw StepFailure(error, step: "id_token")
                }
            }
            let request: TokenRequest
            do {
                request = try TokenRequest.refresh(
                    refreshToken, tokenEndpoint: step.tokenEndpoint, clientID: entry.key.clientID, authentication: step.authentication,
                    allowingLoopbackHTTP: step.allowHTTP)
            } catch {
                throw StepFailure(error, step: "token_request")
            }
            switch try step.exchange(request, context: context) {
            case .error(let tokenError):
                context.printJSON(TokenStep.errorJSON(tokenError))
                if tokenError.code == .invalidGrant {
                    if case .failure(let error) = Result(catching: { () throws(TokenStoreError) in try store.remove(entry.key) }) {
                        context.printError("\(name): the refused entry could not be removed (\(error.detail))")
                    }
                    context.printError(
                        "\(name): the provider refused the stored refresh token (invalid_grant: expired or revoked);"
                            + " the entry was removed: run \(login)")
                } else {
                    context.printError(
                        "\(name): the token endpoint refused the refresh (\(tokenError.code.rawValue)); the entry is kept: try again later")
                }
                return ExitCode.providerFailure
            case .tokens(let received):
                if let loginIDToken = entry.idToken {
                    // Compared with the stored login's ID token (OpenID Connect Core §12.2): another
                    // issuer, account or audience is refused and the entry kept as it is; a new
                    // auth_time is tolerated with a line on stderr unless --require-same-auth-time
                    // (django-oauth-toolkit 3.4.1 sends one on every refresh). The store keeps the
                    // login's ID token (StoredTokens.refreshed), so every refresh is compared with
                    // the original sign-in.
                    _ = try RefreshedIDTokenCheck.check(
                        received, previousIDToken: loginIDToken, clientID: entry.key.clientID, issuer: entry.key.issuer,
                        signingAlgorithms: step.signingAlgorithms, authTime: RefreshedIDTokenCheck.authTime(args), for: Self.self,
                        advice: "nothing of this answer was stored and the stored sign-in is kept; if the account is not the one"
                            + " you signed in with, sign in again: \(logout), then \(login)",
                        context: context)
                } else if received.idToken != nil {
                    // No login's ID token to compare with: checked on its own, against the
                    // provider's signing algorithms.
                    do throws(CallbackError) {
                        _ = try received.checkRefreshedIDToken(
                            clientID: entry.key.clientID, issuer: entry.key.issuer, signingAlgorithms: step.signingAlgorithms)
                    } catch {
                        throw StepFailure(error, step: "id_token")
                    }
                }
                tokens = received
            }
        } catch {
            return error.print(context: context)
        }
        let now = WallClock.system.seconds()
        let renewed = entry.refreshed(with: tokens, at: now)
        do throws(TokenStoreError) {
            try store.save(renewed)
        } catch {
            context.printError(
                "\(name): the refreshed tokens could not be stored (\(error.reason.rawValue): \(error.detail)); this token is valid,"
                    + " the next call may need \(login)")
        }
        return print(renewed, refreshed: true, format: format, store: store, now: now, context: context)
    }

    /// Prints the access token of `entry` as `format` asks.
    static func print(
        _ entry: StoredTokens, refreshed: Bool, format: Format, store: TokenStore, now: Int64, context: CommandContext
    ) -> Int32 {
        switch format {
        case .bare:
            context.output.writeOut(entry.accessToken + "\n")
        case .execCredential(let apiVersion):
            var status: [(String, JSONValue)] = [("token", .string(entry.accessToken))]
            if let expiresAt = entry.expiresAt { status.append(("expirationTimestamp", .string(UTCTimestamp.rfc3339(expiresAt)))) }
            context.printJSON(
                .object([("apiVersion", .string(apiVersion)), ("kind", .string("ExecCredential")), ("status", .object(status))]))
        case .json:
            context.printJSON(
                .object(
                    [
                        ("outcome", .string("token")), ("access_token", .string(entry.accessToken)),
                        ("token_type", .string(entry.tokenType)),
                        ("expires_at", .int(entry.expiresAt.map { Int(clamping: $0) })),
                        ("expires_in", .int(entry.expiresAt.map { Int(clamping: max(0, $0 - now)) })), ("refreshed", .bool(refreshed)),
                    ] + TokenStoring.keyMembers(entry.key) + [("store", .string(store.backend.name))]))
        }
        return ExitCode.success
    }

    /// `--list`: what is stored, never a secret.
    static func list(context: CommandContext) -> Int32 {
        TokenStoring.withStore(context: context) { store throws(TokenStoreError) -> Int32 in
            let entries = try store.entries().map { entry -> JSONValue in
                .object(
                    TokenStoring.keyMembers(entry.key) + [
                        ("expires_at", .int(entry.expiresAt.map { Int(clamping: $0) })),
                        ("refresh_token", .bool(entry.refreshToken != nil)),
                    ])
            }
            context.printJSON(
                .object([
                    ("outcome", .string("stored")), ("store", .string(store.backend.name)), ("path", .string(store.backend.path)),
                    ("entries", .array(entries)),
                ]))
            return ExitCode.success
        }
    }
}

#endif
