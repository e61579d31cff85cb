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

/// Bytes from the operating system's CSPRNG, for states, nonces and PKCE verifiers.
///
/// The standard library's `SystemRandomNumberGenerator`, which is the system's CSPRNG on every
/// platform Swift runs on: `arc4random_buf(3)` on Apple platforms, `getrandom(2)` on Linux
/// (blocking only until the kernel pool is first seeded). It has no fallback to a weaker
/// generator: when the system refuses, the process stops, which is the right end for a login
/// secret (one drawn from anything else would be guessable, and an error thrown here would
/// only be caught and ignored by code that cannot do anything better). Using it rather than
/// calling the system directly leaves this module no platform-specific code for randomness
/// (what is never compiled here is kept as small as possible).
public enum SecureRandom {
    /// `count` random bytes (an empty array for 0 or less).
    public static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }

    /// Fills `buffer` with random bytes, eight at a time.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var offset = 0
        while offset < buffer.count {
            var word = generator.next()
            let chunk = min(8, buffer.count &- offset)
            withUnsafeBytes(of: &word) { bytes in
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: bytes.baseAddress!, byteCount: chunk)
            }
            offset &+= chunk
        }
    }
}
