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

// posix_spawn is unavailable on tvOS and watchOS: no keyring backend there (docs/platforms.md).
#if !os(tvOS) && !os(watchOS)

import CallbackSystem

/// The keyring backend: one Secret Service item per entry, through `secret-tool`
/// (libsecret-tools), run without a shell. The item's attributes are the key (service
/// `callback-router`, issuer, client id, scope, account: none a secret) and its secret is
/// the entry as a one-entry ``TokenStoreDocument``, written to `secret-tool store`'s stdin:
/// no token is ever in an argv or the environment.
struct SecretToolKeyring {
    let secretTool: String
    let environment: [String: String]

    /// The `service` attribute of every item this helper writes.
    static let service = "callback-router"

    /// Whether a Secret Service answers on the session bus: a lookup of an item that does
    /// not exist ends 1 without a word when one does, with an error on stderr when none does.
    static func answers(_ secretTool: String, environment: [String: String]) -> Bool {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        guard let result = try? run(secretTool, ["lookup", "service", service, "probe", "none"], environment: environment, input: []) else {
            return false
        }
        return result.stop == nil && (result.status == 0 || result.status == 1) && result.standardError.isEmpty
    }

    func attributes(_ key: TokenStoreKey) -> [String] {
        [
            "service", SecretToolKeyring.service, "issuer", key.issuer, "client_id", key.clientID, "scope", key.scope ?? "",
            "account", key.account ?? "",
        ]
    }

    /// The stored entry of `key`, or nil. A search, not a lookup: a lookup of a locked item
    /// ends 1 without a word, as one of a missing item does; a search says it is locked.
    func load(_ key: TokenStoreKey) throws(TokenStoreError) -> StoredTokens? {
        try search(attributes(key), doing: "read the entry for \(key)").first { $0.key == key }
    }

    func save(_ entry: StoredTokens) throws(TokenStoreError) {
        let label = "callback-router: \(entry.key)"
        var document = TokenStoreDocument.encode([entry])
        while document.last == 0x0A { document.removeLast() }
        let result = try call(
            ["store", "--label", label] + attributes(entry.key), input: document, doing: "store the entry for \(entry.key)")
        try check(result, doing: "store the entry for \(entry.key)")
    }

    /// Removes the item of `key`; false when there was none.
    func remove(_ key: TokenStoreKey) throws(TokenStoreError) -> Bool {
        guard try load(key) != nil else { return false }
        let result = try call(["clear"] + attributes(key), doing: "remove the entry for \(key)")
        try check(result, doing: "remove the entry for \(key)")
        return true
    }

    /// Every entry this helper stored.
    func list() throws(TokenStoreError) -> [StoredTokens] {
        try search(["service", SecretToolKeyring.service], doing: "list the stored entries")
    }

    /// The entries of the items with `attributes` (`secret-tool search --all`: its stdout
    /// has a `secret = ` line per item; the attributes go to its stderr).
    private func search(_ attributes: [String], doing what: String) throws(TokenStoreError) -> [StoredTokens] {
        let result = try call(["search", "--all"] + attributes, doing: what)
        if result.status == 1 && result.standardOutput.isEmpty && SecretToolKeyring.complaints(result).isEmpty { return [] }
        try check(result, doing: what)
        var entries: [StoredTokens] = []
        let prefix = Array("secret = ".utf8)
        for line in result.standardOutput.split(separator: 0x0A) where line.starts(with: prefix) {
            entries += try TokenStoreDocument.decode(Array(line.dropFirst(prefix.count)), where: "a keyring item of callback-router")
        }
        return entries
    }

    /// secret-tool's own messages on stderr (`secret-tool: …`), not the attributes it lists there.
    static func complaints(_ result: Subprocess.Exchange) -> [String] {
        result.standardError.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix("secret-tool:") }
    }

    private func call(_ arguments: [String], input: [UInt8] = [], doing what: String) throws(TokenStoreError) -> Subprocess.Exchange {
        do {
            return try SecretToolKeyring.run(secretTool, arguments, environment: environment, input: input)
        } catch {
            throw TokenStoreError(TokenStoreError.keyringFailed, "\(secretTool) could not be started to \(what) (\(error.reason))")
        }
    }

    private static func run(
        _ secretTool: String, _ arguments: [String], environment: [String: String], input: [UInt8]
    ) throws(SystemError) -> Subprocess.Exchange {
        try Subprocess.exchange(
            secretTool, arguments, environment: environment, input: input, outputLimit: 4 << 20, errorLimit: 4096,
            until: .after(milliseconds: 25_000))
    }

    /// A failed `secret-tool` as an error: `keyring_locked` when it says the keyring is
    /// locked (or a prompt to unlock it could not be shown), else `keyring_failed`, with its
    /// first line (which names no secret: none is in its argv).
    private func check(_ result: Subprocess.Exchange, doing what: String) throws(TokenStoreError) {
        if result.stop == .timedOut {
            throw TokenStoreError(
                TokenStoreError.keyringLocked,
                "the keyring did not answer within 25 seconds to \(what) (waiting for it to be unlocked?): unlock it and try again,"
                    + " or set CALLBACK_ROUTER_TOKEN_STORE=file")
        }
        let complaints = SecretToolKeyring.complaints(result)
        let locked = complaints.contains { $0.contains("locked") }
        guard result.status != 0 || result.stop != nil || locked else { return }
        let line = complaints.first ?? String(decoding: result.standardError.prefix { $0 != 0x0A }, as: UTF8.self)
        let shown = line.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } ? line : "(not shown)"
        let lowered = locked ? "locked" : String(decoding: line.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        if lowered.contains("lock") || lowered.contains("prompt") {
            throw TokenStoreError(
                TokenStoreError.keyringLocked,
                "the keyring is locked, so callback-router could not \(what) (secret-tool: \(shown)): unlock it (log in to the desktop,"
                    + " or seahorse) and try again, or set CALLBACK_ROUTER_TOKEN_STORE=file; nothing was changed")
        }
        throw TokenStoreError(
            TokenStoreError.keyringFailed,
            "secret-tool could not \(what) (exit \(result.status): \(shown)); nothing was changed:"
                + " check the keyring, or set CALLBACK_ROUTER_TOKEN_STORE=file")
    }
}

#endif
