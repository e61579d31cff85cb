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

import Foundation

extension CallbackURL {
    /// Parses a Foundation `URL` with our parser, from its `absoluteString`: Foundation's own
    /// reading of the components is never trusted alongside ours.
    public init(_ url: URL, limits: ParsingLimits = .default) throws(ParseError) {
        try self.init(parsing: url.absoluteString, limits: limits)
    }

    /// The URL printed with only the characters RFC 3986 allows raw in each component:
    /// what browsers leave raw beyond it (`[ ] | { } ^ \` and backtick in a query, `#` in a
    /// fragment, `[ ] |` in a path) is percent-encoded. Decoded values do not change.
    public var rfc3986Serialized: String {
        var out = scheme + ":"
        if hasAuthority, let host {
            out += "//"
            if let userinfo { out += userinfo + "@" }
            out += host.text
            if let port { out += ":" + String(port) }
        }
        out += Self.escapingNonRFC(path, extraAllowed: "/")
        if let query { out += "?" + Self.escapingNonRFC(query, extraAllowed: "/?") }
        if let fragment { out += "#" + Self.escapingNonRFC(fragment, extraAllowed: "/?") }
        return out
    }

    /// Percent-encodes every byte outside RFC 3986 `pchar` (plus `extraAllowed`), keeping
    /// existing escapes (`%` followed by two hex digits) as they are.
    static func escapingNonRFC(_ component: String, extraAllowed: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@%".utf8)
            .union(extraAllowed.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        for byte in component.utf8 {
            if allowed.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension URL {
    /// A Foundation `URL` for a parsed callback, built from our components
    /// (``CallbackURL/rfc3986Serialized``) and checked: nil when Foundation would read any
    /// component differently from us (so two parsers never silently disagree).
    public init?(_ callbackURL: CallbackURL) {
        let text = callbackURL.rfc3986Serialized
        guard let url = URL(string: text),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let reparsed = try? CallbackURL(parsing: text)
        else { return nil }
        let theirHost = (components.percentEncodedHost ?? "").lowercased()
        let ourHost = reparsed.host?.text.lowercased() ?? ""
        let ourHostUnbracketed = ourHost.hasPrefix("[") ? String(ourHost.dropFirst().dropLast()) : ourHost
        guard components.scheme?.lowercased() == reparsed.scheme,
            theirHost == ourHost || theirHost == ourHostUnbracketed,
            components.port == reparsed.port,
            components.percentEncodedPath == reparsed.path,
            components.percentEncodedQuery == reparsed.query,
            components.percentEncodedFragment == reparsed.fragment
        else { return nil }
        self = url
    }
}

extension CallbackRouter {
    /// Handles a callback delivered as a Foundation `URL` (`onOpenURL`,
    /// `ASWebAuthenticationSession`'s completion): parsed once, by our parser.
    @discardableResult
    public func handle(_ url: URL) throws(CallbackError) -> Delivery {
        try handle(url.absoluteString)
    }
}

extension RedirectURI {
    /// A redirect URI from a Foundation `URL`, validated as ``RedirectURI/init(_:policy:allowsLocalhost:)`` does.
    public init(_ url: URL, policy: RedirectURIPolicy = .native, allowsLocalhost: Bool = false) throws(CallbackError) {
        try self.init(url.absoluteString, policy: policy, allowsLocalhost: allowsLocalhost)
    }

    /// The old spelling of ``init(_:policy:allowsLocalhost:)``.
    @available(*, deprecated, renamed: "init(_:policy:allowsLocalhost:)")
    public init(_ url: URL, policy: RedirectURIPolicy = .native, allowLocalhost: Bool) throws(CallbackError) {
        try self.init(url, policy: policy, allowsLocalhost: allowLocalhost)
    }

    /// The redirect URI as a Foundation `URL` (nil only if Foundation would read it differently).
    public var foundationURL: URL? { URL(url) }
}

extension AuthorizationRequest {
    /// The authorization request as a Foundation `URL`, for `ASWebAuthenticationSession` or
    /// `UIApplication.open`. Built from our components and checked (nil if Foundation disagrees).
    public var foundationURL: URL? {
        guard let parsed = try? CallbackURL(parsing: url) else { return nil }
        return URL(parsed)
    }
}

extension EndSessionRequest {
    /// The end-session (logout) request as a Foundation `URL`, for `ASWebAuthenticationSession`
    /// or `UIApplication.open`. Built from our components and checked (nil if Foundation disagrees).
    public var foundationURL: URL? {
        guard let parsed = try? CallbackURL(parsing: url) else { return nil }
        return URL(parsed)
    }
}

extension LogoutAttempt {
    /// The logout's end-session request as a Foundation `URL` (``EndSessionRequest/foundationURL``).
    public var foundationURL: URL? { request.foundationURL }
}
