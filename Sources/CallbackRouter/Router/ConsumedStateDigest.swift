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

/// The key a ``ConsumedStateStore`` keeps for a consumed state: HMAC-SHA-256 of the state's
/// UTF-8 bytes, after a fixed label, under the store's ``ConsumedStateStore/digestKey``. The
/// same state gives the same digest on every instance that shares the key; the digest tells
/// nothing of the state without the key.
public struct ConsumedStateDigest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// What the digest is of: a label that keeps it apart from any other use of the key.
    static let label = Array("callback-router consumed state 1\n".utf8)

    /// The digest of `state` (its UTF-8 bytes) under `key`.
    public init(state: String, key: [UInt8]) {
        bytes = HMACSHA256.authenticationCode(for: Self.label + Array(state.utf8), key: key)
    }

    init(utf8 state: UnsafeBufferPointer<UInt8>, key: [UInt8]) {
        bytes = HMACSHA256.authenticationCode(for: Self.label + Array(state), key: key)
    }

    /// The digest in lowercase hexadecimal, 64 characters: a database column's value.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The hexadecimal digest: no secret (the state cannot be read back from it).
    public var description: String { hex }
}
