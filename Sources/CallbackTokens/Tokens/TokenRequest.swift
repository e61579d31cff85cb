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

/// A token request (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5; or a refresh, §6) as a value:
/// the endpoint, the method, the headers and the exact body bytes, for any HTTP client to
/// send. `CallbackRouterFoundation` sends it with `URLSession` (`exchange(_:)`).
///
/// ```swift
/// let delivery = try await router.callback(for: attempt, timeout: .seconds(300))
/// let request = try TokenRequest.authorizationCode(
///     for: delivery, redirectURI: receiver.redirectURI,
///     tokenEndpoint: "https://op.example.com/token", clientID: "abc123")
/// request.body     // grant_type=authorization_code&code=…&redirect_uri=…&code_verifier=…&client_id=abc123
/// ```
///
/// Guarantees:
/// - Only an `authorization_code` delivery of a login attempt makes a code request; any
///   other outcome (`challenge_token`, an error…) is `invalid_configuration`, never a
///   request with an empty or foreign code.
/// - `redirect_uri` is the one given, sent exactly (RFC 6749 §4.1.3 requires it identical
///   to the authorization request's), and it must match the attempt's registered redirect
///   URI (`redirect_uri_mismatch`), so a request cannot name another app's.
/// - The `code_verifier` is the attempt's own (RFC 7636 §4.5).
/// - The endpoint must be `https`; `http` only to a loopback IP literal, and only when
///   `allowingLoopbackHTTP` is true (a local test server); no userinfo, no fragment
///   (`invalid_configuration`).
/// - The body is `application/x-www-form-urlencoded` (WHATWG serialisation: a space is
///   `+`, every byte outside letters, digits and `*-._` is `%XX`), so no value can add or
///   end a parameter.
/// - Headers: `Content-Type: application/x-www-form-urlencoded`, `Accept:
///   application/json`, and `Authorization: Basic …` for `client_secret_basic`.
///
/// `description`, `debugDescription` and `dump` show the endpoint, the grant type, the
/// client id and the authentication method; never the code, the verifier, the refresh
/// token, the secret, the `Authorization` header or the body. A ``Header`` prints its
/// `Authorization` value as `<redacted, N bytes>` too (`print(request.headers)`), while
/// ``Header/value`` and ``header(_:)`` give the real value to the transport.
public struct TokenRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// One HTTP header field.
    ///
    /// `description`, `debugDescription` and `dump` show the name and, for a field that
    /// carries credentials (`Authorization`), only the value's length
    /// (`Authorization: <redacted, N bytes>`), so `print(request.headers)` shows no secret;
    /// ``value`` is the real value, for the transport.
    public struct Header: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The field name, e.g. `Content-Type`.
        public let name: String
        /// The field value, as sent (for `Authorization`, the credentials).
        public let value: String

        /// Whether the field carries credentials: its value is never shown.
        var isCredential: Bool {
            let lowered = TokenRequest.lowercased(name)
            return lowered == "authorization" || lowered == "proxy-authorization" || lowered == "dpop" || lowered == "cookie"
        }

        /// `Name: value`, or `Name: <redacted, N bytes>` for a credential.
        public var description: String {
            "\(name): " + (isCredential ? "<redacted, \(value.utf8.count) bytes>" : value)
        }

        /// The same redacted text as `description`.
        public var debugDescription: String { description }

        /// `dump()` shows the redacted description, never a credential.
        public var customMirror: Mirror { Mirror(self, children: ["header": description], displayStyle: .struct) }
    }

    /// The token endpoint, as given (checked).
    public let url: String
    /// Always `POST` (RFC 6749 §3.2).
    public let method: String
    /// The header fields to send, in order.
    public let headers: [Header]
    /// The exact body bytes: the form-urlencoded parameters.
    public let body: [UInt8]
    /// `authorization_code`, `refresh_token` or `urn:ietf:params:oauth:grant-type:device_code`;
    /// empty for a request that names no grant (device authorization, RFC 8628 §3.1;
    /// revocation, RFC 7009).
    public let grantType: String
    /// The client id the request names (in the body or in the Basic credentials).
    public let clientID: String
    /// How the client authenticates.
    public let authentication: ClientAuthentication

    /// The value of the header `name` (compared case-insensitively), or nil.
    public func header(_ name: String) -> String? {
        let wanted = TokenRequest.lowercased(name)
        return headers.first { TokenRequest.lowercased($0.name) == wanted }?.value
    }

    /// The request that redeems the code of `delivery` (RFC 6749 §4.1.3, RFC 7636 §4.5).
    ///
    /// - Parameters:
    ///   - delivery: the router's delivery of an `authorization_code` outcome.
    ///   - redirectURI: the `redirect_uri` sent in the authorization request, exactly (for
    ///     a loopback receiver, with its port).
    ///   - tokenEndpoint: the provider's token endpoint (`https`).
    ///   - clientID: the client id sent in the authorization request.
    ///   - authentication: ``ClientAuthentication/none`` for a public client (the default).
    ///   - allowingLoopbackHTTP: accept `http` to a loopback IP literal (a local server).
    /// - Throws: `invalid_configuration` for a delivery that is not an authorization code
    ///   of a login, a bad endpoint, client id or secret; `redirect_uri_mismatch` when
    ///   `redirectURI` is not the attempt's redirect URI, or is a loopback one without its port.
    public static func authorizationCode(
        for delivery: Delivery, redirectURI: String, tokenEndpoint: String, clientID: String,
        authentication: ClientAuthentication = .none, allowingLoopbackHTTP: Bool = false
    ) throws(CallbackError) -> TokenRequest {
        let outcome = delivery.outcome
        guard outcome.kind == .authorizationCode, delivery.attempt.purpose == .login, let code = outcome.code, !code.isEmpty else {
            throw CallbackError(
                .invalidConfiguration,
                "a token request redeems an authorization_code delivery of a login; this one is \(outcome.kind.rawValue)")
        }
        let redirect: CallbackURL
        do {
            redirect = try CallbackURL(parsing: redirectURI)
        } catch {
            throw CallbackError(.invalidConfiguration, "the redirect URI is not a valid absolute URI (\(error))")
        }
        // A loopback redirect URI is sent with its port (RFC 8252 §7.3); without one it is
        // not what the browser was sent to, and the server answers invalid_request or invalid_grant.
        guard !(delivery.attempt.redirectURI.isLoopback && redirect.port == nil) else {
            throw CallbackError(
                .redirectURIMismatch,
                "the loopback redirect URI \(redirectURI) has no port: send the receiver's redirectURI, port included (begin the login with router.beginLogin(on:redirectURI: receiver.redirectURI) and delivery.attempt.redirectURI carries it)"
            )
        }
        guard delivery.attempt.redirectURI.matches(redirect) else {
            throw CallbackError(
                .redirectURIMismatch,
                "the redirect URI is not the attempt's (\(delivery.attempt.redirectURI)); send the one the authorization request sent")
        }
        return try TokenRequest(
            endpoint: tokenEndpoint, naming: "token endpoint", grantType: "authorization_code", clientID: clientID,
            authentication: authentication, allowingLoopbackHTTP: allowingLoopbackHTTP,
            parameters: [
                ("code", code), ("redirect_uri", redirectURI), ("code_verifier", delivery.attempt.pkce.verifier),
            ])
    }

    /// A refresh request (RFC 6749 §6): a new access token for `refreshToken`, optionally
    /// for a narrower `scope` (RFC 6749 §3.3 syntax).
    ///
    /// - Throws: `invalid_configuration` for an empty or non-VSCHAR refresh token, a bad
    ///   scope, endpoint, client id or secret.
    public static func refresh(
        _ refreshToken: String, tokenEndpoint: String, clientID: String, scope: String? = nil,
        authentication: ClientAuthentication = .none, allowingLoopbackHTTP: Bool = false
    ) throws(CallbackError) -> TokenRequest {
        guard !refreshToken.isEmpty, refreshToken.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            throw CallbackError(.invalidConfiguration, "the refresh token is empty or not VSCHAR (%x20-7E, RFC 6749 Appendix A.17)")
        }
        var parameters = [("refresh_token", refreshToken)]
        if let scope {
            try AuthorizationRequest.checkScope(scope)
            parameters.append(("scope", scope))
        }
        return try TokenRequest(
            endpoint: tokenEndpoint, naming: "token endpoint", grantType: "refresh_token", clientID: clientID,
            authentication: authentication,
            allowingLoopbackHTTP: allowingLoopbackHTTP, parameters: parameters)
    }

    /// A POST of form parameters to `endpoint` with the client's authentication; a request
    /// that names no grant (`grantType` nil: the device authorization request) has no
    /// `grant_type` parameter.
    init(
        endpoint: String, naming name: String, grantType: String?, clientID: String, authentication: ClientAuthentication,
        allowingLoopbackHTTP: Bool, parameters: [(String, String)]
    ) throws(CallbackError) {
        _ = try TokenRequest.checkEndpoint(endpoint, naming: name, allowingLoopbackHTTP: allowingLoopbackHTTP)
        try AuthorizationRequest.checkClientID(clientID)
        var body = (grantType.map { [("grant_type", $0)] } ?? []) + parameters
        var headers = [
            Header(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            Header(name: "Accept", value: "application/json"),
        ]
        if let secret = authentication.secret {
            guard !secret.isEmpty, secret.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                throw CallbackError(.invalidConfiguration, "the client secret is empty or not VSCHAR (%x20-7E, RFC 6749 Appendix A.2)")
            }
        }
        switch authentication.method {
        case .none:
            body.append(("client_id", clientID))
        case .post:
            body.append(("client_id", clientID))
            body.append(("client_secret", authentication.secret ?? ""))
        case .basic:
            let credentials = FormEncoding.encode(clientID) + ":" + FormEncoding.encode(authentication.secret ?? "")
            headers.append(Header(name: "Authorization", value: "Basic " + Base64.encode(credentials.utf8)))
        }
        self.url = endpoint
        self.method = "POST"
        self.headers = headers
        self.body = Array(FormEncoding.body(body).utf8)
        self.grantType = grantType ?? ""
        self.clientID = clientID
        self.authentication = authentication
    }

    /// An endpoint the client sends secrets to or trusts documents from: `https`, or `http`
    /// to a loopback IP literal when allowed; a host; no userinfo, no fragment.
    static func checkEndpoint(_ text: String, naming name: String, allowingLoopbackHTTP: Bool) throws(CallbackError) -> CallbackURL {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text)
        } catch {
            throw CallbackError(.invalidConfiguration, "the \(name) is not a valid URL (\(error))")
        }
        guard let host = url.host, !host.text.isEmpty else {
            throw CallbackError(.invalidConfiguration, "the \(name) has no host")
        }
        switch url.scheme {
        case "https":
            break
        case "http" where allowingLoopbackHTTP && host.isLoopbackAddress:
            break
        default:
            throw CallbackError(
                .invalidConfiguration,
                allowingLoopbackHTTP
                    ? "the \(name) must be https (or http to a loopback IP literal such as 127.0.0.1)"
                    : "the \(name) must be https (http to a loopback IP literal only when explicitly allowed)")
        }
        if url.userinfo != nil {
            throw CallbackError(.invalidConfiguration, "the \(name) may not contain userinfo (user@)")
        }
        if url.fragment != nil {
            throw CallbackError(.invalidConfiguration, "the \(name) may not contain a fragment (#)")
        }
        return url
    }

    static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The endpoint, grant type, client id and authentication method; the body's length only.
    public var description: String {
        "TokenRequest(\(method) \(url), grant_type: \(grantType.isEmpty ? "(none)" : grantType), client_id: \(clientID), authentication: \(authentication.methodName), body: <redacted, \(body.count) bytes>)"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the body or the credentials.
    public var customMirror: Mirror { Mirror(self, children: ["request": description], displayStyle: .struct) }
}
