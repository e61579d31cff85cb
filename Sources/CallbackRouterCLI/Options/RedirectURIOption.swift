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

/// A redirect URI given on the command line (`--redirect-uri`, `--post-logout-redirect-uri`),
/// checked one way for every command that takes one.
enum RedirectURIOption {
    /// `text` as the policy accepts it, or its refusal with a detail that starts with
    /// `label` (`--redirect-uri #2`, `--post-logout-redirect-uri`), never with the value.
    /// `warn` is told when it is a private-use scheme that is no reverse domain name.
    static func check(
        _ text: String, label: String, policy: RedirectURIPolicy, allowLocalhost: Bool, warn: (String) -> Void
    ) -> Result<RedirectURI, CallbackError> {
        do {
            let redirect = try RedirectURI(text, policy: policy, allowsLocalhost: allowLocalhost)
            if !redirect.isReverseDNS {
                warn(
                    "warning: \(label): the scheme '\(redirect.url.scheme)' is not a reverse domain name; RFC 8252 §7.1 recommends one (com.example.app) so that apps do not collide"
                )
            }
            return .success(redirect)
        } catch {
            // The library's "allow localhost explicitly" is, on the command line, a flag.
            var detail = error.detail
            if detail.hasSuffix(", or allow localhost explicitly") {
                detail = String(detail.dropLast(", or allow localhost explicitly".count)) + ", or pass --allow-localhost"
            }
            return .failure(CallbackError(error.reason, at: error.offset, "\(label): " + detail))
        }
    }

    /// For a command that takes one redirect URI: nil when `text` is accepted (warnings go
    /// to stderr, prefixed with the command's name); else its refusal printed as design.md's
    /// rejection JSON, and the usage exit code to return.
    static func refusal(
        of text: String, label: String, policy: RedirectURIPolicy, allowLocalhost: Bool, command: String,
        context: CommandContext
    ) -> Int32? {
        let checked = check(text, label: label, policy: policy, allowLocalhost: allowLocalhost) {
            context.printError("\(command): " + $0)
        }
        guard case .failure(let refusal) = checked else { return nil }
        context.printJSON(Rendering.rejectionJSON(refusal))
        return ExitCode.usage
    }
}

#endif
