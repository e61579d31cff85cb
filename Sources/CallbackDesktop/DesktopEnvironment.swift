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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackSystem

/// The environment the desktop integration reads (`HOME`, `XDG_*`, `PATH`), without Foundation.
public enum DesktopEnvironment {
    /// The environment variables of this process, read from `environ`.
    public static func current() -> [String: String] { Environment.current() }
}

#endif
