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
/// `--scheme S [--id ID]`, shared by register, unregister and status.
struct RegistrationOptions {
    let handler: DesktopSchemeHandler

    /// `--id ID`; each command says what it names for it (``OptionDeclaration/described(_:)``).
    static let id = OptionDeclaration.value("id", "ID", "The desktop file ID (default callback-router-SCHEME).")

    static func read(_ args: Arguments, context: CommandContext) throws(DesktopError) -> RegistrationOptions {
        let schemeText: String?
        let idText: String?
        do {
            try args.noPositionals()
            schemeText = try args.single(CommonOptions.scheme)
            idText = try args.single(id)
        } catch {
            throw DesktopError(.usage, message: error.description)
        }
        guard let schemeText else { throw DesktopError(.usage, message: "--scheme is required") }
        let scheme: CallbackScheme
        do { scheme = try CallbackScheme(validating: schemeText) } catch {
            throw DesktopError(.usage, message: "--scheme: \(error.detail)")
        }
        return RegistrationOptions(handler: try DesktopSchemeHandler(scheme: scheme, id: idText, environment: context.environment))
    }
}

#endif
