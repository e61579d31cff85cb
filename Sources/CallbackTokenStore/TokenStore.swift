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
import CallbackSystem

/// Where the helper keeps the tokens of a sign-in between runs: one entry per issuer,
/// client id, scopes and account (``TokenStoreKey``), in the desktop keyring when a Secret
/// Service answers, else in a private file (``TokenStoreBackend``).
///
/// Reads and writes run under the store's lock (``locked(_:)``): an exclusive `flock` on
/// `tokens.lock` in the store's directory, so two processes that both find an expired
/// token refresh it once. A store this helper cannot read (corrupt, another user's, too
/// open, written by a newer version) is refused with a ``TokenStoreError`` and left as it is.
public struct TokenStore: Sendable {
    /// The 0700 directory of the lock (and of the file backend's file).
    public let directory: String
    /// Where the entries live: the Secret Service, or the private file in ``directory``.
    public let backend: TokenStoreBackend
    let environment: [String: String]

    /// How long ``locked(_:)`` waits for another process to release the lock.
    public var lockTimeoutMilliseconds: Int64 = 30_000

    /// The environment variable that picks the backend: `file`, `secret-service`, or
    /// unset / `auto` (the keyring when one answers on the session bus, else the file).
    public static let backendVariable = "CALLBACK_ROUTER_TOKEN_STORE"
    /// The file backend's file name, in ``directory``.
    public static let fileName = "tokens.json"

    /// The store of the user whose environment this is: the directory
    /// `$XDG_STATE_HOME/callback-router` (or `$HOME/.local/state/callback-router`), made
    /// 0700 when missing; the backend as ``backendVariable`` says.
    public init(environment: [String: String]) throws(TokenStoreError) {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = joinPath(home, ".local", "state")
        } else {
            throw TokenStoreError(
                .invalidConfiguration, "neither XDG_STATE_HOME nor HOME is an absolute path: set one so the tokens have a place to live")
        }
        let directory = joinPath(base, "callback-router")
        let choice = environment[TokenStore.backendVariable] ?? "auto"
        let backend: TokenStoreBackend
        switch choice {
        case "file":
            backend = .file(path: joinPath(directory, TokenStore.fileName))
        case "secret-service", "auto", "":
            backend =
                try TokenStore.keyring(environment: environment, required: choice == "secret-service")
                ?? .file(path: joinPath(directory, TokenStore.fileName))
        default:
            throw TokenStoreError(
                .invalidConfiguration,
                "\(TokenStore.backendVariable) is file, secret-service or auto, not '\(CallbackError.printable(choice))'")
        }
        self.init(directory: directory, backend: backend, environment: environment)
    }

    /// A store in `directory` (created 0700 on first use) with `backend`.
    public init(directory: String, backend: TokenStoreBackend, environment: [String: String]) {
        self.directory = directory
        self.backend = backend
        self.environment = environment
    }

    /// The keyring when a Secret Service answers, nil when none does (an error when `required`).
    static func keyring(environment: [String: String], required: Bool) throws(TokenStoreError) -> TokenStoreBackend? {
        #if !os(tvOS) && !os(watchOS)
        if let tool = Subprocess.find("secret-tool", environment: environment),
            SecretToolKeyring.answers(tool, environment: environment)
        {
            return .secretService(secretTool: tool)
        }
        #endif
        guard !required else {
            throw TokenStoreError(
                TokenStoreError.keyringFailed,
                "\(TokenStore.backendVariable)=secret-service, and no Secret Service answers through secret-tool on the session bus:"
                    + " install libsecret-tools and start the keyring (or unset the variable to use the file)")
        }
        return nil
    }

    /// Where the entries are, in words: the file's path, or the keyring.
    public var location: String {
        switch backend {
        case .file(let path): path
        case .secretService: "the desktop keyring (Secret Service, through secret-tool)"
        }
    }

    /// Runs `body` holding the store's lock (made with the directory when missing);
    /// ``entries()``, ``save(_:)`` and ``remove(_:)`` are meant to run inside it.
    public func locked<T>(_ body: () -> T) throws(TokenStoreError) -> T {
        try prepareDirectory()
        let lockPath = joinPath(directory, "tokens.lock")
        let lock: FileLock
        do {
            lock = try FileLock.acquire(lockPath, mode: 0o600, until: .after(milliseconds: lockTimeoutMilliseconds))
        } catch {
            if error.code == FileLock.heldElsewhere {
                throw TokenStoreError(
                    TokenStoreError.busy,
                    "another callback-router held \(lockPath) for \(lockTimeoutMilliseconds / 1000) seconds: try again when it has finished"
                )
            }
            throw TokenStoreError(TokenStoreError.ioFailed, "\(lockPath) could not be locked (\(error.reason))")
        }
        defer { lock.release() }
        return body()
    }

    /// Creates the directory (0700, with its parents) when missing; refuses one that is not
    /// the user's own or that others may enter.
    func prepareDirectory() throws(TokenStoreError) {
        do {
            var path = ""
            for component in directory.split(separator: "/") {
                path += "/" + component
                if try FileSystem.status(path) == nil { try FileSystem.makeDirectory(path, mode: 0o700) }
            }
            guard let status = try FileSystem.status(directory) else {
                throw TokenStoreError(TokenStoreError.ioFailed, "\(directory) could not be created")
            }
            try TokenStoreFile.checkPrivate(status, path: directory, kind: "directory", mode: 0o700)
        } catch let error as TokenStoreError {
            throw error
        } catch {
            throw TokenStoreError(TokenStoreError.ioFailed, "\(directory) could not be created (\(error))")
        }
    }

    /// Every stored entry.
    public func entries() throws(TokenStoreError) -> [StoredTokens] {
        switch backend {
        case .file(let path):
            return try TokenStoreFile(path: path).read()
        case .secretService(let tool):
            #if !os(tvOS) && !os(watchOS)
            return try SecretToolKeyring(secretTool: tool, environment: environment).list()
            #else
            _ = tool
            return []
            #endif
        }
    }

    /// The entries for `issuer` and `clientID` (``TokenStoreKey/matches(issuer:clientID:scope:account:)``).
    public func entries(issuer: String, clientID: String, scope: String?, account: String?) throws(TokenStoreError) -> [StoredTokens] {
        try entries().filter { $0.key.matches(issuer: issuer, clientID: clientID, scope: scope, account: account) }
    }

    /// Stores `entry`, replacing the entry of the same key.
    public func save(_ entry: StoredTokens) throws(TokenStoreError) {
        try prepareDirectory()
        switch backend {
        case .file(let path):
            let file = TokenStoreFile(path: path)
            try file.write(try file.read().filter { $0.key != entry.key } + [entry])
        case .secretService(let tool):
            #if !os(tvOS) && !os(watchOS)
            try SecretToolKeyring(secretTool: tool, environment: environment).save(entry)
            #else
            _ = tool
            #endif
        }
    }

    /// Removes the entry of `key`; false when there was none.
    @discardableResult
    public func remove(_ key: TokenStoreKey) throws(TokenStoreError) -> Bool {
        switch backend {
        case .file(let path):
            let file = TokenStoreFile(path: path)
            let all = try file.read()
            let kept = all.filter { $0.key != key }
            guard kept.count != all.count else { return false }
            try file.write(kept)
            return true
        case .secretService(let tool):
            #if !os(tvOS) && !os(watchOS)
            return try SecretToolKeyring(secretTool: tool, environment: environment).remove(key)
            #else
            _ = tool
            return false
            #endif
        }
    }
}
