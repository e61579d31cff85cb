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

/// The signals a command takes itself (SIGINT, SIGTERM) and the two ways its process ends.
/// A signal is taken with `sigwait` on a thread of its own, never in a handler, so the code it
/// runs may lock and write like any other (`Interruption` in the CLI).
package enum Signals {
    /// Ctrl-C at a terminal.
    package static let interrupt: Int32 = SIGINT
    /// A polite request to stop (`kill`, a service manager).
    package static let terminate: Int32 = SIGTERM

    /// Blocks `signals` in the calling thread; every thread it starts afterwards inherits the
    /// mask, so call it before any other thread exists. Programs started with `Subprocess`
    /// get every signal unblocked again.
    package static func block(_ signals: [Int32]) {
        var set = signalSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Undoes ``block(_:)`` in the calling thread.
    package static func unblock(_ signals: [Int32]) {
        var set = signalSet(signals)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Waits until one of `signals` (blocked in every thread) arrives and returns it; nil
    /// when `sigwait` fails.
    package static func wait(for signals: [Int32]) -> Int32? {
        var set = signalSet(signals)
        var received: Int32 = 0
        return sigwait(&set, &received) == 0 ? received : nil
    }

    /// Ends the process with `status` (`exit`): what `main` does once the command returned.
    package static func endProcess(status: Int32) -> Never {
        exit(status)
    }

    /// Ends the process with `status` at once (`_exit`): no exit handlers run. What a signal
    /// that ends a command does, from the signal thread, while other threads still run.
    package static func endProcessAtOnce(status: Int32) -> Never {
        _exit(status)
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
