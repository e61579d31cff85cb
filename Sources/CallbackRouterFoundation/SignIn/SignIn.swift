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

/// A finished OpenID Connect sign-in: the tokens and the ID token's checked claims, and
/// what a refresh needs (the issuer, the client id, the token endpoint).
///
/// Made by one call, ``loopback(issuer:clientID:scope:options:open:)`` (a desktop app or a
/// command-line tool: the RFC 8252 loopback receiver) or
/// ``redirect(issuer:clientID:redirectURI:scope:options:open:)`` (an app that receives its
/// callback itself: `ASWebAuthenticationSession`, `onOpenURL`), each built only from the
/// public pieces: discovery, the router's attempt (state, PKCE, nonce), the receiver, the
/// token request through `URLSession` and the ID token check.
///
/// It is `Codable` (the issuer, the client id, the token endpoint and the `TokenSet`) so
/// that an app can keep it in the Keychain or the Secret Service (never `UserDefaults`: it
/// holds the tokens) and ``refresh(options:)`` it after a restart. Its `description` and
/// `dump` never show a token.
public struct SignIn: Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The issuer, as discovery checked it.
    public let issuer: String
    /// The client id the tokens were issued to.
    public let clientID: String
    /// The token endpoint discovery named, where ``refresh(options:)`` goes.
    public let tokenEndpoint: String
    /// The `alg` values the provider signs ID tokens with (discovery's
    /// `id_token_signing_alg_values_supported`; RS256 when it lists none, OpenID Connect
    /// Core §3.1.3.7): a refreshed ID token is checked against them, as the sign-in's was.
    public let signingAlgorithms: [String]
    /// The tokens: the sign-in's, brought up to date by each refresh.
    public internal(set) var tokens: TokenSet
    /// The ID token's claims checked in this process: the sign-in's, or those of the last
    /// refresh that returned an ID token. Nil for a sign-in decoded from storage until a
    /// refresh returns one (a stored ID token is not checked again: its `exp` has usually
    /// passed; `TokenSet/checkRefreshedIDToken(previousIDToken:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:authTime:)`
    /// compares a refreshed one with it).
    public internal(set) var claims: IDTokenClaims?

    /// A sign-in rebuilt from what an app stored itself (the `Decodable` conformance does
    /// the same from this type's own encoding). `claims` is nil (see ``claims``).
    ///
    /// - Throws: `invalid_configuration` for an issuer or token endpoint that is not
    ///   `https` (or `http` to a loopback IP literal: accepted here so that a stored sign-in
    ///   of a provider on this machine can be rebuilt; its ``refresh(options:)`` needs
    ///   `Options/allowingLoopbackHTTP`), or a bad client id.
    ///   `signingAlgorithms`: the provider's ID token `alg` values (default RS256); an empty
    ///   list is `invalid_configuration`.
    public init(
        issuer: String, clientID: String, tokenEndpoint: String, tokens: TokenSet,
        signingAlgorithms: [String] = TokenSet.defaultSigningAlgorithms
    ) throws(CallbackError) {
        // The checks a refresh request makes of the endpoint and the client id, made now.
        _ = try TokenRequest.refresh(
            "-", tokenEndpoint: tokenEndpoint, clientID: clientID, allowingLoopbackHTTP: SignIn.isLoopbackHTTP(issuer))
        guard !signingAlgorithms.isEmpty else {
            throw CallbackError(
                .invalidConfiguration,
                "signingAlgorithms is empty: give the provider's id_token_signing_alg_values_supported, or leave it out for RS256")
        }
        self.init(
            issuer: issuer, clientID: clientID, tokenEndpoint: tokenEndpoint, tokens: tokens, claims: nil,
            signingAlgorithms: signingAlgorithms)
    }

    init(
        issuer: String, clientID: String, tokenEndpoint: String, tokens: TokenSet, claims: IDTokenClaims?,
        signingAlgorithms: [String]
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.tokenEndpoint = tokenEndpoint
        self.signingAlgorithms = signingAlgorithms
        self.tokens = tokens
        self.claims = claims
    }

    /// How a sign-in runs; every setting has a default.
    public struct Options: Sendable {
        /// The session whose configuration (timeouts, proxies, TLS) the requests use;
        /// nothing is cached or kept (`Foundation/URLSession/exchange(_:allowedTokenTypes:maxResponseBytes:)`).
        public var session: URLSession
        /// How long to wait for the browser to come back (default five minutes).
        public var timeout: Duration
        /// How far the clocks may disagree when the ID token's times are checked.
        public var maxClockSkew: Duration
        /// The loopback receiver's settings: host, ports, path, pages
        /// (``loopback(issuer:clientID:scope:options:open:)`` only).
        public var loopback: LoopbackReceiver.Configuration
        /// Further authorization request parameters (`prompt`, `login_hint`, `resource`…);
        /// the reserved ones (`state`, `nonce`, `code_challenge`…) are refused.
        public var extraParameters: [(String, String)]
        /// Whether a refreshed ID token's `auth_time` must be the one it is compared with
        /// (``refresh(options:)``): `RefreshedAuthTime/mustMatch` by default, as OpenID
        /// Connect Core §12.2 says; `RefreshedAuthTime/mayChange` for a provider that sends
        /// the time of the refresh, and then ``claims`` says so (`IDTokenClaims/authTimeChanged`).
        /// The issuer, subject, audiences and `azp` are compared whatever this says.
        public var refreshedAuthTime: RefreshedAuthTime
        /// Whether an `http` issuer (and its endpoints) on a loopback IP literal
        /// (`http://127.0.0.1…`, `http://[::1]…`) is accepted: a provider on this machine, for a
        /// test or development server. False by default: an `http` issuer is refused with
        /// `invalid_configuration`, naming this option. `http` elsewhere (`localhost`
        /// included) is refused whatever this says; a real provider is `https`.
        public var allowingLoopbackHTTP: Bool

        /// The defaults: the shared session, five minutes, the ID token check's default
        /// skew, a receiver on 127.0.0.1 at a port the system picks, and a refreshed ID
        /// token's `auth_time` required to be the login's.
        public init(
            session: URLSession = .shared, timeout: Duration = .seconds(300), maxClockSkew: Duration = TokenSet.defaultMaxClockSkew,
            loopback: LoopbackReceiver.Configuration = LoopbackReceiver.Configuration(), extraParameters: [(String, String)] = [],
            refreshedAuthTime: RefreshedAuthTime = .mustMatch, allowingLoopbackHTTP: Bool = false
        ) {
            self.session = session
            self.timeout = timeout
            self.maxClockSkew = maxClockSkew
            self.loopback = loopback
            self.extraParameters = extraParameters
            self.refreshedAuthTime = refreshedAuthTime
            self.allowingLoopbackHTTP = allowingLoopbackHTTP
        }
    }

    /// An `http` URL whose host is a loopback IP literal (`127.0.0.1`, `[::1]`): a server on
    /// this machine, which a sign-in may reach without TLS (a test or development server).
    /// `localhost` and every other host need `https`.
    static func isLoopbackHTTP(_ url: String) -> Bool {
        guard let parsed = try? CallbackURL(parsing: url), parsed.scheme == "http", let host = parsed.host else { return false }
        return host.isLoopbackAddress
    }

    /// Refuses an `http` issuer on a loopback IP literal unless `options` allow it, with
    /// words that name the option; any other issuer is left to discovery's own checks.
    static func checkLoopbackHTTP(_ issuer: String, options: Options) throws(CallbackError) {
        guard isLoopbackHTTP(issuer), !options.allowingLoopbackHTTP else { return }
        throw CallbackError(
            .invalidConfiguration,
            "the issuer is http on a loopback address (\(issuer)), which is allowed only for a provider on this machine when SignIn.Options.allowingLoopbackHTTP is true; a real provider's issuer is https"
        )
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case clientID = "client_id"
        case tokenEndpoint = "token_endpoint"
        case tokens
        case signingAlgorithms = "id_token_signing_alg_values_supported"
    }

    /// Rebuilds a stored sign-in, checked as ``init(issuer:clientID:tokenEndpoint:tokens:)`` checks.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                issuer: container.decode(String.self, forKey: .issuer), clientID: container.decode(String.self, forKey: .clientID),
                tokenEndpoint: container.decode(String.self, forKey: .tokenEndpoint),
                tokens: container.decode(TokenSet.self, forKey: .tokens),
                // Absent from a sign-in stored before the list was kept: RS256, as then.
                signingAlgorithms: container.decodeIfPresent([String].self, forKey: .signingAlgorithms)
                    ?? TokenSet.defaultSigningAlgorithms)
        } catch let error as CallbackError {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.detail))
        }
    }

    /// Stores the sign-in: the tokens included, the checked claims not.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(tokenEndpoint, forKey: .tokenEndpoint)
        try container.encode(tokens, forKey: .tokens)
        try container.encode(signingAlgorithms, forKey: .signingAlgorithms)
    }

    /// The issuer, the client id and the redacted tokens.
    public var description: String {
        "SignIn(issuer: \(issuer), client_id: \(clientID), \(tokens)\(claims == nil ? "" : ", claims checked"))"
    }

    /// The same redacted text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the redacted description, never a token.
    public var customMirror: Mirror { Mirror(self, children: ["signIn": description], displayStyle: .struct) }
}
