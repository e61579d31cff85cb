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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackRouter

/// A URL scheme the helper may handle: RFC 3986 syntax, lowercased, and not one that
/// belongs to the browser or is never a callback.
///
/// ✅ `myapp`, `com.example.app`, `MyApp` (becomes `myapp`: xdg-open's generic path looks
/// up `x-scheme-handler/` with the scheme as the URL spells it, and browsers lowercase it).
/// ❌ `http`, `https` (registering would capture every web link), `javascript`, `data`,
/// `file`, `vbscript`, `about`, `blob`; `my_app` (not scheme syntax); `x-scheme-handler/myapp`.
///
/// Validate once, then hand the value to ``DesktopSchemeHandler`` or ``HandoffReceiver``:
///
/// ```swift
/// let scheme = try CallbackScheme(validating: "com.example.app")
/// let handler = try DesktopSchemeHandler(scheme: scheme, environment: env)
/// ```
public struct CallbackScheme: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lowercased.
    public let name: String

    static let maxLength = 128

    /// Schemes a callback never uses, or that belong to other handlers.
    static let refused: Set<String> = [
        "http", "https", "file", "javascript", "data", "vbscript", "about", "blob",
        "ftp", "ws", "wss", "mailto",
    ]

    /// Validates `text` as a scheme a callback can be registered for.
    ///
    /// - Throws: `CallbackError` `invalid_scheme` (empty, longer than 128 bytes, or not RFC 3986
    ///   §3.1 syntax, with the offending byte's offset) or `scheme_not_allowed` (`http`,
    ///   `https`, `file`, `javascript`, `data`, `vbscript`, `about`, `blob`, `ftp`, `ws`, `wss`,
    ///   `mailto`).
    public init(validating text: String) throws(CallbackError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw CallbackError(.invalidScheme, "the scheme is empty") }
        guard bytes.count <= Self.maxLength else {
            throw CallbackError(.invalidScheme, "the scheme is longer than \(Self.maxLength) bytes")
        }
        for (offset, byte) in bytes.enumerated() {
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (offset > 0 && isOther) else {
                throw CallbackError(
                    .invalidScheme, at: offset,
                    "a scheme is a letter followed by letters, digits, '+', '-' or '.' (RFC 3986 §3.1)")
            }
        }
        let lowered = text.lowercased()
        guard !Self.refused.contains(lowered) else {
            throw CallbackError(.schemeNotAllowed, "'\(lowered)' is not a scheme a callback can be registered for")
        }
        name = lowered
    }

    /// The MIME type desktops associate with the scheme.
    public var mimeType: String { "x-scheme-handler/" + name }

    /// The desktop file ID `register` uses unless told otherwise (`+` is not allowed in IDs).
    public var defaultDesktopID: String {
        "callback-router-" + String(name.map { $0 == "+" ? "_" : $0 })
    }

    /// A short file name for the scheme: itself when short, else a prefix and a hash, so
    /// that socket paths stay under the 107 bytes `sun_path` allows. Not a security
    /// boundary: listeners compare the full scheme.
    var directoryKey: String {
        guard name.utf8.count > 32 else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a 64
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(name.prefix(15)) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The scheme, lowercased (a scheme is no secret).
    public var description: String { name }
}

#endif
