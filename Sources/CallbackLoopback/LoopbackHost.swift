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

/// The loopback address a ``LoopbackReceiver`` binds: never a wildcard address.
public struct LoopbackHost: Hashable, Sendable, CustomStringConvertible {
    let address: LoopbackAddress

    /// `127.0.0.1`, the default (RFC 8252 §7.3 prefers the IP literal).
    public static let ipv4 = LoopbackHost(address: .ipv4)
    /// `::1`; the redirect URI says `http://[::1]:PORT/…`.
    public static let ipv6 = LoopbackHost(address: .ipv6)
    /// Both `127.0.0.1` and `::1` on one port, and the redirect URI says
    /// `http://localhost:PORT/…`, for providers that register only that name. Only
    /// `Host: localhost:PORT` is answered (a DNS-rebinding page names another host). On a
    /// system without IPv6, 127.0.0.1 alone.
    public static let localhost = LoopbackHost(address: .localhost)

    /// The host as the redirect URI writes it (`127.0.0.1`, `[::1]`).
    public var description: String { address.uriHost }
}
