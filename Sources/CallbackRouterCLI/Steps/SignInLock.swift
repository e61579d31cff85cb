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

/// One `token --login` sign-in per stored entry at a time: kubectl may run its exec plugin
/// several times at once, and each finding nothing stored must not open a browser of its
/// own. The lock is a file of its own beside the store's (never the store's lock, which
/// other calls need for the minutes a sign-in may take), held through the sign-in and
/// dropped by the kernel when its holder ends, however it ends.
enum SignInLock {
    /// The lock file of `key`'s sign-ins in the store's `directory`, named by a digest of
    /// the key (an issuer or an account name never becomes a file name).
    static func path(for key: TokenStoreKey, in directory: String) -> String {
        let named = [key.issuer, key.clientID, key.scope ?? "", key.account ?? ""].joined(separator: "\n")
        return joinPath(directory, "sign-in-" + Base64URL.encode(SHA256.hash(Array(named.utf8)).prefix(16)) + ".lock")
    }

    /// Takes `key`'s lock. When another process holds it, says so on stderr (with how long
    /// this one waits) and waits at most `seconds` for it; still held then: the refusal
    /// `store_busy` (75, try again) is printed and the command ends.
    static func acquire(
        for key: TokenStoreKey, in directory: String, waiting seconds: Double, command: String, context: CommandContext
    ) -> Result<FileLock, TokenStoring.Ended> {
        let path = path(for: key, in: directory)
        do throws(SystemError) {
            do throws(SystemError) {
                return .success(try FileLock.acquire(path, mode: 0o600, until: .after(milliseconds: 0)))
            } catch  where error.code == FileLock.heldElsewhere {
                context.printError(
                    "\(command): another sign-in for \(key) is under way (another 'token --login'): waiting for it to end,"
                        + " at most \(Durations.describe(seconds: seconds)), then serving what it stored")
            }
            return .success(try FileLock.acquire(path, mode: 0o600, until: .after(milliseconds: Int64(seconds * 1000))))
        } catch {
            let failure =
                error.code == FileLock.heldElsewhere
                ? TokenStoreError(
                    TokenStoreError.busy,
                    "another sign-in for \(key) was still under way after \(Durations.describe(seconds: seconds)): try again once it has ended"
                )
                : TokenStoreError(TokenStoreError.ioFailed, "\(path) could not be locked (\(error.reason))")
            return .failure(TokenStoring.Ended(exit: TokenStoring.fail(failure, context: context)))
        }
    }
}

#endif
