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

import CallbackSystem
import CallbackTestSupport
@testable import CallbackTokenStore
import CallbackTokens
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file store keeps entries per key, privately, and refuses what it cannot trust or
/// read, leaving it as it is.
@Suite struct TokenStoreFileTests {
    static func entry(_ scope: String? = nil, account: String? = nil, access: String = "AT-secret-1", expiresAt: Int64? = 2_000_000_000)
        -> StoredTokens
    {
        StoredTokens(
            key: TokenStoreKey(issuer: "https://op.example", clientID: "app", scope: scope, account: account), accessToken: access,
            tokenType: "Bearer", expiresAt: expiresAt, refreshToken: "RT-secret-1", idToken: nil, grantedScope: nil, storedAt: 1)
    }

    static func store(_ directory: TemporaryDirectory) -> TokenStore {
        let dir = directory.path + "/state/callback-router"
        return TokenStore(directory: dir, backend: .file(path: dir + "/tokens.json"), environment: [:])
    }

    static func save(_ store: TokenStore, _ entry: StoredTokens) throws {
        let saved = try store.locked { Result { () throws(TokenStoreError) in try store.save(entry) } }
        try saved.get()
    }

    @Test func entriesRoundTripOnePerKeyInA0600FileOfA0700Directory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = Self.store(directory)
        try Self.save(store, Self.entry())
        try Self.save(store, Self.entry("openid", account: "work"))
        try Self.save(store, Self.entry(access: "AT-secret-2"))
        let all = try store.entries()
        #expect(all.count == 2)
        #expect(
            try store.entries(issuer: "https://op.example", clientID: "app", scope: nil, account: nil).map(\.accessToken) == ["AT-secret-2"]
        )
        #expect(try store.entries(issuer: "https://op.example", clientID: "app", scope: "openid", account: "work").count == 1)
        #expect(try FileSystem.status(store.directory)?.permissions == 0o700)
        #expect(try FileSystem.status(store.directory + "/tokens.json")?.permissions == 0o600)
        #expect(try store.remove(Self.entry().key) && !(try store.remove(Self.entry().key)))
    }

    /// Each bad file: the reason, and the file unchanged.
    static let badFiles: [(String, String)] = [
        ("not json at all", "store_corrupt"),
        (#"{"entries":[]}"#, "store_corrupt"),
        (#"{"version":1,"entries":[{"issuer":"x"}]}"#, "store_corrupt"),
        (#"{"version":2,"entries":[]}"#, "store_newer_version"),
    ]

    @Test(arguments: 0 ..< 4) func aFileItCannotReadIsRefusedAndLeftAsItIs(_ index: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = Self.store(directory)
        try store.locked {}
        let path = store.directory + "/tokens.json"
        let (text, reason) = Self.badFiles[index]
        try FileSystem.writeAtomically(path, Array(text.utf8), mode: 0o600)
        #expect(throws: TokenStoreError.self) { try store.entries() }
        do { _ = try store.entries() } catch { #expect(error.reason.rawValue == reason, "\(error)") }
        do { try store.save(Self.entry()) } catch { #expect(error.reason.rawValue == reason) }
        #expect(try FileSystem.readFile(path) == Array(text.utf8), "nothing lost: the file is unchanged")
    }

    @Test func aFileOthersMayReadIsRefusedWithTheChmodToRun() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = Self.store(directory)
        try Self.save(store, Self.entry())
        chmod(store.directory + "/tokens.json", 0o644)
        do {
            _ = try store.entries()
            Issue.record("a 0644 store was read")
        } catch {
            #expect(error.reason == TokenStoreError.notPrivate && error.detail.contains("chmod 600"))
        }
    }

    @Test func aStoreOfANewerVersionIsNeverRewritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = Self.store(directory)
        try store.locked {}
        let newer = #"{"version":9,"entries":[],"future":true}"#
        try FileSystem.writeAtomically(store.directory + "/tokens.json", Array(newer.utf8), mode: 0o600)
        #expect(throws: TokenStoreError.self) { try store.remove(Self.entry().key) }
        #expect(try FileSystem.readFile(store.directory + "/tokens.json") == Array(newer.utf8))
    }

    @Test func theLockKeepsASecondHolderOutUntilReleased() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/tokens.lock"
        let first = try FileLock.acquire(path, mode: 0o600, until: .after(milliseconds: 1000))
        do {
            _ = try FileLock.acquire(path, mode: 0o600, until: .after(milliseconds: 100))
            Issue.record("a second holder got the lock")
        } catch {
            #expect(error.code == FileLock.heldElsewhere)
        }
        first.release()
        let second = try FileLock.acquire(path, mode: 0o600, until: .after(milliseconds: 1000))
        second.release()
    }

    @Test func descriptionsNeverShowAToken() {
        let entry = Self.entry()
        var dumped = ""
        dump(entry, to: &dumped)
        for text in [entry.description, entry.debugDescription, dumped, String(reflecting: entry)] {
            #expect(!text.contains("AT-secret-1") && !text.contains("RT-secret-1"), "\(text)")
        }
    }

    @Test func anEntryIsValidOnlyWhileMoreThanTheMarginIsLeft() {
        let entry = Self.entry()
        #expect(entry.isValid(at: 2_000_000_000 - 61, margin: 60) && !entry.isValid(at: 2_000_000_000 - 60, margin: 60))
    }
}
