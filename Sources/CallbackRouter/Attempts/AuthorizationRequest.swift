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

/// An OAuth 2.0 / OpenID Connect authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1)
/// with PKCE (RFC 7636 §4.3): the URL an app opens in the browser to start a login.
///
/// ```swift
/// let secrets = AttemptSecrets()
/// let request = try AuthorizationRequest(
///     endpoint: "https://example.auth0.com/authorize",
///     clientID: "abc123", redirectURI: "com.example.app:/oauth2redirect",
///     state: secrets.state, pkce: secrets.pkce, nonce: secrets.nonce,
///     extraParameters: [("audience", "https://api.example.com")])
/// request.url
/// // https://example.auth0.com/authorize?response_type=code&client_id=abc123
/// //   &redirect_uri=com.example.app%3A%2Foauth2redirect&scope=openid&state=…
/// //   &code_challenge=…&code_challenge_method=S256&nonce=…&audience=https%3A%2F%2Fapi.example.com
/// ```
///
/// Guarantees:
/// - Every value is percent-encoded with ``PercentEncoding`` (only RFC 3986 unreserved
///   characters stay raw; a space is `%20`), so no value can add, end or override a
///   parameter, and ``CallbackURL`` reads every value back exactly as it was given
///   (tested over generated values with spaces, `+ & = # %`, non-ASCII and emoji).
/// - Nothing is overridden silently: a parameter the endpoint's own query already has,
///   an extra parameter named like one of ``reservedParameterNames``, or an extra
///   parameter given twice is an `invalid_configuration` error. (`resource`, RFC 8707
///   §2, may repeat.)
/// - The endpoint is parsed with ``CallbackURL``, and must be `https`, or `http` to a
///   loopback IP literal (a local test server; as in RFC 8252 §8.3, the name `localhost`
///   is not trusted to be local); it may not carry userinfo
///   or a fragment. Its own query parameters are kept, in front of ours.
/// - The finished URL is parsed again with ``ParsingLimits/default``: a request our own
///   parser would refuse (longer than 16 KiB, more than 64 parameters) is refused here,
///   and so is one that would not decode back to exactly the parameters given.
///
/// Not checked: that the endpoint really is the provider's authorization endpoint, and
/// that the redirect URI is one the provider has registered (the provider refuses it).
/// The redirect URI gets the rules every ``RedirectURIPolicy`` shares (absolute, no
/// fragment, no userinfo, not `javascript:`, `data:`, `file:`, `vbscript:`, `about:`,
/// `blob:`, no repeated query parameter, none named like a response parameter), not a
/// policy such as "native apps only": validate it with ``RedirectURI`` where it is
/// registered. It is sent exactly as given (no case folding): providers compare
/// `redirect_uri` by exact string (RFC 9700 §2.1).
///
/// `description`, `debugDescription` and `dump` show the endpoint and parameter names;
/// values other than `response_type`, `client_id`, `redirect_uri`, `scope` and
/// `code_challenge_method` are redacted.
public struct AuthorizationRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The whole URL to open. Contains the state, the challenge and the nonce.
    public let url: String
    /// The endpoint as given, parsed.
    public let endpoint: CallbackURL
    /// The parameters this request adds to the endpoint's own, in order, unencoded.
    public let parameters: [Parameter]
    /// The `state` sent.
    public let state: String
    /// The PKCE pair whose challenge was sent.
    public let pkce: PKCE
    /// The `nonce` sent, if any.
    public let nonce: String?

    /// The parameters the request itself sets; an extra parameter may not use these names.
    public static let reservedParameterNames: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state",
        "code_challenge", "code_challenge_method", "nonce",
    ]

    /// Extra parameters that may occur more than once (RFC 8707 §2: several `resource`s).
    public static let repeatableParameterNames: Set<String> = ["resource"]

    /// Parameters whose values `description` may show.
    static let publicParameterNames: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "code_challenge_method",
    ]

    /// Builds the request. Throws `invalid_configuration` (the detail says which setting,
    /// never a secret's value) when:
    /// - `endpoint` does not parse, is not `https` (or `http` to a loopback IP literal),
    ///   has no host, or has userinfo or a fragment;
    /// - `clientID` is empty or not VSCHAR (RFC 6749 Appendix A.1);
    /// - `redirectURI` does not parse, or has a fragment, userinfo, a forbidden scheme, a
    ///   repeated or response-named query parameter, or is `http`/`https` without a host;
    /// - `scope` breaks RFC 6749 §3.3 (space-separated tokens of %x21 / %x23-5B / %x5D-7E);
    ///   pass nil to send no scope;
    /// - `state` or `nonce` is empty or longer than 512 bytes, or `nonce` is not VSCHAR
    ///   (a state may hold any characters: it is percent-encoded as UTF-8);
    /// - an extra parameter has an empty name, a reserved name, a name the endpoint's
    ///   query already has, or is given twice;
    /// - the finished URL would be refused by ``CallbackURL`` with default limits.
    public init(
        endpoint: String, clientID: String, redirectURI: String, scope: String? = "openid",
        state: String, pkce: PKCE, nonce: String?,
        extraParameters: [(String, String)] = []
    ) throws(CallbackError) {
        let endpointURL = try AuthorizationRequest.checkEndpoint(endpoint)
        try AuthorizationRequest.checkClientID(clientID)
        try AuthorizationRequest.checkRedirectURI(redirectURI)
        if let scope { try AuthorizationRequest.checkScope(scope) }
        try AttemptSecrets.checkState(state)
        if let nonce { try AttemptSecrets.checkToken(nonce, name: "nonce") }

        var parameters = [
            Parameter(name: "response_type", value: "code"),
            Parameter(name: "client_id", value: clientID),
            Parameter(name: "redirect_uri", value: redirectURI),
        ]
        if let scope { parameters.append(Parameter(name: "scope", value: scope)) }
        parameters.append(Parameter(name: "state", value: state))
        parameters.append(Parameter(name: "code_challenge", value: pkce.challenge))
        parameters.append(Parameter(name: "code_challenge_method", value: PKCE.method))
        if let nonce { parameters.append(Parameter(name: "nonce", value: nonce)) }

        try AuthorizationRequest.append(
            extraParameters, to: &parameters, endpoint: endpointURL, naming: "authorization endpoint",
            reserved: AuthorizationRequest.reservedParameterNames,
            repeatable: AuthorizationRequest.repeatableParameterNames)

        let url = try AuthorizationRequest.requestURL(endpoint: endpointURL, parameters: parameters, naming: "authorization request")

        self.url = url
        self.endpoint = endpointURL
        self.parameters = parameters
        self.state = state
        self.pkce = pkce
        self.nonce = nonce
    }

    /// Builds the request from an attempt's secrets; `includeNonce: false` leaves the
    /// nonce out (a plain OAuth 2.0 server without OpenID Connect).
    public init(
        endpoint: String, clientID: String, redirectURI: String, scope: String? = "openid",
        secrets: AttemptSecrets, includeNonce: Bool = true,
        extraParameters: [(String, String)] = []
    ) throws(CallbackError) {
        try self.init(
            endpoint: endpoint, clientID: clientID, redirectURI: redirectURI, scope: scope,
            state: secrets.state, pkce: secrets.pkce, nonce: includeNonce ? secrets.nonce : nil,
            extraParameters: extraParameters)
    }

    // MARK: Checks

    static func checkEndpoint(_ text: String) throws(CallbackError) -> CallbackURL {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text)
        } catch {
            throw CallbackError(.invalidConfiguration, "the authorization endpoint is not a valid URL (\(error))")
        }
        guard let host = url.host, !host.text.isEmpty else {
            throw CallbackError(.invalidConfiguration, "the authorization endpoint has no host")
        }
        switch url.scheme {
        case "https":
            break
        case "http" where host.isLoopbackAddress:
            break
        default:
            throw CallbackError(
                .invalidConfiguration,
                "the authorization endpoint must be https (http only to a loopback IP literal such as 127.0.0.1 or [::1])")
        }
        if url.userinfo != nil {
            throw CallbackError(.invalidConfiguration, "the authorization endpoint may not contain userinfo (user@)")
        }
        if url.fragment != nil {
            throw CallbackError(.invalidConfiguration, "the authorization endpoint may not contain a fragment (#)")
        }
        return url
    }

    package static func checkClientID(_ clientID: String) throws(CallbackError) {
        guard !clientID.isEmpty else {
            throw CallbackError(.invalidConfiguration, "the client_id is empty")
        }
        guard clientID.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            throw CallbackError(
                .invalidConfiguration,
                "the client_id contains a byte outside VSCHAR (%x20-7E, RFC 6749 Appendix A.1)")
        }
    }

    /// The rules every ``RedirectURIPolicy`` shares (docs/redirect-uris.md). The policy
    /// itself (native, custom scheme only, allowlist) is ``RedirectURI``'s job, done where
    /// the redirect URI is registered; the string is then sent exactly as given, because
    /// providers compare `redirect_uri` by exact string (RFC 9700 §2.1).
    static func checkRedirectURI(_ text: String) throws(CallbackError) {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text)
        } catch {
            throw CallbackError(.invalidConfiguration, "the redirect URI is not a valid absolute URI (\(error))")
        }
        if let violation = RedirectURIPolicy.schemeViolation(url.scheme) {
            throw CallbackError(.invalidConfiguration, "the redirect URI breaks \(violation.detail)")
        }
        if url.userinfo != nil {
            throw CallbackError(.invalidConfiguration, "the redirect URI may not contain userinfo (user@)")
        }
        if url.fragment != nil {
            throw CallbackError(.invalidConfiguration, "the redirect URI may not contain a fragment (RFC 6749 §3.1.2)")
        }
        if url.scheme == "http" || url.scheme == "https", url.host.map({ $0.text.isEmpty }) ?? true {
            throw CallbackError(.invalidConfiguration, "an http(s) redirect URI needs a host")
        }
        let query = url.queryParameters
        if let duplicate = query.firstDuplicate() {
            throw CallbackError(
                .invalidConfiguration,
                "the redirect URI's query repeats '\(ParameterName.shown(duplicate.name))' (RFC 6749 §3.1)")
        }
        if let reserved = query.names.first(where: { KnownField.responseParameters.contains($0) }) {
            throw CallbackError(
                .invalidConfiguration,
                "the redirect URI's query uses '\(reserved)', a name of the provider's response: every callback would repeat it")
        }
    }

    /// RFC 6749 §3.3: `scope-token *( SP scope-token )`, `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
    package static func checkScope(_ scope: String) throws(CallbackError) {
        let bytes = Array(scope.utf8)
        guard !bytes.isEmpty else {
            throw CallbackError(.invalidConfiguration, "the scope is empty (pass none to send no scope)")
        }
        for (i, byte) in bytes.enumerated() {
            if byte == 0x20 {
                guard i > 0, i < bytes.count - 1, bytes[i - 1] != 0x20 else {
                    throw CallbackError(
                        .invalidConfiguration,
                        "the scope must be tokens separated by single spaces, with none at either end (RFC 6749 §3.3)")
                }
            } else if !(byte == 0x21 || (0x23 ... 0x5B).contains(byte) || (0x5D ... 0x7E).contains(byte)) {
                throw CallbackError(
                    .invalidConfiguration,
                    "the scope contains a character RFC 6749 §3.3 does not allow in a scope token (byte \(i))")
            }
        }
    }

    // MARK: Printing

    /// Appends a caller's extra parameters to a request's own, refusing (all with
    /// `invalid_configuration`) a request parameter the endpoint's query already has, an
    /// extra one with an empty name, one in `reserved` (the request sets it itself), one the
    /// endpoint's query already has, and one given twice (RFC 6749 §3.1), unless its name is
    /// in `repeatable`. `naming` is the endpoint's name in the errors. Shared by the
    /// authorization and end-session requests.
    static func append(
        _ extraParameters: [(String, String)], to parameters: inout [Parameter], endpoint: CallbackURL,
        naming: String, reserved: Set<String>, repeatable: Set<String> = []
    ) throws(CallbackError) {
        let endpointNames = Set(endpoint.queryParameters.names)
        for parameter in parameters where endpointNames.contains(parameter.name) {
            throw CallbackError(
                .invalidConfiguration,
                "the \(naming)'s query already has '\(parameter.name)', which the request sets itself")
        }
        var extraNames = Set<String>()
        for (name, value) in extraParameters {
            let shown = ParameterName.shown(name)
            guard !name.isEmpty else {
                throw CallbackError(.invalidConfiguration, "an extra parameter has an empty name")
            }
            guard !reserved.contains(name) else {
                throw CallbackError(
                    .invalidConfiguration,
                    "the extra parameter '\(shown)' would override the request's own; set it through its own argument")
            }
            let repeats = repeatable.contains(name)
            guard repeats || !endpointNames.contains(name) else {
                throw CallbackError(.invalidConfiguration, "the extra parameter '\(shown)' is already in the \(naming)'s query")
            }
            guard extraNames.insert(name).inserted || repeats else {
                throw CallbackError(
                    .invalidConfiguration, "the extra parameter '\(shown)' is given more than once")
            }
            parameters.append(Parameter(name: name, value: value))
        }
    }

    /// `endpoint` with `parameters` appended to its query, percent-encoded, then read back
    /// by our own parser: the printer/parser round trip, checked on every build (a dozen
    /// parameters, once per login or logout), so a request that would not say exactly what
    /// was given is never returned. `naming` is the request's name in the errors.
    static func requestURL(endpoint: CallbackURL, parameters: [Parameter], naming: String) throws(CallbackError) -> String {
        var url = urlWithoutQuery(endpoint) + "?"
        if let existing = endpoint.query, !existing.isEmpty {
            url += existing
            if !existing.hasSuffix("&") { url += "&" }
        }
        for (index, parameter) in parameters.enumerated() {
            if index > 0 { url += "&" }
            url += PercentEncoding.encode(parameter.name) + "=" + PercentEncoding.encode(parameter.value)
        }
        let reparsed: CallbackURL
        do {
            reparsed = try CallbackURL(parsing: url)
        } catch {
            throw CallbackError(
                .invalidConfiguration,
                "the \(naming) URL would be refused by the callback parser (\(error.reason): \(error.detail))")
        }
        guard Array(reparsed.queryParameters.suffix(parameters.count)) == parameters else {
            throw CallbackError(
                .invalidConfiguration,
                "the built \(naming) does not decode back to its parameters (an encoder bug; please report it)")
        }
        return url
    }

    static func urlWithoutQuery(_ url: CallbackURL) -> String {
        var out = url.scheme + "://" + (url.host?.text ?? "")
        if let port = url.port { out += ":" + String(port) }
        return out + url.path
    }

    /// The endpoint and the parameters, with every value that is not public (state, nonce,
    /// challenge, unknown extras) redacted to its length.
    public var description: String {
        var shown: [String] = endpoint.queryParameters.map(\.description)
        for parameter in parameters {
            if AuthorizationRequest.publicParameterNames.contains(parameter.name) {
                shown.append(parameter.name + ": " + parameter.value)
            } else {
                shown.append(ParameterName.shown(parameter.name) + ": <redacted, \(parameter.value.utf8.count) bytes>")
            }
        }
        return "AuthorizationRequest(" + AuthorizationRequest.urlWithoutQuery(endpoint) + ", [" + shown.joined(separator: ", ") + "])"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the request's URL.
    public var customMirror: Mirror { Mirror(self, children: ["request": description], displayStyle: .struct) }
}
