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

import CallbackRouter
import CallbackRouterKit

/// `callback-router inspect URL`: the parsed components as one JSON object.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "Print the parsed components of a URL as JSON"
    static let overview = """
        OVERVIEW: Print the parsed components of a URL as one JSON object.

        ARGUMENTS:
          URL                     The absolute URL, exactly as delivered (quote it in the shell).

        """
    static let usageArguments = "URL"
    static let options = OptionValues.limitDeclarations
    static let discussion = """
        OUTPUT:
          {"scheme":…,"userinfo":…|null,"host":…|null,"port":N|null,"path":…,
           "query":[[name,value],…]|null,"fragment":…|null}
          scheme lowercased; host as written (lowercased when a registered name, IP literals
          with their brackets); userinfo, path and fragment as written; query decoded pairs.
          A refusal prints {"outcome":"rejected","reason":…,"detail":…,"offset":N|null}.

        EXIT CODES:
          0 parsed, 64 usage, 65 rejected.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE:
          callback-router inspect 'com.example.app:/oauth2redirect?code=abc&state=xyz'

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        let text: String
        let limits: ParsingLimits
        do {
            text = try args.onePositional("URL")
            limits = try OptionValues.limits(args)
        } catch {
            return usageError(error.description, context: context)
        }
        do {
            let url = try CallbackURL(parsing: text, limits: limits)
            context.printJSON(componentsJSON(url))
            return ExitCode.success
        } catch {
            context.printJSON(Rendering.rejectionJSON(reason: error.reason, detail: error.detail, offset: error.offset))
            return ExitCode.rejected
        }
    }

    static func componentsJSON(_ url: CallbackURL) -> JSONValue {
        .object([
            ("scheme", .string(url.scheme)),
            ("userinfo", .string(url.userinfo)),
            ("host", .string(url.host?.text)),
            ("port", .int(url.port)),
            ("path", .string(url.path)),
            ("query", url.query == nil ? .null : .array(url.queryParameters.map { .array([.string($0.name), .string($0.value)]) })),
            ("fragment", .string(url.fragment)),
        ])
    }
}

#endif
