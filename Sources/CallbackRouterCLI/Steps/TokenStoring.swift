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

/// What `login`, `token` and `logout` share about the token store (``TokenStore``): the
/// options, opening the user's store, login's storing call and how a store error is told.
struct TokenStoring {
    static let group = OptionGroup("STORE OPTIONS", note: "the desktop keyring when a Secret Service answers, else a 0600 file")

    /// `--account NAME`: one of several sign-ins of the same issuer, client and scopes.
    static let account = OptionDeclaration.value(
        "account", "NAME", "Which stored sign-in, when several of the same issuer, client and scopes are kept (default: none).",
        group: group)
    /// `--no-store`: login keeps nothing.
    static let noStore = OptionDeclaration.flag(
        "no-store", "Do not keep the tokens in the token store (they are printed only).", group: group)

    /// Whether login stores, and under which account.
    let enabled: Bool
    let account: String?
    /// The command that signed in, naming the messages (`login`; `token` for `token --login`).
    var command = "login"

    /// Login's store options.
    static func read(_ args: Arguments) throws(Arguments.UsageError) -> TokenStoring {
        TokenStoring(enabled: !args.has(noStore), account: try readAccount(args))
    }

    /// The sign-in `token` and `logout` name: `--issuer` and `--client-id` (required), and
    /// `--scope` and `--account` when several are stored.
    static func readSelection(_ args: Arguments) throws(Arguments.UsageError) -> TokenStoreKey {
        try args.noPositionals()
        guard let issuer = try args.single(CommonOptions.issuer), !issuer.isEmpty else {
            throw Arguments.UsageError(description: "--issuer is required")
        }
        guard let clientID = try args.single(CommonOptions.clientID) else {
            throw Arguments.UsageError(description: "--client-id is required")
        }
        return TokenStoreKey(
            issuer: issuer, clientID: clientID, scope: try args.single(CommonOptions.scope), account: try readAccount(args))
    }

    /// The client secret (one line of stdin) when `--client-secret-from-stdin` asks for it:
    /// `.success(nil)` without it, `.failure` with the exit code once the refusal is printed.
    static func readClientSecret<C: Command>(_ args: Arguments, for command: C.Type, context: CommandContext) -> Result<String?, Ended> {
        guard args.has(CommonOptions.clientSecretFromStdin) else { return .success(nil) }
        var exit: Int32 = 0
        guard let lines = TokenStep.readSecrets(1, naming: "client secret", for: command, context: context, exit: &exit) else {
            return .failure(Ended(exit: exit))
        }
        return .success(lines[0])
    }

    /// Reads the client secret when asked, then runs `body` under the store's lock with the
    /// one entry `selection` names; none stored: `not_signed_in`, then `advice`;
    /// several (other scopes): a usage error asking for `--scope`.
    static func withSelectedEntry<C: Command>(
        _ selection: TokenStoreKey, args: Arguments, for command: C.Type, context: CommandContext,
        advice: String,
        _ body: (TokenStore, StoredTokens, _ secret: String?) throws(TokenStoreError) -> Int32
    ) -> Int32 {
        let secret: String?
        switch readClientSecret(args, for: command, context: context) {
        case .success(let read): secret = read
        case .failure(let ended): return ended.exit
        }
        return withSelectedEntry(selection, for: command, context: context, advice: advice) { store, entry throws(TokenStoreError) in
            try body(store, entry, secret)
        }
    }

    /// Runs `body` under the store's lock with the one entry `selection` names; none stored:
    /// `missing` with the store and what is missing in words, else (no `missing`)
    /// `not_signed_in`, then `advice`; several (other scopes): a usage error asking for `--scope`.
    static func withSelectedEntry<C: Command>(
        _ selection: TokenStoreKey, for command: C.Type, context: CommandContext, advice: String,
        missing: ((TokenStore, String) -> Int32)? = nil,
        _ body: (TokenStore, StoredTokens) throws(TokenStoreError) -> Int32
    ) -> Int32 {
        withStore(context: context) { store throws(TokenStoreError) -> Int32 in
            let found = try store.entries(
                issuer: selection.issuer, clientID: selection.clientID, scope: selection.scope, account: selection.account)
            if found.count > 1 {
                let scopes = found.map { $0.key.scope.map { "'\($0)'" } ?? "(none)" }.joined(separator: ", ")
                return command.usageError(
                    "several sign-ins of this client are stored (scopes \(scopes)): choose one with --scope", context: context)
            }
            guard let entry = found.first else {
                let what = "no tokens are stored for \(selection.issuer) client \(selection.clientID) in \(store.location)"
                if let missing { return missing(store, what) }
                return refuse(what + ": " + advice, command: command.name, context: context)
            }
            return try body(store, entry)
        }
    }

    /// A command that already ended, with this exit code (its refusal printed).
    struct Ended: Error {
        let exit: Int32
    }

    /// `--account`, checked: printable, no more than 128 bytes.
    static func readAccount(_ args: Arguments) throws(Arguments.UsageError) -> String? {
        guard let account = try args.single(account) else { return nil }
        guard !account.isEmpty, account.utf8.count <= 128, account.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { throw Arguments.UsageError(description: "--account is 1 to 128 printable characters") }
        return account
    }

    /// Login's storing call, after a sign-in that ended with tokens (`json` has an
    /// `access_token`): stores them under the issuer, client id, requested scope and account,
    /// and returns `json` with `"stored"` added (`{"store","path","account"}`, or null when
    /// nothing was stored; then `"store_error"` says why, when storing failed). Other
    /// outcomes are returned as they are. Storing never changes what login printed before.
    func afterLogin(_ json: JSONValue, issuer: String?, clientID: String, scope: String?, context: CommandContext) -> JSONValue {
        guard json.object?["access_token"]?.string != nil else { return json }
        guard enabled, let issuer else {
            if enabled {
                context.printError("\(command): the tokens were not stored: without --issuer there is no issuer to keep them under")
            }
            return TokenStoring.inserting(("stored", .null), into: json)
        }
        let key = TokenStoreKey(issuer: issuer, clientID: clientID, scope: scope, account: account)
        guard let entry = TokenStoring.entry(of: json, key: key, at: WallClock.system.seconds()) else { return json }
        do throws(TokenStoreError) {
            let store = try TokenStore(environment: context.environment)
            let saved: Result<Void, TokenStoreError> = try store.locked { () -> Result<Void, TokenStoreError> in
                do throws(TokenStoreError) {
                    try store.save(entry)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            if case .failure(let error) = saved { throw error }
            return TokenStoring.inserting(("stored", TokenStoring.whereJSON(store, account: account)), into: json)
        } catch {
            context.printError("\(command): the tokens were not stored (\(error.reason.rawValue)): \(error.detail)")
            let failure = JSONValue.object([("reason", .string(error.reason.rawValue)), ("detail", .string(error.detail))])
            return TokenStoring.inserting(("stored", .null), ("store_error", failure), into: json)
        }
    }

    /// The entry a sign-in's JSON (login's, with an `access_token`) makes under `key`,
    /// received at `now`; nil without an access token.
    static func entry(of json: JSONValue, key: TokenStoreKey, at now: Int64) -> StoredTokens? {
        guard let object = json.object, let accessToken = object["access_token"]?.string else { return nil }
        return StoredTokens(
            key: key, accessToken: accessToken, tokenType: object["token_type"]?.string ?? "Bearer",
            expiresAt: object["expires_in"]?.number?.int64.map { now + $0 }, refreshToken: object["refresh_token"]?.string,
            idToken: object["id_token"]?.string, grantedScope: object["scope"]?.string, storedAt: now)
    }

    /// `json` with `members` before its `access_token` (the members login printed before
    /// keep their order and neighbours).
    static func inserting(_ members: (String, JSONValue)..., into json: JSONValue) -> JSONValue {
        guard case .object(let existing) = json.storage, let index = existing.firstIndex(where: { $0.0 == "access_token" }) else {
            return json.appending(members)
        }
        var all = existing
        all.insert(contentsOf: members, at: index)
        return .object(all)
    }

    /// `{"store":"file"|"secret-service","path":…|null,"account":…|null}`.
    static func whereJSON(_ store: TokenStore, account: String?) -> JSONValue {
        .object([("store", .string(store.backend.name)), ("path", .string(store.backend.path)), ("account", .string(account))])
    }

    /// Runs `body` on the user's store under its lock; a store error is printed (one
    /// rejection JSON with `"step":"store"`, and the line saying what to do) and ends the command.
    static func withStore(context: CommandContext, _ body: (TokenStore) throws(TokenStoreError) -> Int32) -> Int32 {
        do throws(TokenStoreError) {
            let store = try TokenStore(environment: context.environment)
            let result = try store.locked { () -> Result<Int32, TokenStoreError> in
                do throws(TokenStoreError) {
                    return .success(try body(store))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        } catch {
            return fail(error, context: context)
        }
    }

    /// Prints a store error and returns its exit code: 77 a store that is not the user's
    /// own or not private; 75 the lock held or the keyring locked (try again); 65 corrupt
    /// or newer; 69 no keyring; 64 a bad setting; 74 a file that could not be written.
    static func fail(_ error: TokenStoreError, context: CommandContext) -> Int32 {
        context.printJSON(
            Rendering.rejectionJSON(reason: error.reason, detail: error.detail, offset: nil).appending([("step", .string("store"))]))
        context.printError(error.detail)
        switch error.reason {
        case TokenStoreError.notPrivate: return ExitCode.permission
        case TokenStoreError.busy, TokenStoreError.keyringLocked: return ExitCode.tryAgain
        case TokenStoreError.corrupt, TokenStoreError.newerVersion: return ExitCode.rejected
        case TokenStoreError.keyringFailed: return ExitCode.unavailable
        case TokenStoreError.ioFailed: return ExitCode.ioError
        default: return ExitCode.usage
        }
    }

    /// The reason of a token that cannot be served: nothing stored, or expired and no refresh token.
    static let notSignedIn = ReasonCode(rawValue: "not_signed_in")

    /// `"issuer","client_id","scope","account"`: the entry's key, no secret.
    static func keyMembers(_ key: TokenStoreKey) -> [(String, JSONValue)] {
        [
            ("issuer", .string(key.issuer)), ("client_id", .string(key.clientID)), ("scope", .string(key.scope)),
            ("account", .string(key.account)),
        ]
    }

    /// Nothing valid is stored: the rejection `not_signed_in` (77) and the line naming the login.
    static func refuse(_ detail: String, command: String, context: CommandContext) -> Int32 {
        context.printJSON(Rendering.rejectionJSON(reason: notSignedIn, detail: detail, offset: nil).appending([("step", .string("store"))]))
        context.printError("\(command): \(detail)")
        return ExitCode.permission
    }

    /// The `login` command that stores tokens for this entry, for the messages.
    static func loginCommand(issuer: String, clientID: String, scope: String?, account: String?) -> String {
        "callback-router login --issuer \(issuer) --client-id \(clientID)" + (scope.map { " --scope '\($0)'" } ?? "")
            + (account.map { " --account '\($0)'" } ?? "")
    }
}

#endif
