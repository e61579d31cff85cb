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

