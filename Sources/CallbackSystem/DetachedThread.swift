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

/// Runs a receiver's blocking loop (`poll`, `accept`) on a thread of its own: a wait can last minutes,
/// and parking a thread of Swift's cooperative pool (one per core) for that long would
/// starve every other task of the app.
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a detached thread that runs `body`; false when the system refused one.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        let created = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, context)
        guard created == 0, let thread else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        #else
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                if let raw { Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run() }
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        #endif
        return true
    }
}
