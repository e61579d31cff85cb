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
import Testing
import CallbackRouter
import CallbackSystem
@testable import CallbackDesktop
import CallbackTestSupport

/// Two stateless listeners of one scheme would both be candidates for the same callback,
/// which then reaches neither: the second is refused at its start, even when both start at
/// the same instant (the check and the bind are under one lock).
@Suite struct StatelessListenerStartTests {
    let temporary = TemporaryDirectory()
    let runtime: RuntimeDirectory

    init() throws {
        runtime = try RuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": temporary.privateSubdirectory("run")], uid: getuid())
    }

    @Test func aSecondStatelessListenerIsRefusedAtItsStart() throws {
        let scheme = try CallbackScheme(validating: "myapp")
        let first = try HandoffListener(runtime: runtime, scheme: scheme, expectedState: nil, refusingSecondStateless: true)
        defer { first.stop() }
        #expect(throws: DesktopError.self) {
            _ = try HandoffListener(runtime: runtime, scheme: scheme, expectedState: nil, refusingSecondStateless: true)
        }
        // A listener with a state is another login's: it starts.
        let stateful = try HandoffListener(runtime: runtime, scheme: scheme, expectedState: "s1", refusingSecondStateless: true)
        stateful.stop()
        // Once the first has stopped, a new one starts.
        first.stop()
        let next = try HandoffListener(runtime: runtime, scheme: scheme, expectedState: nil, refusingSecondStateless: true)
        next.stop()
    }

    /// Eight threads released together, many rounds: exactly one listener starts each time.
    /// Without the lock (check, then bind) two or more started in the first rounds.
    @Test func ofListenersStartedAtTheSameInstantExactlyOneStarts() throws {
        let scheme = try CallbackScheme(validating: "racing")
        let runtime = self.runtime
        for _ in 0 ..< 40 {
            let gate = Locked(false)
            let started = Locked<[HandoffListener]>([])
            let refused = Locked(0)
            let done = Locked(0)
            for _ in 0 ..< 8 {
                #expect(
                    DetachedThread.start {
                        while !gate.withLock({ $0 }) { sched_yield() }
                        do {
                            let listener = try HandoffListener(
                                runtime: runtime, scheme: scheme, expectedState: nil, refusingSecondStateless: true)
                            started.withLock { $0.append(listener) }
                        } catch {
                            refused.withLock { $0 += 1 }
                        }
                        done.withLock { $0 += 1 }
                    })
            }
            gate.withLock { $0 = true }
            let deadline = ContinuousClock.now.advanced(by: .seconds(30))
            while done.withLock({ $0 }) < 8 && ContinuousClock.now < deadline { usleep(1000) }
            let listeners = started.withLock { $0 }
            #expect(listeners.count == 1)
            #expect(refused.withLock { $0 } == 7)
            for listener in listeners { listener.stop() }
            if listeners.count != 1 { break }
        }
    }
}
