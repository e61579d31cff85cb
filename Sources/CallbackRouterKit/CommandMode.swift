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

/// One way a command runs, chosen by an option (`login --scheme`, `listen --logout`), or by
/// one value of it (`end-session-url --style auth0-return-to`), or by their absence (the
/// command's default mode). Each option declares the modes it applies to
/// (``OptionDeclaration/only(in:)``); one given in another mode is a usage error made from
/// that declaration (``OptionDeclaration/misplaced(in:)``).
package struct CommandMode: Sendable, Equatable {
    /// What its options are called in errors and `--help`: `loopback`, `scheme`, `logout`.
    package let name: String
    /// The option (without `--`) whose presence chooses this mode; nil for the default mode.
    package let selector: String?
    /// The value of ``selector`` that chooses this mode; nil: any value (or a flag).
    package let value: String?

    package init(_ name: String, chosenBy selector: String? = nil, value: String? = nil) {
        self.name = name
        self.selector = selector
        self.value = value
    }

    /// How it is chosen, as errors and USAGE say it: `--scheme`, `--style auth0-return-to`.
    package var chooser: String? { selector.map { "--" + $0 + (value.map { " " + $0 } ?? "") } }
}

extension [CommandMode] {
    /// The mode `args` chose: the first whose selector was given, else the default one; nil
    /// for a command with a single mode (no modes declared).
    package func chosen(by args: Arguments) -> CommandMode? {
        first { mode in mode.selector.map { args.gave(option: $0, value: mode.value) } ?? false } ?? first { $0.selector == nil }
    }
}

#endif
