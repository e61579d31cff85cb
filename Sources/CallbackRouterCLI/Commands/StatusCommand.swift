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

/// `callback-router status --scheme S [--id ID]`: what is registered, and does xdg-mime agree.
enum StatusCommand: Command {
    static let name = "status"
    static let summary = "Say what is registered for a scheme"
    static let overview = """
        OVERVIEW: Say what is registered for a scheme.

        """
    static let options: [OptionDeclaration] = [
        CommonOptions.scheme.required().described("The scheme."),
        RegistrationOptions.id.described("The desktop file ID (default callback-router-SCHEME)."),
    ]
    static let discussion = """
        OUTPUT:
          {"scheme":…,"desktop_file":…,"registered":true|false,"exec":…|null,
           "exec_is_this_helper":true|false,"mimeapps_default":…|null,
           "xdg_mime_default":…|null,"xdg_mime_agrees":true|false|null,"listeners":N|null}
          xdg_mime_* are null when xdg-mime is not installed; listeners counts the sockets
          waiting for the scheme (null when the runtime directory is unusable).

        EXIT CODES:
          0 registered, this helper's desktop file is the default and xdg-mime (if installed)
          agrees; 69 otherwise (stderr says what to run); 64 usage; 77 a file could not be read.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router status --scheme com.example.app

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        do {
            let handler = try RegistrationOptions.read(args, context: context).handler
            let status = try handler.status(executablePath: context.executablePath)
            let xdgMimeDefault: JSONValue
            let agrees: JSONValue
            switch status.systemDefault {
            case .unknown: (xdgMimeDefault, agrees) = (.null, .null)
            case .none: (xdgMimeDefault, agrees) = (.null, .bool(false))
            case .desktopFile(let file): (xdgMimeDefault, agrees) = (.string(file), .bool(file == handler.desktopFileName))
            }
            let listeners = try? CallbackHandoff.waitingReceiverCount(scheme: handler.callbackScheme, environment: context.environment)
            context.printJSON(
                .object([
                    ("scheme", .string(handler.scheme)),
                    ("desktop_file", .string(handler.desktopFilePath)),
                    ("registered", .bool(status.isDefault)),
                    ("exec", .string(status.entryExecutable)),
                    ("exec_is_this_helper", .bool(status.entryRunsExecutable)),
                    ("mimeapps_default", .string(status.mimeAppsDefault)),
                    ("xdg_mime_default", xdgMimeDefault),
                    ("xdg_mime_agrees", agrees),
                    ("listeners", .int(listeners)),
                ]))
            let scheme = handler.scheme
            let register = "run 'callback-router register --scheme \(scheme)'"
            if !status.isDefault {
                context.printError("\(name): \(scheme): is not registered to this helper: \(register)")
            } else if !status.entryRunsExecutable {
                context.printError(
                    "\(name): the desktop entry runs another callback-router than this one: \(register) with the one to use")
            } else if agrees == .bool(false) {
                context.printError(
                    "\(name): xdg-mime names another handler for \(scheme): (a system-wide default?): \(register) again, then check 'xdg-mime query default x-scheme-handler/\(scheme)'"
                )
            } else {
                return ExitCode.success
            }
            return ExitCode.unavailable
        } catch {
            return report(error, context: context)
        }
    }
}

#endif
