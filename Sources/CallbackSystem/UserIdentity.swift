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

/// A user id (`uid_t`), as the modules above the system layer name it.
package typealias UserID = uid_t

/// Permission bits of a file (`mode_t`), as the modules above the system layer name them.
package typealias FileMode = mode_t

/// Who this process runs as.
package enum UserIdentity {
    /// The real user id (`getuid`): whose runtime directory and spool the process uses.
    package static var real: UserID { getuid() }

    /// The effective user id (`geteuid`): whose files and connections the process accepts.
    package static var effective: UserID { geteuid() }
}
