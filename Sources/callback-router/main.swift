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

import CallbackRouterCLI

// Thin entry point: everything lives in CallbackRouterCLI so that tests drive it in-process.
// No Foundation here: this binary starts once per redirect, so its start-up is user-visible.

// Before anything opens a descriptor: a closed stdin/stdout/stderr gets /dev/null, so no
// socket takes its number, and a result written to a stream that was closed is lost (74).
let closedAtStart = StandardStreams.reserveClosedDescriptors()
// Before anything starts a thread: every later thread inherits the blocked SIGINT/SIGTERM.
let interruption = Interruption.install()
var context = CommandContext(
    output: StandardStreams(closedAtStart: closedAtStart),
    environment: ProcessEnvironment.current(),
    executablePath: ProcessEnvironment.executablePath(fallback: CommandLine.arguments[0])
)
context.interruption = interruption
ProcessEnvironment.exit(CallbackRouterTool.run(Array(CommandLine.arguments.dropFirst()), context: context))

#endif
