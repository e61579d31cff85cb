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
    /// Which socket or sockets the receiver binds for this host.
    enum Binding: Hashable, Sendable {
        /// `127.0.0.1` alone.
        case ipv4
        /// `::1` alone.
        case ipv6
        /// `127.0.0.1` and `::1` on one port (127.0.0.1 alone without IPv6).
        case both
    }

    let binding: Binding

    /// `127.0.0.1`, the default (RFC 8252 §7.3 prefers the IP literal).
    public static let ipv4 = LoopbackHost(binding: .ipv4)
    /// `::1`; the redirect URI says `http://[::1]:PORT/…`.
    public static let ipv6 = LoopbackHost(binding: .ipv6)
    /// Both `127.0.0.1` and `::1` on one port, and the redirect URI says
    /// `http://localhost:PORT/…`, for providers that register only that name. Only
    /// `Host: localhost:PORT` is answered (a DNS-rebinding page names another host). On a
    /// system without IPv6, 127.0.0.1 alone.
    public static let localhost = LoopbackHost(binding: .both)

    /// The host as the redirect URI writes it (`127.0.0.1`, `[::1]`, `localhost`).
    public var description: String { uriHost }

    /// The host as a URL and a `Host` header write it.
    var uriHost: String {
        switch binding {
        case .ipv4: return "127.0.0.1"
        case .ipv6: return "[::1]"
        case .both: return "localhost"
        }
    }
}
