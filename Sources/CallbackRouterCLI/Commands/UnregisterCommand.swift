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

/// `callback-router unregister --scheme S [--id ID]`: undo what register did.
enum UnregisterCommand: Command {
    static let name = "unregister"
    static let summary = "Undo what register did for a scheme"
    static let overview = """
        OVERVIEW: Undo what register did for a scheme.

        """
    static let options: [OptionDeclaration] = [
        CommonOptions.scheme.required().described("The scheme given to register."),
        RegistrationOptions.id.described("The desktop file ID given to register (default callback-router-SCHEME)."),
    ]
    static let discussion = """
        Removes ID.desktop and gives mimeapps.list back its line as it was before register:
        the previous default restored, or the added line (and a section or file register
        created) removed. A default changed by someone else since is left alone. A desktop
        file not written by callback-router is never removed.

        OUTPUT:
          {"scheme":…,"was_registered":true|false,"mimeapps_restored":true|false,"mime_cache_refreshed":true|false}

        EXIT CODES:
          0 done (also when nothing was registered), 64 usage, 77 a file could not be changed.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router unregister --scheme com.example.app

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        do {
            let handler = try RegistrationOptions.read(args, context: context).handler
            let report = try handler.unregister()
            if let report, !report.defaultWasOurs {
                context.printError("\(name): the default for \(handler.callbackScheme.mimeType) was changed since register; left as it is")
            }
            context.printJSON(
                .object([
                    ("scheme", .string(handler.scheme)),
                    ("was_registered", .bool(report != nil)),
                    ("mimeapps_restored", .bool(report?.defaultWasOurs ?? false)),
                    ("mime_cache_refreshed", .bool(report?.mimeCacheRefreshed ?? false)),
                ]))
            return ExitCode.success
        } catch {
            return report(error, context: context)
        }
    }
}

#endif
