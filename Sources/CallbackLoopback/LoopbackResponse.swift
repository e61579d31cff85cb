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

/// One complete HTTP/1.1 response; every response closes its connection.
struct LoopbackResponse: Sendable {
    var status: HTTPStatus
    var page: LoopbackPageContent?
    /// `Allow` for 405 and OPTIONS.
    var allow: String?
    /// HEAD gets the headers of the page without its body.
    var omitBody = false
    /// `Location` for 302 (the start URL) and 303 (the app's own outcome pages).
    var location: String? = nil

    /// The headers every response carries. `no-store`: the page and the URL that led to
    /// it (with the code) stay out of the cache; `no-referrer`: the callback URL never
    /// leaks through a Referer; the CSP and `X-Frame-Options` keep the page inert and
    /// unframeable: nothing loads but the page's own stylesheet (allowed by its hash) and
    /// the empty `data:` icon that stops a browser asking for `/favicon.ico`.
    static let commonFields: [(String, String)] = [
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        (
            "Content-Security-Policy",
            "default-src 'none'; style-src \(LoopbackPageContent.stylesheetHashSource); img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("Connection", "close"),
    ]

    /// The response as sent, its page (if any) made with what `pages` says about the app.
    func bytes(_ pages: LoopbackPages) -> [UInt8] {
        let body = page?.html(pages) ?? ""
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
        LoopbackResponse(status: status, page: .refusal(title: "Continue", text: "Continue to the next page."), location: location)
    }

    static func refusal(_ status: HTTPStatus, _ text: String, allow: String? = nil) -> LoopbackResponse {
        LoopbackResponse(status: status, page: .refusal(title: title(of: status), text: text), allow: allow)
    }

    /// A refusal page's heading, by its status.
    static func title(of status: HTTPStatus) -> String {
        switch status.code {
        case 403: return "Not allowed"
        case 404: return "Not found"
        case 410: return "No longer available"
        case 408: return "Too slow"
        case 413, 414, 431: return "Request too large"
        default: return "Request refused"
        }
    }
}
