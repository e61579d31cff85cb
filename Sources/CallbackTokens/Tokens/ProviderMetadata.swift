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

/// An authorization server's metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2), read
/// and checked against the issuer the app asked for.
///
/// ```swift
/// let url = try ProviderMetadata.discoveryURL(issuer: "https://op.example.com")
/// // https://op.example.com/.well-known/openid-configuration; fetch it, then:
/// let metadata = try ProviderMetadata(parsing: body, expectedIssuer: "https://op.example.com")
/// Route("op", redirectURI: …, dialect: .oauth2, issuer: metadata.issuer,
///       requiresIssuer: metadata.authorizationResponseIssParameterSupported)
/// ```
///
/// Checked, each with its reason code:
/// - the expected issuer is an `https` URL (loopback `http` when allowed) with no query,
///   fragment or userinfo (`invalid_configuration`);
/// - the document is strict JSON (the JSON reader's refusals, docs/tokens.md), an object, at most 64 KiB;
/// - `issuer` is identical to the expected one, byte for byte (OIDC Discovery §4.3, RFC
///   8414 §3.3: the mix-up defence; `issuer_missing`, `issuer_mismatch`);
/// - `authorization_endpoint`, `token_endpoint` and `response_types_supported` are present
///   (`missing_parameter`; RFC 8414 §2 and OpenID Connect Discovery 1.0 §3 require all three,
///   and AppAuth-iOS refuses a document without them); from an OpenID provider's document
///   (`style` ``DiscoveryStyle/openIDConnect``, the default), also `jwks_uri`,
///   `subject_types_supported` and `id_token_signing_alg_values_supported` (OpenID Connect
///   Discovery 1.0 §3: REQUIRED); every list is an array of strings (`invalid_parameter`), and
///   every endpoint named (those two, `jwks_uri`, `userinfo_endpoint`,
///   `end_session_endpoint`, `revocation_endpoint`) is an `https` URL, or `http` to a
///   loopback IP literal only when `allowingLoopbackHTTP` is true (`scheme_not_allowed`;
///   not a URL: `invalid_parameter`);
/// - `code_challenge_methods_supported`, when present, contains `S256` (`invalid_parameter`).
///   When absent it is accepted unless `requiringS256` is true: RFC 8414 §2 reads its
///   absence as "no PKCE", but providers that enforce PKCE omit it (Microsoft Entra ID),
///   and the authorization request sends S256 either way;
/// - `authorization_response_iss_parameter_supported`, when present, is a boolean
///   (`invalid_parameter`); `true` means the callback carries `iss` (RFC 9207 §3), so a
///   route should require it.
public struct ProviderMetadata: Sendable, CustomStringConvertible {
    /// `issuer`: identical to the expected issuer.
    public let issuer: String
    /// `authorization_endpoint`: where the browser is sent to log in (checked https).
    public let authorizationEndpoint: String
    /// `token_endpoint`: where the code is redeemed (checked https).
    public let tokenEndpoint: String
    /// `jwks_uri`, when present.
    public let jwksURI: String?
    /// `userinfo_endpoint`, when present.
    public let userinfoEndpoint: String?
    /// `end_session_endpoint` (RP-Initiated Logout), when present.
    public let endSessionEndpoint: String?
    /// `revocation_endpoint` (RFC 7009), when present.
    public let revocationEndpoint: String?
    /// The device authorization endpoint (RFC 8628 §4), if the provider offers the device flow.
    public let deviceAuthorizationEndpoint: String?
    /// `grant_types_supported` (RFC 8414 §2), if listed; absent means `authorization_code`
    /// and `implicit` by that RFC's default.
    public let grantTypesSupported: [String]?
    /// `code_challenge_methods_supported`, when present (then it contains `S256`).
    public let codeChallengeMethodsSupported: [String]?
    /// `token_endpoint_auth_methods_supported`, when present.
    public let tokenEndpointAuthMethodsSupported: [String]?
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §3); false when absent.
    public let authorizationResponseIssParameterSupported: Bool
    /// `scopes_supported`, when present (a provider MAY leave some supported scopes out:
    /// OpenID Connect Discovery 1.0 §3).
    public let scopesSupported: [String]?
    /// `response_types_supported` (`code` among them for this flow): always present in a
    /// document that was read (its absence is refused); optional for source compatibility.
    public let responseTypesSupported: [String]?
    /// `subject_types_supported` (`public`, `pairwise`): present in an OpenID provider's
    /// document, when present in an RFC 8414 one.
    public let subjectTypesSupported: [String]?
    /// `id_token_signing_alg_values_supported`: the JWS `alg` values the provider signs ID
    /// tokens with; present in an OpenID provider's document, when present in an RFC 8414
    /// one. ``idTokenSigningAlgorithms`` gives the list to check ID tokens against.
    public let idTokenSigningAlgValuesSupported: [String]?

    /// The `alg` values an ID token from this provider may carry: its
    /// `id_token_signing_alg_values_supported`, or, when an RFC 8414 document does not list
    /// them, ``TokenSet/defaultSigningAlgorithms`` (RS256, OpenID Connect Core §3.1.3.7 item 7).
    /// Pass it as `signingAlgorithms` to ``TokenSet/checkIDToken(for:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:)``.
    public var idTokenSigningAlgorithms: [String] { idTokenSigningAlgValuesSupported ?? TokenSet.defaultSigningAlgorithms }

    /// Reads and checks a metadata document.
    ///
    /// - Parameters:
    ///   - body: the document's bytes (UTF-8 JSON).
    ///   - expectedIssuer: the issuer the app was configured with, exactly.
    ///   - allowingLoopbackHTTP: accept `http` to a loopback IP literal for the issuer and
    ///     the endpoints (a local test server).
    ///   - requiringS256: refuse a document that does not list `code_challenge_methods_supported`.
    ///   - style: where the document was fetched from: ``DiscoveryStyle/openIDConnect`` (the
    ///     default, as for ``discoveryURL(issuer:style:allowingLoopbackHTTP:)``) is an OpenID
    ///     provider's document, which must also name `jwks_uri`, `subject_types_supported`
    ///     and `id_token_signing_alg_values_supported`; ``DiscoveryStyle/oauthAuthorizationServer``
    ///     is an RFC 8414 document, where they are optional.
    public init(
        parsing body: some Collection<UInt8>, expectedIssuer: String, allowingLoopbackHTTP: Bool = false, requiringS256: Bool = false,
        style: DiscoveryStyle = .openIDConnect
    ) throws(CallbackError) {
        let openIDProvider = style == .openIDConnect
        func missing(_ name: String) -> CallbackError {
            CallbackError(
                .missingParameter,
                "the metadata document has no \(name), which \(openIDProvider ? "OpenID Connect Discovery 1.0 §3" : "RFC 8414 §2") requires: the provider's discovery document is incomplete; tell its operator"
            )
        }
        _ = try ProviderMetadata.checkIssuer(expectedIssuer, allowingLoopbackHTTP: allowingLoopbackHTTP)
        let document = try JSONReader.parse(body)
        guard let object = document.object else {
            throw CallbackError(.invalidParameter, at: 0, "the metadata document is a JSON \(document.typeName), not an object")
        }
        guard let issuerValue = object["issuer"] else {
            throw CallbackError(.issuerMissing, "the metadata document has no issuer")
        }
        guard let issuer = issuerValue.string, issuer == expectedIssuer else {
            // Issuers are public identifiers: both are named (as kubelogin's `expected "X" got "Y"`).
            let published = issuerValue.string.map { CallbackError.printable($0) } ?? "a JSON \(issuerValue.typeName)"
            throw CallbackError(
                .issuerMismatch,
                "the metadata's issuer is \(published), not the expected issuer \(CallbackError.printable(expectedIssuer))")
        }
        func endpoint(_ name: String, required: Bool) throws(CallbackError) -> String? {
            guard let value = object[name] else {
                if required { throw missing(name) }
                return nil
            }
            guard let text = value.string, let url = try? CallbackURL(parsing: text), let host = url.host, !host.text.isEmpty,
                url.fragment == nil, url.userinfo == nil
            else {
                throw CallbackError(.invalidParameter, "the metadata's \(name) is not an absolute URL with a host and no fragment")
            }
            guard url.scheme == "https" || (url.scheme == "http" && allowingLoopbackHTTP && host.isLoopbackAddress) else {
                throw CallbackError(
                    .schemeNotAllowed,
                    "the metadata's \(name) is not https\(allowingLoopbackHTTP ? " (or http to a loopback IP literal)" : "")")
            }
            return text
        }
        func strings(_ name: String, required: Bool = false) throws(CallbackError) -> [String]? {
            guard let value = object[name] else {
                if required { throw missing(name) }
                return nil
            }
            guard let array = value.array else {
                throw CallbackError(.invalidParameter, "the metadata's \(name) is not an array of strings")
            }
            var out: [String] = []
            for element in array {
                guard let text = element.string else {
                    throw CallbackError(.invalidParameter, "the metadata's \(name) is not an array of strings")
                }
                out.append(text)
            }
            return out
        }
        self.issuer = issuer
        self.authorizationEndpoint = try endpoint("authorization_endpoint", required: true) ?? ""
        self.tokenEndpoint = try endpoint("token_endpoint", required: true) ?? ""
        self.jwksURI = try endpoint("jwks_uri", required: openIDProvider)
        self.userinfoEndpoint = try endpoint("userinfo_endpoint", required: false)
        self.endSessionEndpoint = try endpoint("end_session_endpoint", required: false)
        self.revocationEndpoint = try endpoint("revocation_endpoint", required: false)
        self.deviceAuthorizationEndpoint = try endpoint("device_authorization_endpoint", required: false)
        let methods = try strings("code_challenge_methods_supported")
        if let methods, !methods.contains(PKCE.method) {
            throw CallbackError(.invalidParameter, "the metadata's code_challenge_methods_supported does not contain S256")
        }
        if methods == nil, requiringS256 {
            throw CallbackError(.invalidParameter, "the metadata does not list code_challenge_methods_supported, and S256 is required")
        }
        self.codeChallengeMethodsSupported = methods
        self.tokenEndpointAuthMethodsSupported = try strings("token_endpoint_auth_methods_supported")
        self.scopesSupported = try strings("scopes_supported")
        self.responseTypesSupported = try strings("response_types_supported", required: true)
        self.subjectTypesSupported = try strings("subject_types_supported", required: openIDProvider)
        self.idTokenSigningAlgValuesSupported = try strings("id_token_signing_alg_values_supported", required: openIDProvider)
        self.grantTypesSupported = try strings("grant_types_supported")
        switch object["authorization_response_iss_parameter_supported"]?.storage {
        case nil: self.authorizationResponseIssParameterSupported = false
        case .bool(let value)?: self.authorizationResponseIssParameterSupported = value
        default:
            throw CallbackError(.invalidParameter, "the metadata's authorization_response_iss_parameter_supported is not a boolean")
        }
    }

    /// Which well-known location a document is fetched from.
    public struct DiscoveryStyle: Sendable, Hashable {
        let wellKnown: String
        let insertsBeforePath: Bool

        /// OpenID Connect Discovery 1.0 §4: the issuer, its trailing `/` removed, then
        /// `/.well-known/openid-configuration` (`https://op.example.com/tenant` →
        /// `https://op.example.com/tenant/.well-known/openid-configuration`).
        public static let openIDConnect = DiscoveryStyle(wellKnown: "openid-configuration", insertsBeforePath: false)
        /// RFC 8414 §3.1: `/.well-known/oauth-authorization-server` inserted between the host
        /// and the issuer's path, its trailing `/` removed (`https://as.example.com/tenant` →
        /// `https://as.example.com/.well-known/oauth-authorization-server/tenant`).
        public static let oauthAuthorizationServer = DiscoveryStyle(wellKnown: "oauth-authorization-server", insertsBeforePath: true)
    }

    /// The URL of the issuer's metadata document.
    ///
    /// - Throws: `invalid_configuration` when the issuer is not an `https` URL (or loopback
    ///   `http` when allowed), or has a query, a fragment or userinfo (RFC 8414 §2).
    public static func discoveryURL(
        issuer: String, style: DiscoveryStyle = .openIDConnect, allowingLoopbackHTTP: Bool = false
    ) throws(CallbackError) -> String {
        let url = try checkIssuer(issuer, allowingLoopbackHTTP: allowingLoopbackHTTP)
        var origin = url.scheme + "://" + (url.host?.text ?? "")
        if let port = url.port { origin += ":" + String(port) }
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        let suffix = "/.well-known/" + style.wellKnown
        return style.insertsBeforePath ? origin + suffix + path : origin + path + suffix
    }

    static func checkIssuer(_ issuer: String, allowingLoopbackHTTP: Bool) throws(CallbackError) -> CallbackURL {
        let url = try TokenRequest.checkEndpoint(issuer, naming: "issuer", allowingLoopbackHTTP: allowingLoopbackHTTP)
        if url.query != nil {
            throw CallbackError(.invalidConfiguration, "the issuer may not contain a query (RFC 8414 §2)")
        }
        return url
    }

    /// The issuer and endpoints (none is secret).
    public var description: String {
        "ProviderMetadata(issuer: \(issuer), authorization_endpoint: \(authorizationEndpoint), token_endpoint: \(tokenEndpoint), iss parameter: \(authorizationResponseIssParameterSupported))"
    }
}
