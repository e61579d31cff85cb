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

/// An exclusive advisory lock (`flock`) on a lock file, held until ``release()`` or until
/// the process ends (the kernel drops it then: a crashed holder never leaves it stuck).
package final class FileLock {
    private let descriptor: Descriptor

    /// The error code of ``acquire(_:mode:until:)`` when another process held the lock to the end.
    package static let heldElsewhere = EWOULDBLOCK

    private init(_ descriptor: Descriptor) { self.descriptor = descriptor }

    /// Opens (creating with `mode`, never through a symbolic link) `path` and takes its
    /// exclusive lock, trying again every 20 ms until `deadline`. Throws `flock` with
    /// `EWOULDBLOCK` when another process still held it at the deadline.
    package static func acquire(_ path: String, mode: mode_t, until deadline: Deadline) throws(SystemError) -> FileLock {
        let descriptor = try FileSystem.openOrCreate(path, mode: mode)
        while true {
            if retryingOnInterrupt({ flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }) == 0 { return FileLock(descriptor) }
            let code = errno
            guard code == EWOULDBLOCK, !deadline.hasPassed else {
                descriptor.close()
                throw SystemError("flock", path: path, code: code)
            }
            // Nothing signals the holder's end to another process: polled.
            Pause.milliseconds(20)
        }
    }

    /// Gives the lock up and closes the lock file.
    package func release() {
        _ = flock(descriptor.rawValue, LOCK_UN)
        descriptor.close()
    }
}
