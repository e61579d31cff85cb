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

/// A realistic Prelude challenge token for tests: a compact JWS (RFC 7515 §7.1), as both
/// Prelude SDKs require before finalizing. The header is `{"alg":"ES256"}`, the payload
/// `{"jti":"<id>"}`, the last segment 32 bytes made from `id` (the shape of a signature; no
/// test checks one). Different ids give different tokens; `id` is plain ASCII.
public func preludeToken(_ id: String) -> String {
    let seed = id.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
    let signature = (0 ..< 32).map { UInt8(truncatingIfNeeded: (seed >> UInt32(($0 % 4) * 8)) &+ UInt32($0) &* 37) }
    return "eyJhbGciOiJFUzI1NiJ9." + base64URL(Array(#"{"jti":""#.utf8) + Array(id.utf8) + Array(#""}"#.utf8)) + "."
        + base64URL(signature)
}

/// Base64url without padding (RFC 4648 §5).
public func base64URL(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index ..< min(index + 3, bytes.count)]
        var value = UInt32(0)
        for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - 8 * offset) }
        for position in 0 ... chunk.count { out.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 63)]) }
        index += 3
    }
    return String(decoding: out, as: UTF8.self)
}
