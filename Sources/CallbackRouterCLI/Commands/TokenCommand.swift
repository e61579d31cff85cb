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
        rotated refresh token is stored); two calls at the same instant refresh once.
        Without --login it never opens a browser: with nothing valid stored it fails with
        the 'login' to run. With --login it signs in then, as that 'login' would, stores
        the tokens and prints the token.

        OUTPUT (one JSON object on stdout; the token is a secret):
          {"outcome":"token","access_token":…,"token_type":…,"expires_at":N|null,
           "expires_in":N|null,"refreshed":true|false,"issuer":…,"client_id":…,"scope":…|null,
           "account":…|null,"store":"file"|"secret-service"}
          After a sign-in (--login), "signed_in":true follows; "store" is null when the
          tokens could not be stored, and "store_error":{"reason":…,"detail":…} says why.
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
            Option.bare, Option.execCredential, Option.minValid, Option.login,
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
        static let login = OptionDeclaration.flag(
            "login",
            "When nothing valid is stored (no entry; an expired token and no refresh token; a refresh token the provider refused), sign in as 'callback-router login --issuer I --client-id C [--scope S] [--account A]' would (the browser; over SSH without a display, the device flow when offered), store the tokens, then print the token. Never otherwise."
        ).only(in: serveMode)
    }
    static let refreshGroup = OptionGroup(
        "REFRESH OPTIONS", note: "for a refresh, or the sign-in of --login; needs curl")

    static let discussion = """
        SIGN-IN (--login):
          Progress and the last line ("✓ Signed in at …") go to stderr; stdout carries the
          token only. Calls for the same entry at the same time sign in once: the others say
          so on stderr and wait for it, then serve what it stored (or sign in themselves when
          it failed). The client secret of --client-secret-from-stdin serves the refresh and
          the sign-in. With --exec-credential and kubectl's "interactive": false (no terminal),
          no pasted address is read from stdin; the browser and the loopback still work.

        EXIT CODES:
          0 a valid token; 1 the refresh was refused by the token endpoint (invalid_grant:
          the entry is removed, log in again); 64 usage; 65 a refused response, or a store
          that is corrupt or written by a newer version; 69 curl missing, no HTTP answer, or
          no keyring; 74 the store could not be written; 75 the store or keyring is locked,
          try again; 77 nothing valid is stored (the 'login' to run is on stderr), or a store
          file that is not yours or not private.
          With --login, a sign-in that fails ends as 'login' ends: its JSON on stdout, its
          line on stderr, its exit code (1 refused at the provider; 65 a refused callback or
          response; 75 no callback in time, the device code expired, or another sign-in for
          the same entry still under way after its 300 seconds and one minute more;
          130 / 143 Ctrl-C / SIGTERM). A corrupt, locked or foreign store, a network failure
          or any other token error never starts a sign-in.

        EXAMPLE:
          curl -H "Authorization: Bearer $(callback-router token --issuer https://example.auth0.com/ \\
              --client-id abc123 --bare)" https://api.example.com/me
          # a kubeconfig user:
          #   exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: callback-router,
          #          args: [token, --issuer, https://example.auth0.com/, --client-id, abc123,
          #                 --exec-credential], interactiveMode: Never}
          # one that signs in when needed (kubectl starts the browser through it):
          #   exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: callback-router,
          #          args: [token, --issuer, https://example.auth0.com/, --client-id, abc123,
          #                 --exec-credential, --login], interactiveMode: IfAvailable}

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
            if args.has(Option.login), args.gave(CommonOptions.tokenEndpoint) {
                throw Arguments.UsageError(
                    description: "--login signs in through --issuer's discovery, as login does: leave out --token-endpoint")
            }
        } catch {
            return usageError(error.description, context: context)
        }
        let secret: String?
        switch TokenStoring.readClientSecret(args, for: Self.self, context: context) {
        case .success(let read): secret = read
        case .failure(let ended): return ended.exit
        }
        let request = Request(selection: selection, margin: margin, format: format, secret: secret, signsIn: args.has(Option.login))
        let served = serve(request, args: args, context: context)
        guard case .signIn(let reason, let directory) = served else { return served.exit }
        return signIn(request, because: reason, directory: directory, args: args, context: context)
    }

    /// What one call asks for.
    struct Request {
        let selection: TokenStoreKey
        let margin: Int64
        let format: Format
        /// The client secret (`--client-secret-from-stdin`), read once for the refresh and the sign-in.
        let secret: String?
        /// `--login`: sign in when nothing valid is stored.
        let signsIn: Bool

        /// The `login` that stores tokens for this entry, for the messages.
        var login: String {
            TokenStoring.loginCommand(
                issuer: selection.issuer, clientID: selection.clientID, scope: selection.scope, account: selection.account)
        }
    }

    /// How serving from the store ended.
    enum Served {
        /// Printed (a token, or a refusal), with this exit code.
        case ended(Int32)
        /// Nothing valid is stored and `--login` asks to sign in: why, in words, and the store's directory.
        case signIn(String, directory: String)

        var exit: Int32 {
            if case .ended(let exit) = self { return exit }
            return ExitCode.success
        }
    }

    /// The token of the stored entry, refreshed when it expires within the margin, under the
    /// store's lock. Nothing valid (no entry, an expired token without a refresh token, a
    /// refresh token refused with `invalid_grant`): the line naming the login to run, or
    /// `.signIn` with `--login`, once the store's lock is released.
    static func serve(_ request: Request, args: Arguments, context: CommandContext) -> Served {
        let login = request.login
        var signIn: (reason: String, directory: String)?
        let noted: (TokenStore, String) -> Int32 = { store, reason in
            signIn = (reason, store.directory)
            return ExitCode.success
        }
        let exit = TokenStoring.withSelectedEntry(
            request.selection, for: Self.self, context: context, advice: "run \(login)", missing: request.signsIn ? noted : nil
        ) { store, entry throws(TokenStoreError) -> Int32 in
            let now = WallClock.system.seconds()
            if entry.isValid(at: now, margin: request.margin) {
                return print(entry, refreshed: false, format: request.format, store: store, now: now, context: context)
            }
            guard let refreshToken = entry.refreshToken else {
                if request.signsIn { return noted(store, "the stored access token has expired and no refresh token was issued") }
                return TokenStoring.refuse(
                    "the stored access token has expired and no refresh token was issued: run \(login)", command: name, context: context)
            }
            return try refresh(
                entry, with: refreshToken, secret: request.secret, args: args, login: login, format: request.format, store: store,
                context: context, refused: request.signsIn ? { noted(store, $0) } : nil)
        }
        guard let signIn else { return .ended(exit) }
        return .signIn(signIn.reason, directory: signIn.directory)
    }

    /// `--login` with nothing valid stored: under the entry's sign-in lock (``SignInLock``),
    /// serves what a concurrent call stored meanwhile, else signs in as `login` would
    /// (``LoginFlow``), stores the tokens and prints the token. A failed sign-in ends as
    /// login's does.
    static func signIn(_ request: Request, because reason: String, directory: String, args: Arguments, context: CommandContext) -> Int32 {
        let selection = request.selection
        var plan: LoginFlow.Plan
        do throws(Arguments.UsageError) {
            plan = try LoginFlow.Plan(
                issuer: selection.issuer, clientID: selection.clientID, scope: selection.scope, account: selection.account,
                context: context)
        } catch {
            return usageError(error.description, context: context)
        }
        let lock: FileLock
        switch SignInLock.acquire(for: selection, in: directory, waiting: plan.seconds + 60, command: name, context: context) {
        case .success(let taken): lock = taken
        case .failure(let ended): return ended.exit
        }
        defer { lock.release() }
        // Another call may have signed in while this one waited for the lock: its tokens are served.
        let served = serve(request, args: args, context: context)
        guard case .signIn = served else { return served.exit }
        context.printError("\(name): \(reason): signing in (--login), as \(request.login) would")
        plan.storing.command = name
        // stdin is not a person's when it carried the client secret, or when kubectl says no terminal is there.
        if request.secret != nil || !execCredentialIsInteractive(request.format, context: context) {
            plan.loopback.pasteDescriptor = nil
        }
        let step: TokenStep
        switch TokenStep.prepareLogin(
            args, for: Self.self, clientID: plan.clientID, scope: plan.scope, expectations: &plan.expectations, secret: request.secret,
            context: context)
        {
        case .ready(let ready): step = ready
        case .ended(let exit): return exit
        }
        let keeper = SignInKeeper()
        let exit = LoginFlow.signIn(
            plan, tokenStep: step, codeFlowOptionGiven: false, redirectURI: nil, command: Self.self, keeper: keeper, context: context)
        guard let json = keeper.tokens else { return exit }
        return printSignedIn(json, plan: plan, format: request.format, context: context)
    }

    /// Prints the token of a sign-in's JSON (login's, with `"stored"`) as `format` asks; when
    /// storing failed, stderr says the next call signs in again.
    static func printSignedIn(_ json: JSONValue, plan: LoginFlow.Plan, format: Format, context: CommandContext) -> Int32 {
        let now = WallClock.system.seconds()
        let key = TokenStoreKey(
            issuer: plan.expectations.issuer ?? "", clientID: plan.clientID, scope: plan.scope, account: plan.storing.account)
        guard let entry = TokenStoring.entry(of: json, key: key, at: now) else { return ExitCode.success }
        let object = json.object
        var members: [(String, JSONValue)] = [("store", .string(object?["stored"]?.object?["store"]?.string)), ("signed_in", .bool(true))]
        if let failure = object?["store_error"] {
            members.append(("store_error", failure))
            context.printError("\(name): this token is valid, but it was not stored: the next call signs in again")
        }
        return print(entry, refreshed: false, format: format, members: members, now: now, context: context)
    }

    /// Whether kubectl gives the plugin a terminal: false when `--exec-credential` runs
    /// under a KUBERNETES_EXEC_INFO whose `spec.interactive` is false; true otherwise.
    static func execCredentialIsInteractive(_ format: Format, context: CommandContext) -> Bool {
        guard case .execCredential = format, let info = context.environment["KUBERNETES_EXEC_INFO"],
            let spec = (try? JSONReader.parse(info))?.object?["spec"]?.object
        else { return true }
        if case .bool(let interactive) = spec["interactive"]?.storage { return interactive }
        return true
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
        store: TokenStore, context: CommandContext, refused signIn: ((String) -> Int32)? = nil
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
                if tokenError.code == .invalidGrant, let signIn {
                    removeRefused(entry, from: store, context: context)
                    return signIn(
                        "the provider refused the stored refresh token (invalid_grant: expired or revoked); the entry was removed")
                }
                context.printJSON(TokenStep.errorJSON(tokenError))
                if tokenError.code == .invalidGrant {
                    removeRefused(entry, from: store, context: context)
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

    /// Removes an entry whose refresh token the provider refused; a failure is said, not fatal.
    static func removeRefused(_ entry: StoredTokens, from store: TokenStore, context: CommandContext) {
        if case .failure(let error) = Result(catching: { () throws(TokenStoreError) in try store.remove(entry.key) }) {
            context.printError("\(name): the refused entry could not be removed (\(error.detail))")
        }
    }

    /// Prints the access token of `entry` as `format` asks.
    static func print(
        _ entry: StoredTokens, refreshed: Bool, format: Format, store: TokenStore, now: Int64, context: CommandContext
    ) -> Int32 {
        print(entry, refreshed: refreshed, format: format, members: [("store", .string(store.backend.name))], now: now, context: context)
    }

    /// Prints the access token of `entry` as `format` asks; the JSON ends with `members`.
    static func print(
        _ entry: StoredTokens, refreshed: Bool, format: Format, members: [(String, JSONValue)], now: Int64, context: CommandContext
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
                    ] + TokenStoring.keyMembers(entry.key) + members))
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
