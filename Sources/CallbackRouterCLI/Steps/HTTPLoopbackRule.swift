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

/// One rule for http in `login` and `refresh`: the issuer and every endpoint a command
/// sends to or opens (`--issuer`, `--endpoint`, `--token-endpoint`) is https, or http to a
/// loopback IP literal (127.0.0.1, [::1]) with `--allow-http-loopback` (a local test server
/// only). The library's own checks refuse http to any other host.
enum HTTPLoopbackRule {
    static let flag = "allow-http-loopback"

    /// The options the rule covers, as declared by the command (those it does not declare are skipped).
    static let options = [CommonOptions.issuer, CommonOptions.endpoint, CommonOptions.tokenEndpoint]

    /// The refusal of the first of `options` that is http to a loopback IP literal while
    /// the flag is not given, in the step it stops (`discovery` for the issuer, as its
    /// other refusals, `configuration` for an endpoint); nil when the rule holds.
    static func refusal(_ args: Arguments) -> StepFailure? {
        guard !args.has(TokenStep.allowHTTPLoopback) else { return nil }
        for option in options {
            guard let text = args.all(option).first, let refusal = refusal(text, option: option.name) else { continue }
            return StepFailure(refusal, step: option.name == CommonOptions.issuer.name ? "discovery" : "configuration")
        }
        return nil
    }

    /// The refusal of `text`, the value of `--option`, when it is http to a loopback IP literal.
    static func refusal(_ text: String, option: String) -> CallbackError? {
        guard let url = try? CallbackURL(parsing: text), url.scheme == "http", let host = url.host, host.isLoopbackAddress else {
            return nil
        }
        return CallbackError(
            .invalidConfiguration,
            "--\(option) is http: http is accepted only for a local test server on a loopback IP literal (127.0.0.1, [::1]), and only with --\(flag); anything else must be https"
        )
    }
}

#endif
