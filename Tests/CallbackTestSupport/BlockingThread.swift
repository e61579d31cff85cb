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

/// Moves a value that is used by one thread at a time into another thread.
public struct Handover<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

/// A real thread for code that blocks (poll, accept): the cooperative pool has as few
/// threads as cores, and a test that blocks them all waits for its own timeouts.
public final class BlockingThread<Result>: @unchecked Sendable {
    #if canImport(Darwin)
    private var thread: pthread_t? = nil // a non-optional pointer on Darwin, set by pthread_create
    #else
    private var thread = pthread_t()
    #endif
    private let box = ResultBox<Result>()

    public init(_ body: @escaping () -> Result) {
        let box = self.box
        let runner = ThreadBody { box.value = body() }
        let created = pthread_create(&thread, nil, threadEntry, Unmanaged.passRetained(runner).toOpaque())
        precondition(created == 0, "pthread_create failed")
    }

    public func join() -> Result {
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        return box.value!
    }
}

private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}

private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

#if canImport(Darwin)
private func threadEntry(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
    return nil
}
#else
private func threadEntry(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().run()
    return nil
}
#endif
