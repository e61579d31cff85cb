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

import CallbackDesktop
import CallbackRouterKit

extension DesktopError {
    /// The helper's exit code for this failure (docs/cli.md): 77, 69, 64 or 65.
    var exitCode: Int32 {
        switch code {
        case .permission: return ExitCode.permission
        case .unavailable: return ExitCode.unavailable
        case .usage: return ExitCode.usage
        case .rejected: return ExitCode.rejected
        case .conflict, .busy, .unconfirmed: return ExitCode.tryAgain
        case .noReceiver: return ExitCode.unavailable
        default: return ExitCode.unavailable
        }
    }
}

extension Command {
    /// Prints a failure: usage ones with the pointer to --help.
    static func report(_ failure: DesktopError, context: CommandContext) -> Int32 {
        if failure.exitCode == ExitCode.usage { return usageError(failure.message, context: context) }
        context.printError("\(name): \(failure.message)")
        return failure.exitCode
    }
}

#endif
