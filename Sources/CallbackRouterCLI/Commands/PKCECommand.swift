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

/// `callback-router pkce [--verifier V | --verifier-from-stdin]`: a PKCE verifier and its
/// S256 challenge.
enum PKCECommand: Command {
    static let name = "pkce"
    static let summary = "Print a PKCE code verifier and its S256 challenge"
    static let overview = """
        OVERVIEW: Print a PKCE code verifier and its S256 code challenge (RFC 7636).

        """
    static let options: [OptionDeclaration] = [
        Option.verifier.alternative("verifier"),
        Option.verifierFromStdin.alternative("verifier"),
    ]

    /// The options only pkce reads.
    enum Option {
        static let verifier = OptionDeclaration.value(
            "verifier", "V",
            "Compute the challenge of this verifier instead of a fresh one. It must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1). Command-line arguments are visible to other local users (ps, /proc): use this for test vectors, not for a verifier that will be redeemed."
        )
        static let verifierFromStdin = OptionDeclaration.flag(
            "verifier-from-stdin",
            "Read that verifier from the first line of stdin instead (a trailing CR is dropped; 30 seconds at most), so it never shows in the process list."
        )
    }
    static let discussion = """
        A fresh verifier is 32 bytes from the system CSPRNG (getrandom), base64url-encoded
        without padding: 43 characters, 256 bits. The challenge is
        BASE64URL(SHA-256(ASCII(verifier))), method S256 ("plain" is never offered).

        OUTPUT:
          {"code_verifier":…,"code_challenge":…,"code_challenge_method":"S256"}
          A verifier that breaks the rules prints
          {"outcome":"rejected","reason":"invalid_configuration","detail":…,"offset":null}
          (the detail gives its length, never the verifier).

        EXIT CODES:
          0 printed, 64 usage or invalid verifier, 75 no line on stdin within 30 seconds.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLES:
          callback-router pkce --verifier dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk
          {"code_verifier":"dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk","code_challenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","code_challenge_method":"S256"}
          printf '%s\\n' "$verifier" | callback-router pkce --verifier-from-stdin

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        var exit: Int32 = 0
        var given: String?
        do {
            try args.noPositionals()
            given = try args.single(Option.verifier)
        } catch {
            return usageError(error.description, context: context)
        }
        if args.has(Option.verifierFromStdin) {
            guard given == nil else {
                return usageError("--verifier and --verifier-from-stdin exclude each other", context: context)
            }
            guard let line = readFromStandardInput("verifier", seconds: 30, context: context, exit: &exit) else {
                return exit
            }
            given = line
        }
        let pkce: PKCE
        if let given {
            do {
                pkce = try PKCE(verifier: given)
            } catch {
                context.printJSON(Rendering.rejectionJSON(reason: error.reason, detail: error.detail, offset: nil))
                return ExitCode.usage
            }
        } else {
            pkce = PKCE()
        }
        context.printJSON(
            .object([
                ("code_verifier", .string(pkce.verifier)),
                ("code_challenge", .string(pkce.challenge)),
                ("code_challenge_method", .string(PKCE.method)),
            ]))
        return ExitCode.success
    }
}

#endif
