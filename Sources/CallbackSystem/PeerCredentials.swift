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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is at the other end of a Unix-domain socket, as the kernel recorded it at connect
/// (or listen) time: it cannot be forged by the peer.
package struct PeerCredentials: Equatable {
    package let pid: pid_t
    package let uid: uid_t
    package let gid: gid_t

    package init(pid: pid_t, uid: uid_t, gid: gid_t) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
