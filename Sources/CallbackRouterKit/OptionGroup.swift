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

/// The heading a command's options are listed under: `OPTIONS`, or a named group such as
/// `LOOPBACK OPTIONS` with a note on when it applies.
package struct OptionGroup: Sendable, Equatable {
    /// `OPTIONS`, `LOOPBACK OPTIONS`.
    package let title: String
    /// When the group applies (`the default: an RFC 8252 receiver on 127.0.0.1`), if it needs saying.
    package let note: String?

    package init(_ title: String, note: String? = nil) {
        self.title = title
        self.note = note
    }

    /// Every command's own options.
    package static let main = OptionGroup("OPTIONS")

    /// The heading line of `--help`: `LOOPBACK OPTIONS (the default: …):`.
    package var heading: String { note.map { "\(title) (\($0)):" } ?? "\(title):" }
}

#endif
