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

import CallbackDesktop
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `callback-router status --scheme S [--id ID]`: what is registered, and does xdg-mime agree.
enum StatusCommand: Command {
    static let name = "status"
    static let summary = "Say what is registered for a scheme"
    static let overview = """
        OVERVIEW: Say what is registered for a scheme.

        USAGE: callback-router status --scheme S [--id ID]

        """
    static let options: [OptionDeclaration] = [
        .value("scheme", "S", "The scheme."),
        .value("id", "ID", "The desktop file ID (default callback-router-SCHEME)."),
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

        EXAMPLE:
          callback-router status --scheme com.example.app

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        do {
            let registration = try RegistrationOptions.read(args, context: context).registration
            let entry = try registration.readOurEntry()
            let mimeDefault = try registration.currentDefault()
            let xdgMime = registration.xdgMimeDefault()
            let isDefault = mimeDefault == registration.desktopFileName
            let execIsThis = entry.map { sameFile($0.executablePath, context.executablePath) } ?? false
            let agrees: Bool? = xdgMime.map { $0 == registration.desktopFileName }
            context.printJSON(
                .object([
                    ("scheme", .string(registration.scheme.name)),
                    ("desktop_file", .string(registration.desktopFilePath)),
                    ("registered", .bool(entry != nil && isDefault)),
                    ("exec", .string(entry?.executablePath)),
                    ("exec_is_this_helper", .bool(execIsThis)),
                    ("mimeapps_default", .string(mimeDefault)),
                    ("xdg_mime_default", xdgMime.map { .string($0) } ?? .null),
                    ("xdg_mime_agrees", agrees.map { .bool($0) } ?? .null),
                    ("listeners", .int(listenerCount(registration.scheme, context: context))),
                ]))
            let scheme = registration.scheme.name
            let register = "run 'callback-router register --scheme \(scheme)'"
            if entry == nil || !isDefault {
                context.printError("\(name): \(scheme): is not registered to this helper: \(register)")
            } else if !execIsThis {
                context.printError(
                    "\(name): the desktop entry runs another callback-router than this one: \(register) with the one to use")
            } else if agrees == false {
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

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = FileSystem.status(ifExists: a), let y = FileSystem.status(ifExists: b) else { return a == b }
        return x.device == y.device && x.inode == y.inode
    }

    private static func listenerCount(_ scheme: CallbackScheme, context: CommandContext) -> Int? {
        guard let runtime = try? RuntimeDirectory.resolve(environment: context.environment, uid: getuid()) else { return nil }
        let names = (try? FileSystem.entries(runtime.listenerDirectory(for: scheme))) ?? []
        return names.filter { $0.hasSuffix(".sock") }.count
    }
}
