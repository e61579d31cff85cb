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

/// Why a callback, a registration or an attempt was refused: one struct for every layer
/// above the parser, carrying a stable [`ReasonCode`](/documentation/callbackparsing/reasoncode)
/// (CallbackParsing's, re-exported; the link works in the one site `scripts/build-docs.sh` builds).
///
/// ```swift
/// do { let outcome = try router.handle(url) }
/// catch ReasonCode.stateMismatch { … }
/// catch let error as CallbackError { print(error.reason, error.detail) }
/// ```
///
/// `detail` is a sentence for people; it never contains a code, token, state, session id
/// or verifier.
public struct CallbackError: ReasonCarrying, Hashable, Sendable, CustomStringConvertible {
    /// The codes are [`ReasonCode`](/documentation/callbackparsing/reasoncode)'s: one table for the parser and everything above it.
    public typealias Code = ReasonCode

    /// The stable reason (``ReasonCode``; every code is listed in docs/cli.md, "Reason codes"), e.g. `state_mismatch`.
    public let reason: ReasonCode
    /// The byte offset into the callback URL, when one applies.
    public let offset: Int?
    /// A sentence for people saying what was wrong; it never contains a secret value.
    public let detail: String

    /// Makes a refusal with its reason, an optional byte offset, and a detail free of secrets.
    public init(_ reason: ReasonCode, at offset: Int? = nil, _ detail: String) {
        self.reason = reason
        self.offset = offset
        self.detail = detail
    }

    /// A parser refusal, carried up unchanged.
    public init(_ error: ParseError) {
        self.init(error.reason, at: error.offset, error.detail)
    }

    /// The reason's wire name, the offset when there is one, and the detail.
    public var description: String {
        if let offset { return "\(reason.rawValue) at byte \(offset): \(detail)" }
        return "\(reason.rawValue): \(detail)"
    }
}

extension CallbackError {
    /// An `issuer_mismatch` naming both issuers. An issuer identifier is public (RFC 9207
    /// §2: the authorization server's identifier, published in its metadata), so it is the
    /// one callback value a detail shows; both are escaped and bounded by
    /// ``printable(_:)``, since the received one is whatever the callback carried.
    static func issuerMismatch(received: String, expected: String, at offset: Int? = nil) -> CallbackError {
        CallbackError(
            .issuerMismatch, at: offset,
            "the server said \(printable(received)), expected \(printable(expected)) (the 'iss' parameter, RFC 9207)"
        )
    }

    /// `text` made safe to show a person: controls, non-ASCII and backslashes escaped as
    /// `\u{…}` (hexadecimal scalar value) and at most 200 scalars kept (then `…`).
    ///
    /// A detail may reach a terminal, where an escape sequence from a callback must not act,
    /// and a log, which a long value must not flood; the details of this library show the
    /// one callback value they name (the issuers of an `issuer_mismatch`) this way, and a tool that
    /// shows a callback's public values (an issuer, a provider's `error` code) should too.
    /// The backslash is escaped so that the result reads back one way: a literal `\u{1b}` in
    /// the input shows as `\u{5c}u{1b}`, never as if an escape byte had been sent.
    ///
    /// ```swift
    /// CallbackError.printable("https://idp.example")     // "https://idp.example", as is
    /// CallbackError.printable("https://x\u{1B}]0;pwned\u{7}")
    ///                                 // "https://x\u{1b}]0;pwned\u{7}": no escape byte reaches the terminal
    /// CallbackError.printable("café")                     // "caf\u{e9}"
    /// ```
    ///
    /// Not a secret filter: what it is given is shown. Codes, states and tokens must not be
    /// passed to it, as to any printed text.
    public static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\\" {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return text.unicodeScalars.count > 200 ? result + "…" : result
    }
}

extension CallbackError {
    /// The NSError domain `CallbackRouterFoundation` bridges this error with.
    public static let errorDomain = "CallbackRouter.CallbackError"
    /// The reason's stable NSError code ([`ReasonCode.errorCode`](/documentation/callbackparsing/reasoncode); docs/errors.md).
    public var errorCode: Int { reason.errorCode }
    /// The reason's closed category, to switch over exhaustively.
    public var category: CallbackErrorCategory { reason.category }
    /// What happened, for people: the category, ``detail`` and the reason code; never a secret.
    ///
    /// With `import CallbackRouterFoundation` it is also `localizedDescription`.
    public var errorDescription: String? { reason.errorDescription(detail: detail) }
    /// What to do, for people.
    public var recoverySuggestion: String? { reason.recoverySuggestion }
}
