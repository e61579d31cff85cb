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
import CallbackRouter
import CallbackRouterKit

/// `callback-router open URL`: what `xdg-open` / `gio open` run for a registered scheme.
enum OpenCommand: Command {
    static let name = "open"
    static let summary = "Hand a callback URL to the process waiting for it (run by xdg-open)"
    static let overview = """
        OVERVIEW: Hand a callback URL to the process waiting for it (run by xdg-open).

        ARGUMENTS:
          URL                  The callback URL, exactly as the browser passed it.

        """
    static let usageArguments = "URL"
    static let options: [OptionDeclaration] = [
        Option.noSpool, Option.spoolTTL,
    ]

    /// The options only open reads.
    enum Option {
        static let noSpool = OptionDeclaration.flag("no-spool", "When no listener takes it, fail with 69 instead of spooling.")
        static let spoolTTL = OptionDeclaration.value(
            "spool-ttl", "SECONDS", "How long a spooled callback waits for a listener (default 600, at most 86400).")
    }
    static let discussion = """
        The URL is checked (syntax, a callback scheme, at most one 'state') and handed over a
        Unix socket in $XDG_RUNTIME_DIR/callback-router (0700; without XDG_RUNTIME_DIR,
        /run/user/UID/callback-router when that directory is yours, else
        ~/.cache/callback-router/run, 0700) to a 'callback-router listen' of the same user:
          - a URL with a state goes to the listener that expects that state, else to the
            single listener of its scheme without --state;
          - without one, to the single listener of its scheme without --state, never to one
            that expects a state;
          - two or more that could take it: conflict, none gets it;
          - nobody takes it: it is spooled (0600, one copy per URL) and the next matching
            listen takes it once (a listen without --state only if it started before).
        Only sockets and listeners of the same uid are used (SO_PEERCRED). The URL is never
        written to stderr.

        OUTPUT:
          {"outcome":"delivered"}, {"outcome":"spooled","expires_in":SECONDS}, or
          {"outcome":"rejected","reason":…,"detail":…,"offset":N|null}.

        EXIT CODES:
          0 delivered or spooled, 64 usage, 65 rejected URL, 69 no listener takes it (--no-spool),
          75 conflict or a listener did not answer (try again), 77 permission (modes, owners, peers).
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router open 'myapp://callback?code=abc&state=xyz'

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let text: String
        let ttl: Int
        do {
            text = try args.onePositional("URL")
            ttl = try args.integer(Option.spoolTTL, in: 1 ... 86_400) ?? CallbackHandoff.defaultSpoolTTLSeconds
        } catch {
            return usageError(error.description, context: context)
        }
        let url: HandoffURL
        do {
            url = try HandoffURL(validating: text)
        } catch {
            return reject(error.reason, error.detail, offset: error.offset, exit: ExitCode.rejected, context: context)
        }
        do {
            switch try CallbackHandoff.deliver(
                url, environment: context.environment, spool: !args.has(Option.noSpool), spoolTTLSeconds: ttl)
            {
            case .delivered:
                context.printJSON(.object([("outcome", .string("delivered"))]))
            case .spooled:
                context.printJSON(.object([("outcome", .string("spooled")), ("expires_in", .int(ttl))]))
            }
            return ExitCode.success
        } catch {
            let scheme = url.scheme.name
            switch error.code {
            case .conflict:
                return reject(
                    .conflict, "two or more listeners of '\(scheme)' could take this callback; it was delivered to none",
                    offset: nil, exit: ExitCode.tryAgain, context: context)
            case .busy:
                return reject(
                    .timeout, "a listener of '\(scheme)' did not answer in time; nothing was delivered",
                    offset: nil, exit: ExitCode.tryAgain, context: context)
            case .unconfirmed:
                return reject(
                    .timeout, "the listener did not confirm the delivery; it is not retried",
                    offset: nil, exit: ExitCode.tryAgain, context: context)
            case .noReceiver:
                return reject(
                    .noRoute, "no listener of '\(scheme)' takes this callback and spooling is off",
                    offset: nil, exit: ExitCode.unavailable, context: context)
            default:
                context.printError("\(name): \(error.message)")
                return error.exitCode
            }
        }
    }

    private static func reject(_ reason: ReasonCode, _ detail: String, offset: Int?, exit: Int32, context: CommandContext) -> Int32 {
        context.printJSON(Rendering.rejectionJSON(reason: reason, detail: detail, offset: offset))
        context.printError("\(name): \(reason.rawValue): \(detail)")
        return exit
    }
}

#endif
