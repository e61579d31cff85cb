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

/// One login (or logout) the app started: the secrets that tie its callback to it, and its
/// deadline.
///
/// Made by ``CallbackRouter/beginLogin(on:lifetime:)``, which registers it as pending, by
/// ``CallbackRouter/beginLogout(on:endSessionEndpoint:idTokenHint:clientID:logoutHint:uiLocales:extraParameters:style:lifetime:)``
/// (``purpose`` ``AttemptPurpose/logout``), or by ``CallbackRouter/restore(_:key:)-(SealedAttempt,_)``.
/// The state, PKCE verifier and nonce are fresh CSPRNG output for every attempt;
/// `description`, `debugDescription` and `dump` never show them.
public struct LoginAttempt: Sendable, Hashable, Identifiable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The attempt's fields, in one immutable box: an attempt is copied into every
    /// delivery, the router's table and its tombstone, and copying a dozen references costs
    /// ~300 instructions each time; copying a reference is one retain.
    private final class Storage: Sendable {
        let id: UInt64
        let route: RouteID
        let state: String
        let pkce: PKCE
        let nonce: String
        let redirectURI: RedirectURI
        let dialect: Dialect
        let expectedIssuer: String?
        let createdAt: ClockInstant
        let expiresAt: ClockInstant
        let isLogout: Bool
        let expiresAtWallClock: Int64
        let flowID: String?

        init(
            id: UInt64, route: RouteID, state: String, pkce: PKCE, nonce: String, redirectURI: RedirectURI,
            dialect: Dialect, expectedIssuer: String?, createdAt: ClockInstant, expiresAt: ClockInstant,
            isLogout: Bool, expiresAtWallClock: Int64, flowID: String?
        ) {
            self.id = id
            self.route = route
            self.state = state
            self.pkce = pkce
            self.nonce = nonce
            self.redirectURI = redirectURI
            self.dialect = dialect
            self.expectedIssuer = expectedIssuer
            self.createdAt = createdAt
            self.expiresAt = expiresAt
            self.isLogout = isLogout
            self.expiresAtWallClock = expiresAtWallClock
            self.flowID = flowID
        }
    }

    private let storage: Storage

    package init(
        id: UInt64, route: RouteID, state: String, pkce: PKCE, nonce: String, redirectURI: RedirectURI,
        dialect: Dialect, expectedIssuer: String?, createdAt: ClockInstant, expiresAt: ClockInstant,
        isLogout: Bool, expiresAtWallClock: Int64, flowID: String? = nil
    ) {
        storage = Storage(
            id: id, route: route, state: state, pkce: pkce, nonce: nonce, redirectURI: redirectURI, dialect: dialect,
            expectedIssuer: expectedIssuer, createdAt: createdAt, expiresAt: expiresAt, isLogout: isLogout,
            expiresAtWallClock: expiresAtWallClock, flowID: flowID)
    }

    /// Unique within a router.
    public var id: UInt64 { storage.id }
    /// The route the callback must arrive on.
    public var route: RouteID { storage.route }
    /// The `state` sent in the authorization request (256 random bits, base64url).
    public var state: String { storage.state }
    /// The PKCE pair; send `pkce.challenge`, keep `pkce.verifier` for the token request.
    public var pkce: PKCE { storage.pkce }
    /// The OpenID Connect `nonce` to send and to check in the ID token.
    public var nonce: String { storage.nonce }
    /// The redirect URI to send as `redirect_uri`, in the authorization request and the
    /// token request alike: the route's, or the exact one the login was begun with
    /// (``CallbackRouter/beginLogin(on:redirectURI:lifetime:)``: a loopback redirect URI with its
    /// port). A sealed record keeps it, so a restored attempt has it too.
    public var redirectURI: RedirectURI { storage.redirectURI }
    /// How the callback is read: the route's provider dialect.
    public var dialect: Dialect { storage.dialect }
    /// The issuer expected in `iss` (RFC 9207), if the route names one.
    public var expectedIssuer: String? { storage.expectedIssuer }
    /// When the router began the attempt, on the router's clock.
    public var createdAt: ClockInstant { storage.createdAt }
    /// After this instant a callback for the attempt is `attempt_expired`.
    public var expiresAt: ClockInstant { storage.expiresAt }
    /// Whether the attempt is a login (its callback carries the provider's answer) or a
    /// logout (its callback is `logout_complete`). A callback of one never ends the other.
    public var purpose: AttemptPurpose { isLogout ? .logout : .login }
    /// The purpose as one byte: the router compares it on every callback.
    var isLogout: Bool { storage.isLogout }
    /// ``expiresAt`` in calendar time: nanoseconds since the Unix epoch (what a sealed
    /// record keeps, since monotonic instants mean nothing in another process).
    public var expiresAtWallClock: Int64 { storage.expiresAtWallClock }
    /// The Clerk magic-link flow this attempt waits for (the sign-in's or sign-up's id,
    /// `sia_…`/`sua_…`, the `flow_id` the link carries), or nil. Given to
    /// ``CallbackRouter/beginLogin(on:flowID:lifetime:)``; a sealed record keeps it. With it,
    /// the attempt takes only a `magic_link` whose `flow_id` is this one (another flow's is
    /// `state_mismatch` and the attempt stays pending), as clerk-ios and clerk-android accept
    /// a link only for their pending flow. Not a secret: the link carries it in the clear and
    /// it redeems nothing without the approval token and the PKCE verifier; `description`
    /// shows it.
    public var flowID: String? { storage.flowID }

    /// Two values are the same attempt when their router-assigned id and route agree.
    public static func == (a: LoginAttempt, b: LoginAttempt) -> Bool { a.id == b.id && a.route == b.route }
    /// Hashes the attempt's id, never its secrets.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The id, route, dialect and redirect URI, and the state's length only.
    public var description: String {
        "LoginAttempt(#\(id), \(isLogout ? "logout, " : "")route: \(route.rawValue), dialect: \(dialect), redirect: \(redirectURI), \(flowID.map { "flow: \($0), " } ?? "")state: <redacted, \(state.utf8.count) bytes>)"
    }
    /// The same redacted text as `description`.
    public var debugDescription: String { description }
    /// `dump()` shows the redacted description, never the state, verifier or nonce.
    public var customMirror: Mirror { Mirror(self, children: ["attempt": description], displayStyle: .struct) }

    /// Builds the OAuth 2.0 / OIDC authorization request for this attempt, with
    /// ``redirectURI`` as `redirect_uri`.
    ///
    /// Throws `invalid_configuration` for a loopback redirect URI without a port: the
    /// browser would be sent to port 80, where no receiver listens. Begin such a login with
    /// ``CallbackRouter/beginLogin(on:redirectURI:lifetime:)`` and the receiver's redirect URI, or
    /// build the request with the receiver (`LoopbackReceiver.authorizationRequest(for:…)`).
    ///
    /// `scope` is as ``AuthorizationRequest``'s: space-separated tokens (RFC 6749 §3.3), nil
    /// to send none.
    public func authorizationRequest(
        endpoint: String, clientID: String, scope: String? = "openid",
        extraParameters: [(String, String)] = []
    ) throws(CallbackError) -> AuthorizationRequest {
        if redirectURI.isLoopback && redirectURI.url.port == nil {
            throw CallbackError(
                .invalidConfiguration,
                "the loopback redirect URI \(redirectURI) has no port: begin the login with router.beginLogin(on:redirectURI:) and the receiver's redirect URI (with its port), or build the request with the receiver"
            )
        }
        return try AuthorizationRequest(
            endpoint: endpoint, clientID: clientID, redirectURI: redirectURI.url.string,
            scope: scope, state: state, pkce: pkce, nonce: nonce, extraParameters: extraParameters)
    }
}

extension LoginAttempt {
    /// The longest flow id accepted: far above Clerk's (`sia_` and 27 base62 characters).
    package static let maximumFlowIDLength = 128

    /// Checks a Clerk magic-link flow id given by the app: 1 to 128 ASCII letters, digits,
    /// `_` or `-` (Clerk's ids are `sia_…`/`sua_…` and base62: a value outside that could
    /// never equal a link's `flow_id` as the SDKs compare it, so it is a mistake to report,
    /// not a flow to wait for). `invalid_configuration` otherwise; the detail does not show
    /// the value (it may be anything the caller passed).
    package static func checkFlowID(_ flowID: String) throws(CallbackError) {
        let bytes = flowID.utf8
        guard !bytes.isEmpty, bytes.count <= maximumFlowIDLength,
            bytes.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                    UInt8(ascii: "0") ... UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            })
        else {
            throw CallbackError(
                .invalidConfiguration,
                "a magic-link flow id is 1 to \(maximumFlowIDLength) ASCII letters, digits, '_' or '-' (Clerk's sign-in or sign-up id, sia_… or sua_…); this one (\(bytes.count) bytes) is not: pass the id Clerk returned when the link was sent"
            )
        }
    }
}
