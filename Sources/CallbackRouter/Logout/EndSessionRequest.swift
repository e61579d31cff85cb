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

/// An OpenID Connect RP-Initiated Logout 1.0 request (§2): the URL an app opens in the
/// browser to end the user's session at the provider, which then sends the browser back to
/// the post-logout redirect URI with the request's `state`.
///
/// ```swift
/// let request = try EndSessionRequest(
///     endpoint: "https://login.example.com/oidc/logout",
///     postLogoutRedirectURI: "com.example.app:/oauth2redirect",
///     state: AttemptSecrets.randomToken(), idTokenHint: idToken, clientID: "abc123")
/// request.url
/// // https://login.example.com/oidc/logout?id_token_hint=…&client_id=abc123
/// //   &post_logout_redirect_uri=com.example.app%3A%2Foauth2redirect&state=…
/// ```
///
/// Guarantees (as for ``AuthorizationRequest``):
/// - Every value is percent-encoded with ``PercentEncoding``: no value can add, end or
///   override a parameter; the finished URL is parsed again and must decode back to
///   exactly the parameters given.
/// - Nothing is overridden silently: an extra parameter named like one the request sets
///   (``reservedParameterNames``), one the endpoint's query already has, or one given
///   twice is an `invalid_configuration` error.
/// - The endpoint must be `https` (or `http` to a loopback IP literal), without userinfo
///   or fragment. A post-logout redirect needs `id_token_hint` or `client_id` (§2: the
///   provider must know which client's registered URIs to check; Keycloak refuses
///   the redirect otherwise).
/// - `id_token_hint` must look like a compact JWS or JWE (three or five base64url parts);
///   errors never show it.
///
/// ``Style/auth0ReturnTo`` builds Auth0's `/v2/logout` request instead: `client_id` and
/// `returnTo`, no state (Auth0 does not echo one) and no `id_token_hint` (that endpoint
/// takes none; sending it would only spread the token into server logs).
///
/// Not checked: that the endpoint is the provider's `end_session_endpoint`, and that the
/// post-logout redirect URI is registered there (the provider refuses it, usually with an
/// error page rather than a redirect: the app then never gets a callback).
///
/// `description`, `debugDescription` and `dump` show the endpoint and parameter names;
/// only `client_id`, `post_logout_redirect_uri`, `returnTo` and `ui_locales` show values.
public struct EndSessionRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Which end-session protocol the request speaks.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// OpenID Connect RP-Initiated Logout 1.0: `id_token_hint`, `logout_hint`,
        /// `client_id`, `post_logout_redirect_uri`, `state`, `ui_locales`.
        case rpInitiated = "rp-initiated"
        /// Auth0's `/v2/logout`: `client_id` and `returnTo`; the provider returns no state,
        /// so the route must accept logouts without state (``Route/acceptsLogoutWithoutState``).
        case auth0ReturnTo = "auth0-return-to"
    }

    /// The whole URL to open. Contains the `id_token_hint` (a secret) when one was given.
    public let url: String
    /// The endpoint as given, parsed.
    public let endpoint: CallbackURL
    /// The parameters this request adds to the endpoint's own, in order, unencoded.
    public let parameters: [Parameter]
    /// The `state` sent; nil for ``Style/auth0ReturnTo``.
    public let state: String?
    /// Which protocol the request speaks.
    public let style: Style

    /// The parameters the request itself sets; an extra parameter may not use these names.
    public static let reservedParameterNames: Set<String> = [
        "id_token_hint", "logout_hint", "client_id", "post_logout_redirect_uri", "state", "ui_locales", "returnTo",
    ]

    static let publicParameterNames: Set<String> = ["client_id", "post_logout_redirect_uri", "returnTo", "ui_locales"]

    /// The longest `id_token_hint` accepted: the parser's default limit for one value.
    public static let maximumIDTokenHintLength = 8192

    /// Builds the request. Throws `invalid_configuration` (the detail names the setting,
    /// never a secret's value) when the endpoint is not `https` (or `http` to a loopback IP
    /// literal) or has userinfo or a fragment; `postLogoutRedirectURI` breaks the rules
    /// every redirect URI shares; neither `idTokenHint` nor `clientID` is given; the hint is
    /// not a compact JWS/JWE or is longer than 8 KiB; `clientID` or `logoutHint` is empty or
    /// not VSCHAR; `uiLocales` is not space-separated language tags; `state` is empty or
    /// longer than 512 bytes; an extra parameter is empty-named, reserved, already in the
    /// endpoint's query or repeated; or the finished URL would be refused by
    /// ``CallbackURL``. For ``Style/auth0ReturnTo``: also when `clientID` is missing, or
    /// `state`, `idTokenHint` or `logoutHint` is given.
    public init(
        endpoint: String, postLogoutRedirectURI: String, state: String?, idTokenHint: String? = nil,
        clientID: String? = nil, logoutHint: String? = nil, uiLocales: String? = nil,
        extraParameters: [(String, String)] = [], style: Style = .rpInitiated
    ) throws(CallbackError) {
        let endpointURL = try EndSessionRequest.checkEndpoint(endpoint)
        try AuthorizationRequest.checkRedirectURI(postLogoutRedirectURI)
        if let idTokenHint { try EndSessionRequest.checkIDTokenHint(idTokenHint) }
        if let clientID { try AuthorizationRequest.checkClientID(clientID) }
        if let logoutHint { try AttemptSecrets.checkToken(logoutHint, name: "logout_hint") }
        if let uiLocales { try EndSessionRequest.checkUILocales(uiLocales) }
        if let state { try AttemptSecrets.checkState(state) }

        var parameters: [Parameter] = []
        switch style {
        case .rpInitiated:
            guard idTokenHint != nil || clientID != nil else {
                throw CallbackError(
                    .invalidConfiguration,
                    "a post-logout redirect needs an id_token_hint or a client_id (RP-Initiated Logout 1.0 §2), or the provider cannot check the redirect URI"
                )
            }
            guard let state else {
                throw CallbackError(
                    .invalidConfiguration,
                    "an RP-Initiated logout request needs a state: it is what ties the callback to this logout")
            }
            if let idTokenHint { parameters.append(Parameter(name: "id_token_hint", value: idTokenHint)) }
            if let logoutHint { parameters.append(Parameter(name: "logout_hint", value: logoutHint)) }
            if let clientID { parameters.append(Parameter(name: "client_id", value: clientID)) }
            parameters.append(Parameter(name: "post_logout_redirect_uri", value: postLogoutRedirectURI))
            parameters.append(Parameter(name: "state", value: state))
        case .auth0ReturnTo:
            guard let clientID else {
                throw CallbackError(.invalidConfiguration, "Auth0's returnTo logout needs the client_id")
            }
            guard state == nil, idTokenHint == nil, logoutHint == nil else {
                throw CallbackError(
                    .invalidConfiguration,
                    "Auth0's returnTo logout (/v2/logout) takes no state, id_token_hint or logout_hint; use the rp-initiated style with Auth0's /oidc/logout for those"
                )
            }
            parameters.append(Parameter(name: "client_id", value: clientID))
            parameters.append(Parameter(name: "returnTo", value: postLogoutRedirectURI))
        }
        if let uiLocales { parameters.append(Parameter(name: "ui_locales", value: uiLocales)) }

        try AuthorizationRequest.append(
            extraParameters, to: &parameters, endpoint: endpointURL, naming: "end-session endpoint",
            reserved: EndSessionRequest.reservedParameterNames)

        let url = try AuthorizationRequest.requestURL(endpoint: endpointURL, parameters: parameters, naming: "end-session request")
        self.url = url
        self.endpoint = endpointURL
        self.parameters = parameters
        self.state = style == .rpInitiated ? state : nil
        self.style = style
    }

    // MARK: Checks

    static func checkEndpoint(_ text: String) throws(CallbackError) -> CallbackURL {
        do {
            return try AuthorizationRequest.checkEndpoint(text)
        } catch {
            // The same rules, named for this endpoint.
            throw CallbackError(
                .invalidConfiguration,
                error.detail.replacingFirst("the authorization endpoint", with: "the end-session endpoint"))
        }
    }

    /// A compact JWS (three parts) or JWE (five parts) of base64url characters.
    static func checkIDTokenHint(_ hint: String) throws(CallbackError) {
        let bytes = hint.utf8
        guard !bytes.isEmpty else { throw CallbackError(.invalidConfiguration, "the id_token_hint is empty") }
        guard bytes.count <= maximumIDTokenHintLength else {
            throw CallbackError(
                .invalidConfiguration,
                "the id_token_hint is \(bytes.count) bytes long; at most \(maximumIDTokenHintLength) are accepted")
        }
        // JWS: header.payload.signature; JWE: five parts. Every part non-empty (an
        // unsecured JWS has an empty signature, and is no ID token a provider issues).
        let parts = hint.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 5, parts.allSatisfy({ !$0.isEmpty }) else {
            throw CallbackError(
                .invalidConfiguration,
                "the id_token_hint is not a compact JWT (three or five non-empty base64url parts separated by '.')")
        }
        guard parts.allSatisfy({ $0.allSatisfy(Base64URL.isAlphabet) }) else {
            throw CallbackError(
                .invalidConfiguration,
                "the id_token_hint is not a compact JWT: it contains a character outside base64url and '.'")
        }
    }

    /// OIDC Core §3.1.2.1: space-separated BCP 47 tags (ALPHA, DIGIT, `-`).
    static func checkUILocales(_ value: String) throws(CallbackError) {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 512 else {
            throw CallbackError(.invalidConfiguration, "ui_locales must be 1 to 512 bytes of language tags")
        }
        for (i, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"):
                continue
            case 0x20 where i > 0 && i < bytes.count - 1 && bytes[i - 1] != 0x20:
                continue
            default:
                throw CallbackError(
                    .invalidConfiguration,
                    "ui_locales must be BCP 47 language tags separated by single spaces (byte \(i))")
            }
        }
    }

    // MARK: Printing

    /// The endpoint and the parameters; values other than the public ones redacted.
    public var description: String {
        var shown: [String] = endpoint.queryParameters.map(\.description)
        for parameter in parameters {
            if EndSessionRequest.publicParameterNames.contains(parameter.name) {
                shown.append(parameter.name + ": " + parameter.value)
            } else {
                shown.append(ParameterName.shown(parameter.name) + ": <redacted, \(parameter.value.utf8.count) bytes>")
            }
        }
        return "EndSessionRequest(" + AuthorizationRequest.urlWithoutQuery(endpoint) + ", [" + shown.joined(separator: ", ") + "])"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never the URL.
    public var customMirror: Mirror { Mirror(self, children: ["request": description], displayStyle: .struct) }
}

extension String {
    /// The string with the first occurrence of `target` replaced (no Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return self }
        for start in 0 ... (bytes.count - needle.count) where Array(bytes[start ..< start + needle.count]) == needle {
            return String(decoding: bytes[..<start] + Array(replacement.utf8) + bytes[(start + needle.count)...], as: UTF8.self)
        }
        return self
    }
}
