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

/// `--output FILE` (`login`, `refresh`): the result holds secrets, so it is written to a
/// file only the user can read, never through a shell redirect that the umask makes 0644.
enum OutputOption {
    static let declaration = OptionDeclaration.value(
        "output", "FILE",
        "Write the result JSON to FILE instead of stdout, when the command succeeds (exit 0): atomically (a new file beside it, flushed, renamed over it), mode 0600 whatever the umask. Refused (exit 74, FILE untouched): a FILE that is a symbolic link, not a regular file or another user's, in a directory others can change. Any other outcome is printed on stdout as without it, and FILE is left as it was."
    )

    /// Reads `--output` and, when given, sends the command's result there
    /// (``CommandContext/settled(_:command:)`` writes it).
    static func apply(_ args: Arguments, context: CommandContext) throws(Arguments.UsageError) {
        guard let path = try args.single(declaration) else { return }
        guard !path.isEmpty else { throw Arguments.UsageError(description: "--output needs a file name") }
        context.result.send(to: path)
    }
}

#endif
