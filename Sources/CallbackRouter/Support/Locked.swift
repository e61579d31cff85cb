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

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a mutual-exclusion lock: the package's one lock type.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 / iOS 18 and the libraries
/// promise macOS 13 / iOS 16. This is the lock those versions have: `os_unfair_lock` on
/// Darwin (macOS 10.12, iOS 10), `pthread_mutex_t` elsewhere. Both must not move once
/// used, so the lock lives in memory of its own, allocated once, never in the class's
/// stored properties (which Swift may not keep at a fixed address for C).
///
/// Critical sections must be short and must not suspend or call back into code that may
/// take the same lock (neither lock is recursive).
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    #if canImport(Darwin)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    private var value: Value

    package init(_ value: consuming Value) {
        self.value = value
        #if canImport(Darwin)
        lock = .allocate(capacity: 1)
        lock.initialize(to: os_unfair_lock())
        #else
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        // A default (non-recursive, non-error-checking) mutex: no attributes needed, and
        // pthread_mutex_init cannot fail for it.
        pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with the value, holding the lock; returns what `body` returns.
    @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&value)
    }
}
