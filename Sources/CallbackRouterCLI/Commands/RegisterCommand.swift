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
/// `callback-router register --scheme S [--id ID]`: make this helper the scheme's handler.
enum RegisterCommand: Command {
    static let name = "register"
    static let summary = "Register callback-router as the handler of a URL scheme"
    static let overview = """
        OVERVIEW: Register callback-router as the handler of a URL scheme.

        """
    static let options: [OptionDeclaration] = [
        CommonOptions.scheme.required().described(
            "The scheme (RFC 3986 syntax; lowercased). http, https, file, javascript, data, vbscript, about, blob, ftp, ws, wss and mailto are refused."
        ),
        RegistrationOptions.id.described("The desktop file ID (default callback-router-SCHEME)."),
    ]
    static let discussion = """
        Writes $XDG_DATA_HOME/applications/ID.desktop (Exec=<this helper's absolute path> open %u,
        MimeType=x-scheme-handler/S;, NoDisplay=true, Terminal=false), makes it the default for
        x-scheme-handler/S in $XDG_CONFIG_HOME/mimeapps.list (every other line kept as it is),
        and runs update-desktop-database when it is installed. Running it again changes nothing;
        'callback-router unregister' undoes exactly what it did.

        OUTPUT:
          {"scheme":…,"desktop_file":…,"mimeapps_list":…,"changed":true|false,"mime_cache_refreshed":true|false}

        EXIT CODES:
          0 registered, 64 usage (or ID.desktop belongs to another program), 65 mimeapps.list
          sets the type twice, 77 a file could not be read or written.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router register --scheme com.example.app

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        do {
            let handler = try RegistrationOptions.read(args, context: context).handler
            let report = try handler.register(executablePath: context.executablePath)
            if DesktopSchemeHandler.executablePathNeedsQuoting(context.executablePath) {
                context.printError(
                    "\(name): note: the helper's path needs quoting in Exec=; gio honours it, xdg-open's generic path does not (install it under a path without spaces)"
                )
            }
            context.printJSON(
                .object([
                    ("scheme", .string(handler.scheme)),
                    ("desktop_file", .string(handler.desktopFilePath)),
                    ("mimeapps_list", .string(handler.mimeAppsListPath)),
                    ("changed", .bool(report.changedDesktopFile || report.changedMimeApps)),
                    ("mime_cache_refreshed", .bool(report.mimeCacheRefreshed)),
                ]))
            return ExitCode.success
        } catch {
            return report(error, context: context)
        }
    }
}

#endif
