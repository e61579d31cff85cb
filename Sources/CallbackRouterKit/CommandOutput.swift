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

/// Where a command writes. The executable writes through at once (a script may read the
/// loopback redirect URI before the command ends); tests collect into a buffer.
public protocol CommandOutput: AnyObject, Sendable {
    /// Writes `text` to standard output, as is (add the newline yourself).
    func writeOut(_ text: String)
    /// Writes `text` to standard error, as is (add the newline yourself).
    func writeErr(_ text: String)
    /// Why the first write to standard output that did not arrive whole failed ("No space
    /// left on device"), nil while every one did. The tool turns it into exit 74
    /// (``ExitCode/ioError``): a result that never reached its reader is never a success.
    var lostStandardOutput: String? { get }
}

extension CommandOutput {
    /// An output that cannot fail (a capture) has lost nothing.
    public var lostStandardOutput: String? { nil }
}

#endif
