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

/// The one human line a failing command ends with when it said nothing itself after its
/// JSON (``CommandContext/settled(_:command:)`` writes it, through ``ToolDescription/failureLine``): what happened, from the JSON's
/// outcome, reason and detail (``SignInSummary``'s wording), then what to do. Only public
/// things appear, as in ``SignInSummary``: reason codes, details (never a secret), issuers.
enum FailureLine {
    /// `✗ Refused: unknown_status: … (step discovery); check --issuer: …`. With no JSON,
    /// or JSON that is no outcome, the exit code and a pointer to stdout.
    static func line(for json: JSONValue?, exit: Int32, command: String? = nil, colour: Bool) -> String {
        let bad = colour ? "\u{1B}[1;31m✗\u{1B}[0m" : "✗"
        guard let json, let outcome = text(json, "outcome") else {
            return "\(bad) Failed (exit \(exit))" + (json == nil ? "" : "; the JSON on stdout says why")
        }
        // A provider's own error code stays in the JSON: the line is made of what the tool
        // wrote (fuzz-cli: stderr does not depend on a callback's values).
        if outcome == OutcomeKind.authorizationError.rawValue {
            return "\(bad) The provider refused the sign-in; its error and error_description are in the JSON on stdout"
        }
        var line = SignInSummary.line(for: json, place: "the provider", colour: colour)
        // An outcome SignInSummary reads as a success cannot end a failing command so.
        if line.contains("Signed in") { line = "\(bad) Failed (exit \(exit)): \(SignInSummary.shown(outcome))" }
        if outcome == "rejected", let step = text(json, "step") { line += " (step \(SignInSummary.shown(step)))" }
        if command == "refresh", outcome == "token_error" {
            let code = text(json, "error").map(CallbackError.printable) ?? "error"
            return "\(bad) The token endpoint refused the refresh token: \(code); sign in again (login) for a new one"
        }
        if let advice = advice(json, command: command) { line += "; " + advice }
        return line
    }

    /// What to do about a failure, when the reason says it (nil: the detail already does).
    static func advice(_ json: JSONValue, command: String? = nil) -> String? {
        if text(json, "outcome") == "token_error" {
            return "check the client id, the client secret and the redirect URI registered at the provider, then sign in again"
        }
        guard let reason = text(json, "reason") else { return nil }
        let step = text(json, "step")
        let issuerOption = step == "discovery" ? "--issuer" : "the URL"
        switch reason {
        case ReasonCode.timeout.rawValue:
            return "nothing answered in time: try again (a longer --timeout for a sign-in)"
        case "transport_failed":
            return "the server could not be reached: is it running, and are \(issuerOption)'s host, port and http/https right?"
        case ReasonCode.unknownStatus.rawValue where step == "discovery":
            return "check --issuer (a typo, a missing path segment, a trailing slash): its discovery document is"
                + " ISSUER/.well-known/openid-configuration"
        case ReasonCode.unknownStatus.rawValue:
            return "the server answered with a status that carries no result: check the URL and that the server is the right one"
        case ReasonCode.issuerMismatch.rawValue where step == "discovery":
            return "give --issuer exactly as the provider publishes it (the detail names both)"
        case ReasonCode.schemeNotAllowed.rawValue, ReasonCode.invalidConfiguration.rawValue, ReasonCode.invalidScheme.rawValue:
            let help = "check the options (callback-router \(command ?? "COMMAND") --help)"
            let http = (text(json, "detail") ?? "").contains("https") && step != nil
            return http ? help + "; a local http test server on 127.0.0.1 or [::1] needs --allow-http-loopback" : help
        case ReasonCode.cancelled.rawValue, "transport_unavailable":
            return nil
        default:
            return step == nil ? "the JSON on stdout has the details" : "the JSON on stdout has the details; sign in again once fixed"
        }
    }

    static func text(_ json: JSONValue, _ name: String) -> String? {
        guard case .object(let members) = json.storage, let value = members.first(where: { $0.0 == name })?.1,
            case .string(let text) = value.storage
        else { return nil }
        return text
    }
}

#endif
