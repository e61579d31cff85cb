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

/// What `callback-router` is made of: its commands, its own `--help` and its version.
package struct ToolDescription: Sendable {
    package let commands: [any Command.Type]
    package let help: String
    package let version: String
    /// The human line that ends a failure the command did not explain itself after its JSON
    /// (`FailureLine` in Rendering): the JSON, the exit code, the command, colour.
    package var failureLine: @Sendable (JSONValue?, Int32, String?, Bool) -> String = { _, exit, _, _ in "✗ Failed (exit \(exit))" }

    package init(
        commands: [any Command.Type], help: String, version: String,
        failureLine: @escaping @Sendable (JSONValue?, Int32, String?, Bool) -> String = { _, exit, _, _ in "✗ Failed (exit \(exit))" }
    ) {
        self.commands = commands
        self.help = help
        self.version = version
        self.failureLine = failureLine
    }
}

#endif
