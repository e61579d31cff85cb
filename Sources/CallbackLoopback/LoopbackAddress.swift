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

/// Which loopback address the receiver binds: never a wildcard address.
enum LoopbackAddress: Sendable {
    /// `127.0.0.1`, the default (RFC 8252 §7.3 prefers the IPv4 literal).
    case ipv4
    /// `::1`, for `--ipv6`.
    case ipv6
    /// Both `127.0.0.1` and `::1` on one port, named `localhost` (`--host localhost`), for
    /// providers that register only that name.
    case localhost

    /// The host as a URL and a `Host` header write it.
    var uriHost: String {
        switch self {
        case .ipv4: return "127.0.0.1"
        case .ipv6: return "[::1]"
        case .localhost: return "localhost"
        }
    }
}

/// The receiver's listening sockets, set up by the system layer (``CallbackSystem/LoopbackTCP``).
/// Kept for the CLI's tests, which probe for IPv6 with it.
enum LoopbackSocket {
    /// Binds one literal address (never `localhost`, which is two sockets) and listens.
    static func listen(on address: LoopbackAddress, port: Int) throws(SystemError) -> (fd: Int32, port: Int) {
        precondition(address != .localhost, "listen binds one literal; the server binds both for localhost")
        let (descriptor, bound) = try LoopbackTCP.listen(ipv6: address == .ipv6, port: port)
        return (descriptor.release(), bound)
    }
}
