/// One login (or logout) the app started: the secrets that tie its callback to it, and its
/// deadline.
///
/// Made by ``CallbackRouter/begin(on:lifetime:)``, which registers it as pending, by
/// ``CallbackRouter/beginLogout(on:endSessionEndpoint:idTokenHint:clientID:logoutHint:uiLocales:extraParameters:style:lifetime:)``
/// (``purpose`` ``AttemptPurpose/logout``), or by ``CallbackRouter/restore(_:key:)-(SealedAttempt,_)``.
/// The state, PKCE verifier and nonce are fresh CSPRNG output for every attempt;
/// `description`, `debugDescription` and `dump` never show them.
public struct LoginAttempt: Sendable, Hashable, Identifiable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// Unique within a router.
    public let id: UInt64
    /// The route the callback must arrive on.
    public let route: RouteID
    /// The `state` sent in the authorization request (256 random bits, base64url).
    public let state: String
    /// The PKCE pair; send `pkce.challenge`, keep `pkce.verifier` for the token request.
    public let pkce: PKCE
    /// The OpenID Connect `nonce` to send and to check in the ID token.
    public let nonce: String
    /// The redirect URI to send as `redirect_uri`.
    public let redirectURI: RedirectURI
    /// How the callback is read: the route's provider dialect.
    public let dialect: Dialect
    /// The issuer expected in `iss` (RFC 9207), if the route names one.
    public let expectedIssuer: String?
    /// When the router began the attempt, on the router's clock.
    public let createdAt: ClockInstant
    /// After this instant a callback for the attempt is `attempt_expired`.
    public let expiresAt: ClockInstant
    /// Whether the attempt is a login (its callback carries the provider's answer) or a
    /// logout (its callback is `logout_complete`). A callback of one never ends the other.
    public var purpose: AttemptPurpose { isLogout ? .logout : .login }
    /// The purpose as one byte: the router compares it on every callback.
    let isLogout: Bool
    /// ``expiresAt`` in calendar time: nanoseconds since the Unix epoch (what a sealed
    /// record keeps, since monotonic instants mean nothing in another process).
    public let expiresAtWallClock: Int64

    /// Two values are the same attempt when their router-assigned id and route agree.
    public static func == (a: LoginAttempt, b: LoginAttempt) -> Bool { a.id == b.id && a.route == b.route }
    /// Hashes the attempt's id, never its secrets.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The id, route, dialect and redirect URI, and the state's length only.
    public var description: String {
        "LoginAttempt(#\(id), \(isLogout ? "logout, " : "")route: \(route.rawValue), dialect: \(dialect), redirect: \(redirectURI), state: <redacted, \(state.utf8.count) bytes>)"
    }
    /// The same redacted text as `description`.
    public var debugDescription: String { description }
    /// `dump()` shows the redacted description, never the state, verifier or nonce.
    public var customMirror: Mirror { Mirror(self, children: ["attempt": description], displayStyle: .struct) }

    /// Builds the OAuth 2.0 / OIDC authorization request for this attempt.
    public func authorizationRequest(
        endpoint: String, clientID: String, scope: String = "openid",
        extraParameters: [(String, String)] = []
    ) throws(CallbackError) -> AuthorizationRequest {
        try AuthorizationRequest(
            endpoint: endpoint, clientID: clientID, redirectURI: redirectURI.url.string,
            scope: scope, state: state, pkce: pkce, nonce: nonce, extraParameters: extraParameters)
    }
}
