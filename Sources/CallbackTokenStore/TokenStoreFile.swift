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

/// The file backend: all entries in one document (``TokenStoreDocument``), mode 0600, in
/// the store's 0700 directory, replaced atomically (a new file, fsync, rename). A file
/// that is not a regular file, is another user's, or that others may read is refused
/// before anything is read or written.
struct TokenStoreFile {
    let path: String

    /// The entries; empty when the file does not exist yet.
    func read() throws(TokenStoreError) -> [StoredTokens] {
        let status: FileStatus?
        do {
            status = try FileSystem.status(path)
        } catch {
            throw TokenStoreError(TokenStoreError.ioFailed, "\(path) could not be examined (\(error.reason))")
        }
        guard let status else { return [] }
        try TokenStoreFile.checkPrivate(status, path: path, kind: "file", mode: 0o600)
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(path, limit: TokenStoreDocument.limits.maxBytes)
        } catch {
            throw TokenStoreError(TokenStoreError.ioFailed, "\(path) could not be read (\(error.reason))")
        }
        guard let bytes else { return [] }
        return try TokenStoreDocument.decode(bytes, where: path)
    }

    /// Replaces the file with `entries` (or removes it when there are none).
    func write(_ entries: [StoredTokens]) throws(TokenStoreError) {
        do {
            if entries.isEmpty {
                try FileSystem.remove(path)
            } else {
                try FileSystem.writeAtomically(path, TokenStoreDocument.encode(entries), mode: 0o600, privately: true)
            }
        } catch {
            throw TokenStoreError(
                TokenStoreError.ioFailed, "\(path) could not be written (\(error.reason)); the previous file, if any, is unchanged")
        }
    }

    /// Refuses a store file or directory that is not the user's own and private: another
    /// user's (`store_not_private`: its owner must fix it, nothing is read), a symbolic
    /// link or another kind of file, or one whose mode gives others any access.
    static func checkPrivate(_ status: FileStatus, path: String, kind: String, mode: FileMode) throws(TokenStoreError) {
        let expected: FileStatus.Kind = kind == "directory" ? .directory : .regular
        guard status.kind == expected else {
            throw TokenStoreError(
                TokenStoreError.notPrivate,
                "\(path) is not a \(kind) (a symbolic link or another kind of file): remove it, then log in again")
        }
        guard status.owner == UserIdentity.effective else {
            throw TokenStoreError(
                TokenStoreError.notPrivate,
                "\(path) belongs to user \(status.owner), not to you (\(UserIdentity.effective)): it was neither read nor changed;"
                    + " remove it or set XDG_STATE_HOME to a directory of your own")
        }
        guard status.permissions & 0o077 == 0 else {
            let shown = String(status.permissions & 0o777, radix: 8)
            throw TokenStoreError(
                TokenStoreError.notPrivate,
                "\(path) has mode \(shown): other users may read or change it; run chmod \(String(mode, radix: 8)) \(path)"
                    + " (and log out and in again if others could read the tokens)")
        }
    }
}
