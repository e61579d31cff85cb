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

/// The fuzzer's way into the token store's reader (Fuzz/Sources/fuzz-store): what a store
/// file or a keyring item holds is read by the same code an attacker who can write the file
/// would reach, so it is fuzzed like the other readers. Not API: `@_spi(Fuzzing)`.
@_spi(Fuzzing) public enum TokenStoreFuzzing {
    /// Reads `bytes` as a stored document and traps on a broken guarantee:
    /// - a refusal is `store_corrupt` or `store_newer_version`, never a trap;
    /// - what is read is written back and read again to the same document (printer/parser);
    /// - no description, debug description or dump of an entry shows its tokens.
    public static func check(_ bytes: [UInt8]) {
        let place = "the fuzzed store"
        let entries: [StoredTokens]
        do {
            entries = try TokenStoreDocument.decode(bytes, where: place)
        } catch {
            precondition(
                error.reason == TokenStoreError.corrupt || error.reason == TokenStoreError.newerVersion,
                "unexpected reason \(error.reason)")
            return
        }
        let written = TokenStoreDocument.encode(entries)
        do {
            let again = try TokenStoreDocument.decode(written, where: place)
            precondition(TokenStoreDocument.encode(again) == written, "a written store reads back to another document")
        } catch {
            preconditionFailure("a written store does not read back: \(error.reason)")
        }
        for entry in entries {
            // A token may equal a word the description shows anyway (a scope, the issuer): it
            // leaks only when the entry with its tokens blinded (every byte `x`) does not show it.
            func blind(_ token: String?) -> String? { token.map { String(repeating: "x", count: $0.utf8.count) } }
            let blinded = StoredTokens(
                key: entry.key, accessToken: blind(entry.accessToken) ?? "", tokenType: entry.tokenType, expiresAt: entry.expiresAt,
                refreshToken: blind(entry.refreshToken), idToken: blind(entry.idToken), grantedScope: entry.grantedScope,
                storedAt: entry.storedAt)
            var dumped = ""
            dump(entry, to: &dumped)
            var dumpedBlinded = ""
            dump(blinded, to: &dumpedBlinded)
            let shown = [
                (entry.description, blinded.description), (entry.debugDescription, blinded.debugDescription), (dumped, dumpedBlinded),
            ]
            for token in [entry.accessToken, entry.refreshToken, entry.idToken].compactMap({ $0 }) where token.utf8.count >= 8 {
                for (text, blindedText) in shown where text.contains(token) {
                    precondition(blindedText.contains(token), "a token shows in a stored entry's description")
                }
            }
        }
    }
}
