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

import CallbackLoopback
import CallbackRouterKit

extension LoopbackError {
    /// The helper's exit code when the loopback receiver cannot start (docs/cli.md): 75 for a
    /// fixed port in use, 77 for a port that needs privileges, 64 for a configuration the
    /// receiver refuses, 69 for any other failure to bind.
    var exitCode: Int32 {
        switch code {
        case .addressInUse: return ExitCode.tryAgain
        case .permissionDenied: return ExitCode.permission
        case .invalidConfiguration: return ExitCode.usage
        default: return ExitCode.unavailable
        }
    }
}

#endif
