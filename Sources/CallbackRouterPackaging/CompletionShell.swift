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

import CallbackRouterKit

/// The shells `callback-router completions` writes a script for.
package enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// Where a Debian package installs the script (relative to `/`), as each shell's own
    /// package looks for it: bash-completion's `completionsdir`, zsh's vendor functions,
    /// fish's vendor completions.
    var installPath: String {
        switch self {
        case .bash: "usr/share/bash-completion/completions/callback-router"
        case .zsh: "usr/share/zsh/vendor-completions/_callback-router"
        case .fish: "usr/share/fish/vendor_completions.d/callback-router.fish"
        }
    }
}

#endif
