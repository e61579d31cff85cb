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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackRouter
import CallbackSystem

/// Collects what a command writes, for in-process tests.
public final class CapturedOutput: CommandOutput {
    private let buffers = Locked<(out: String, err: String)>(("", ""))
    /// Makes an empty capture.
    public init() {}
    /// Everything written to standard output so far.
    public var stdout: String { buffers.withLock { $0.out } }
    /// Everything written to standard error so far.
    public var stderr: String { buffers.withLock { $0.err } }
    /// Appends to the captured standard output.
    public func writeOut(_ text: String) { buffers.withLock { $0.out += text } }
    /// Appends to the captured standard error.
    public func writeErr(_ text: String) { buffers.withLock { $0.err += text } }
}

#endif
