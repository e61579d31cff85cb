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

/// What the receiver tells the browser. Every page is a few lines of static HTML: no
/// script, no external resource, never the state or the code, and it says only what
/// is true at the moment it is sent.
enum LoopbackPage: Equatable, Sendable {
    /// Sent only after the callback was validated and accepted.
    case success
    /// Sent only after the end of a logout (`logout_complete`) was validated and accepted.
    case signedOut
    /// The provider's answer (with the right state) reports an error; `code` is the
    /// `error` value when it is a plain token, else nil.
    case providerError(code: String?)
    /// The answer carried the right state but could not be accepted (wrong issuer…).
    case rejected
    /// Nothing has arrived that ends the wait (the answer to HEAD on the callback path).
    case waiting
    /// A callback-looking request that does not belong to this login: the wait goes on.
    case ignored
    /// Every other answer: 404, 405, 403, 400…
    case refusal(String)

    var title: String {
        switch self {
        case .success: return "Sign-in response received"
        case .signedOut: return "Signed out"
        case .providerError: return "Sign-in not completed"
        case .rejected: return "Sign-in response refused"
        case .waiting: return "Waiting for sign-in"
        case .ignored: return "Request not accepted"
        case .refusal: return "Request refused"
        }
    }

    var message: String {
        switch self {
        case .success:
            return "The application received the sign-in response. You can close this window and return to it."
        case .signedOut:
            return "The provider ended the session and the application received its answer. You can close this window and return to it."
        case .providerError(let code):
            let shown = code.map { " (\(htmlEscaped($0)))" } ?? ""
            return "The sign-in provider reported an error\(shown). You can close this window and return to the application."
        case .rejected:
            return "The sign-in response could not be accepted. You can close this window; start the sign-in again from the application."
        case .waiting:
            return "The application is waiting for the sign-in to finish."
        case .ignored:
            return
                "This request does not belong to the sign-in in progress and was not accepted. The application is still waiting: finish the sign-in in the window it opened."
        case .refusal(let text):
            return htmlEscaped(text)
        }
    }

    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">\
        <link rel="icon" href="data:,"><title>\(title)</title></head>
        <body><h1>\(title)</h1><p>\(message)</p></body></html>

        """
    }

    /// Shows a provider's `error` value only when it is a short plain token (RFC 6749
    /// §4.1.2.1 codes are); anything else is withheld rather than reflected.
    static func displayableErrorCode(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 64 else { return nil }
        let plain = value.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
        return plain ? value : nil
    }
}

func htmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// One complete HTTP/1.1 response; every response closes its connection.
struct LoopbackResponse: Sendable {
    var status: HTTPStatus
    var page: LoopbackPage?
    /// `Allow` for 405 and OPTIONS.
    var allow: String?
    /// HEAD gets the headers of the page without its body.
    var omitBody = false
    /// `Location` for 302 (the start URL) and 303 (the app's own outcome pages).
    var location: String? = nil

    /// The headers every response carries. `no-store`: the page and the URL that led to
    /// it (with the code) stay out of the cache; `no-referrer`: the callback URL never
    /// leaks through a Referer; the CSP and `X-Frame-Options` keep the page inert and
    /// unframeable.
    static let commonFields: [(String, String)] = [
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Content-Security-Policy", "default-src 'none'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("Connection", "close"),
    ]

    var bytes: [UInt8] {
        let body = page?.html ?? ""
        var head = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        if page != nil { head += "Content-Type: text/html; charset=utf-8\r\n" }
        if status != .noContent { head += "Content-Length: \(body.utf8.count)\r\n" }
        if let allow { head += "Allow: \(allow)\r\n" }
        if let location { head += "Location: \(location)\r\n" }
        for (name, value) in Self.commonFields { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !omitBody { bytes += Array(body.utf8) }
        return bytes
    }

    /// A redirect with a short page for clients that do not follow it.
    static func redirect(_ status: HTTPStatus, to location: String) -> LoopbackResponse {
        LoopbackResponse(status: status, page: .refusal("Continue to the next page."), location: location)
    }

    static func refusal(_ status: HTTPStatus, _ text: String, allow: String? = nil) -> LoopbackResponse {
        LoopbackResponse(status: status, page: .refusal(text), allow: allow)
    }
}
