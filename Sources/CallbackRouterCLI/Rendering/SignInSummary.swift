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

/// `login`'s last stderr line, for the person at the terminal: what happened, in words,
/// from the JSON it just printed. Only public things appear: the outcome, a reason code and
/// its detail (details never hold a secret), a provider's error code, an issuer.
enum SignInSummary {
    /// `✓ Signed in at https://issuer.example` / `✗ Sign-in cancelled at the provider:
    /// access_denied` / `✗ Refused: issuer_mismatch: …`; `place` is where this login was
    /// sent (the expected issuer, else the endpoint's host), used when the callback names
    /// no issuer.
    ///
    /// An `issuer_mismatch` shows both issuers (public identifiers, RFC 9207): the library's
    /// detail names them, the one callback value a detail may carry (DialectRedactionTests).
    ///
    /// Values from the callback or the provider (`iss`, `error`, the place) go through the
    /// library's escaper, `CallbackError.printable`; text the library wrote (the outcome, the
    /// reason code, the detail, whose callback values that escaper already made printable)
    /// is shown as written, and escaped the same way only if it holds anything else.
    static func line(for json: JSONValue, place: String, expectedIssuer: String? = nil, colour: Bool) -> String {
        guard case .object(let members) = json.storage else { return "" }
        func text(_ name: String) -> String? {
            guard let value = members.first(where: { $0.0 == name })?.1, case .string(let text) = value.storage else { return nil }
            return text
        }
        /// A value the callback or the provider chose.
        func member(_ name: String) -> String? { text(name).map(CallbackError.printable) }
        /// Text the library wrote.
        func written(_ name: String) -> String? { text(name).map(shown) }
        let outcome = written("outcome") ?? ""
        let good = colour ? "\u{1B}[1;32m✓\u{1B}[0m" : "✓"
        let bad = colour ? "\u{1B}[1;31m✗\u{1B}[0m" : "✗"
        switch outcome {
        case "rejected":
            let reason = written("reason") ?? "rejected"
            let detail = written("detail").map { ": " + $0 } ?? ""
            switch reason {
            case ReasonCode.timeout.rawValue, ReasonCode.cancelled.rawValue, ReasonCode.conflict.rawValue:
                return "\(bad) Not signed in: \(reason)\(detail)"
            case ReasonCode.issuerMismatch.rawValue:
                // The library's detail names both issuers; the expected one is added only
                // to a detail that does not already show it.
                let expected =
                    expectedIssuer.map(CallbackError.printable).flatMap { detail.contains("expected \($0)") ? nil : "; expected \($0)" }
                    ?? ""
                return "\(bad) Refused: \(reason)\(detail)\(expected)"
            default:
                return "\(bad) Refused: \(reason)\(detail)"
            }
        case OutcomeKind.authorizationError.rawValue:
            let code = member("error") ?? "error"
            if code == AuthorizationErrorCode.accessDenied.rawValue {
                return "\(bad) Sign-in cancelled at the provider: \(code)"
            }
            return "\(bad) The provider refused the sign-in: \(code)"
        case "token_error":
            return "\(bad) The token endpoint refused the code: \(member("error") ?? "error")"
        default:
            if OutcomeKind(rawValue: outcome).isProviderFailure {
                return "\(bad) The provider reported a failure: \(outcome)"
            }
            return "\(good) Signed in at \(member("iss") ?? CallbackError.printable(place))"
        }
    }

    /// Text the library wrote, as written when it is what `CallbackError.printable` makes
    /// (printable ASCII, and the `…` of a value it cut), else through that escaper: it goes to
    /// a terminal, where an escape sequence must not act.
    static func shown(_ text: String) -> String {
        let isPrintable = text.unicodeScalars.allSatisfy { ($0.value >= 0x20 && $0.value < 0x7F) || $0 == "…" }
        return isPrintable ? text : CallbackError.printable(text)
    }

    /// Where a login was sent, for the success line: the expected issuer, else the
    /// authorization endpoint's host.
    static func place(issuer: String?, endpoint: String) -> String {
        if let issuer { return issuer }
        if let url = try? CallbackURL(parsing: endpoint), let host = url.host?.text { return host }
        return "the provider"
    }
}

#endif
