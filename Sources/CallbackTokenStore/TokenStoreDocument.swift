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
import CallbackTokens

/// The stored form of entries: one JSON object with the format version,
/// `{"version":1,"entries":[{"issuer":…,"client_id":…,"scope":…|null,"account":…|null,
/// "access_token":…,"token_type":…,"expires_at":N|null,"refresh_token":…|null,
/// "id_token":…|null,"granted_scope":…|null,"stored_at":N},…]}`. The file store keeps all
/// entries in one; each keyring item holds one with a single entry. Read with the package's
/// strict JSON reader and its limits; a higher version is refused, never rewritten.
enum TokenStoreDocument {
    /// The version this helper writes, and the highest it reads.
    static let version = 1
    /// The largest store read (a file, or one keyring item).
    static let limits = JSONLimits(maxBytes: 1 << 20, maxDepth: 4, maxStringBytes: 64 * 1024, maxMembers: 1024)

    static func encode(_ entries: [StoredTokens]) -> [UInt8] {
        let value = JSONValue.object([
            ("version", .int(version)),
            ("entries", .array(entries.map(encode))),
        ])
        return Array((value.serialized + "\n").utf8)
    }

    static func encode(_ entry: StoredTokens) -> JSONValue {
        .object([
            ("issuer", .string(entry.key.issuer)), ("client_id", .string(entry.key.clientID)),
            ("scope", .string(entry.key.scope)), ("account", .string(entry.key.account)),
            ("access_token", .string(entry.accessToken)), ("token_type", .string(entry.tokenType)),
            ("expires_at", .int(entry.expiresAt.map { Int(clamping: $0) })), ("refresh_token", .string(entry.refreshToken)),
            ("id_token", .string(entry.idToken)), ("granted_scope", .string(entry.grantedScope)),
            ("stored_at", .int(Int(clamping: entry.storedAt))),
        ])
    }

    /// The entries of a stored document; `where` names it in errors (a path, or "the keyring
    /// entry for …"). Throws `store_corrupt` or `store_newer_version`, saying what to do.
    static func decode(_ bytes: [UInt8], where place: String) throws(TokenStoreError) -> [StoredTokens] {
        let corrupt = { (what: String) in
            TokenStoreError(
                TokenStoreError.corrupt,
                "\(place) is not a token store this callback-router can read (\(what)); it was left as it is: move it away and log in again"
            )
        }
        let root: JSONObject
        do {
            guard let object = try JSONReader.parse(bytes, limits: limits).object else { throw corrupt("not a JSON object") }
            root = object
        } catch let error as TokenStoreError {
            throw error
        } catch {
            throw corrupt("not JSON")
        }
        guard let version = root["version"]?.number?.int64, version >= 1 else { throw corrupt("no format version") }
        guard version <= Int64(TokenStoreDocument.version) else {
            throw TokenStoreError(
                TokenStoreError.newerVersion,
                "\(place) was written by a newer callback-router (format \(version); this one reads \(TokenStoreDocument.version)):"
                    + " upgrade callback-router to use it; it was left as it is")
        }
        guard let entries = root["entries"]?.array else { throw corrupt("no entries") }
        var decoded: [StoredTokens] = []
        for (index, entry) in entries.enumerated() {
            guard let object = entry.object, let read = decodeEntry(object) else { throw corrupt("entry \(index + 1) is malformed") }
            decoded.append(read)
        }
        return decoded
    }

    /// One entry, or nil when a member is missing or of the wrong type.
    static func decodeEntry(_ object: JSONObject) -> StoredTokens? {
        func text(_ name: String) -> String?? {
            guard let value = object[name] else { return .some(nil) }
            if case .null = value.storage { return .some(nil) }
            guard let string = value.string else { return nil }
            return .some(string)
        }
        func number(_ name: String) -> Int64?? {
            guard let value = object[name] else { return .some(nil) }
            if case .null = value.storage { return .some(nil) }
            guard let number = value.number?.int64 else { return nil }
            return .some(number)
        }
        guard let issuer = text("issuer"), let issuer, let clientID = text("client_id"), let clientID,
            let accessToken = text("access_token"), let accessToken, let tokenType = text("token_type"), let tokenType,
            let scope = text("scope"), let account = text("account"), let refreshToken = text("refresh_token"),
            let idToken = text("id_token"), let grantedScope = text("granted_scope"), let expiresAt = number("expires_at"),
            let storedAt = number("stored_at")
        else { return nil }
        return StoredTokens(
            key: TokenStoreKey(issuer: issuer, clientID: clientID, scope: scope, account: account), accessToken: accessToken,
            tokenType: tokenType, expiresAt: expiresAt, refreshToken: refreshToken, idToken: idToken, grantedScope: grantedScope,
            storedAt: storedAt ?? 0)
    }
}
