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

import CallbackSystem

/// The process's environment and own path, read without Foundation, and its end.
public enum ProcessEnvironment {
    /// The environment variables of this process, read by the system layer's one reader of
    /// `environ` (the desktop library's `DesktopEnvironment.current()` reads it too).
    public static func current() -> [String: String] { Environment.current() }

    /// The absolute path of the running executable (`/proc/self/exe` on Linux,
    /// `_NSGetExecutablePath` on Darwin), or `fallback` when the system does not say.
    public static func executablePath(fallback: String) -> String {
        Environment.executablePath() ?? fallback
    }

    /// Ends the process with `status` (C's `exit`, through the system layer): how `main`
    /// hands the command's exit code to the shell.
    public static func exit(_ status: Int32) -> Never {
        Signals.endProcess(status: status)
    }
}

#endif
