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

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small OpenID provider on a ``LocalHTTPServer`` for the sign-in's tests: discovery, an
/// authorization endpoint that redirects at once (with a code, or with `error`), and a
/// token endpoint that answers a code with an ID token carrying the request's nonce and a
/// refresh token with the next of ``refreshAnswers``. Every authorization and token
/// request is recorded as its form fields.
final class TestProvider: @unchecked Sendable {
    static let clientID = "sign-in-tests"
    static let code = "SplxlOBeZQQYbYS6WxSbIA"

    /// What the authorization endpoint answers: a code, or this `error`.
    var authorizationError: String?
    /// The refresh token of each refresh answer in turn (nil: none sent, not rotated).
    var refreshAnswers: [String?] = []
    /// Whether a refresh answer carries an ID token.
    var refreshSendsIDToken = true
    /// The `auth_time` of the login's ID token (none when nil).
    var loginAuthTime: Int?
    /// The `sub` and `auth_time` of a refresh answer's ID token.
    var refreshSubject = "alice"
    var refreshAuthTime: Int?
    /// The `alg` its discovery document lists and its ID tokens carry.
    var signingAlgorithm = "RS256"

    private let lock = NSLock()
    private var nonce = ""
    private var recordedAuthorizations: [[String: String]] = []
    private var recordedTokenRequests: [[String: String]] = []
    private(set) var server: LocalHTTPServer!

    var issuer: String { server.baseURL }
    var authorizations: [[String: String]] { locked { recordedAuthorizations } }
    var tokenRequests: [[String: String]] { locked { recordedTokenRequests } }

    init() throws {
        server = try LocalHTTPServer { [unowned self] base, request in self.answer(request, base: base) }
    }

    deinit { server.stop() }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Remembers the nonce an app sent without the authorization endpoint (the
    /// ``SignIn/redirect(issuer:clientID:redirectURI:scope:options:open:)`` tests).
    func expectNonce(_ value: String) { locked { nonce = value } }

    static func fields(_ query: String) -> [String: String] {
        var components = URLComponents()
        components.percentEncodedQuery = query.replacingOccurrences(of: "+", with: "%20")
        var result: [String: String] = [:]
        for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    func idToken(base: String, nonce: String?, subject: String = "alice", authTime: Int? = nil) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let nonceMember = nonce.map { #","nonce":"\#($0)""# } ?? ""
        let authTimeMember = authTime.map { #","auth_time":\#($0)"# } ?? ""
        let payload =
            #"{"iss":"\#(base)","sub":"\#(subject)","aud":"\#(Self.clientID)","exp":\#(now + 600),"iat":\#(now)\#(nonceMember)\#(authTimeMember)}"#
        return Self.base64URL(#"{"alg":"\#(signingAlgorithm)","typ":"JWT"}"#) + "." + Self.base64URL(payload) + ".c2lnbmF0dXJl"
    }

    private func answer(_ request: [UInt8], base: String) -> [UInt8] {
        guard let end = LocalHTTPServer.headEnd(request) else { return LocalHTTPServer.response(status: "400 Bad Request", body: "") }
        let head = String(decoding: request[0 ..< end], as: UTF8.self)
        let line = head.split(separator: "\r\n").first.map(String.init) ?? ""
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        let json = ["Content-Type: application/json", "Cache-Control: no-store"]
        switch path {
        case "/.well-known/openid-configuration":
            return LocalHTTPServer.response(
                status: "200 OK", headers: json,
                body:
                    #"{"issuer":"\#(base)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token","jwks_uri":"\#(base)/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["\#(signingAlgorithm)"],"code_challenge_methods_supported":["S256"]}"#
            )
        case "/authorize":
            let fields = Self.fields(query)
            locked {
                recordedAuthorizations.append(fields)
                nonce = fields["nonce"] ?? ""
            }
            let redirect = fields["redirect_uri"] ?? ""
            let state = fields["state"] ?? ""
            let answer = authorizationError.map { "error=\($0)" } ?? "code=\(Self.code)"
            return LocalHTTPServer.response(status: "302 Found", headers: ["Location: \(redirect)?\(answer)&state=\(state)"], body: "")
        case "/token":
            let body = Self.fields(String(decoding: request[(end + 4)...], as: UTF8.self))
            let nonce: String? = locked {
                recordedTokenRequests.append(body)
                return self.nonce
            }
            if body["grant_type"] == "refresh_token" {
                let refreshToken: String? = locked { refreshAnswers.isEmpty ? nil : refreshAnswers.removeFirst() }
                let (subject, authTime) = locked { (refreshSubject, refreshAuthTime) }
                let idToken =
                    refreshSendsIDToken ? #","id_token":"\#(idToken(base: base, nonce: nil, subject: subject, authTime: authTime))""# : ""
                let refresh = refreshToken.map { #","refresh_token":"\#($0)""# } ?? ""
                return LocalHTTPServer.response(
                    status: "200 OK", headers: json,
                    body:
                        #"{"access_token":"access-\#(tokenRequests.count)","token_type":"Bearer","expires_in":3600\#(refresh)\#(idToken)}"#)
            }
            guard body["code"] == Self.code else {
                return LocalHTTPServer.response(status: "400 Bad Request", headers: json, body: #"{"error":"invalid_grant"}"#)
            }
            return LocalHTTPServer.response(
                status: "200 OK", headers: json,
                body:
                    #"{"access_token":"access-1","token_type":"Bearer","expires_in":3600,"refresh_token":"refresh-1","scope":"openid profile","id_token":"\#(idToken(base: base, nonce: nonce, authTime: loginAuthTime))"}"#
            )
        default:
            return LocalHTTPServer.response(status: "404 Not Found", body: "")
        }
    }
}
