/// Names a route within a router (given at registration, unique).
public struct RouteID: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A callback that reached its attempt: what it means and which login it answers.
public struct Delivery: Sendable, CustomStringConvertible {
    public let outcome: CallbackOutcome
    public let attempt: LoginAttempt
    public var route: RouteID { attempt.route }
    public var description: String { "Delivery(\(outcome), to: \(attempt))" }
}

/// Where a route sends a callback when no task is awaiting its attempt.
public typealias CallbackHandler = @Sendable (Result<Delivery, CallbackError>) -> Void

/// One registered redirect URI, the dialect its callbacks speak, what it expects of the
/// issuer, and the handler of its callbacks.
public struct Route: Sendable {
    public let id: RouteID
    public let redirectURI: RedirectURI
    public let dialect: Dialect
    /// The issuer expected in `iss` (RFC 9207); checked when present.
    public let issuer: String?
    /// Whether `iss` must be present (the server is known to send it).
    public let requireIssuer: Bool
    public let responseMode: ResponseMode
    /// How long an attempt on this route stays valid. Default 10 minutes.
    public let attemptLifetime: Duration
    /// The provider quirks this route accepts (``ProviderProfile``); none by default.
    public let profiles: [ProviderProfile]
    let handler: CallbackHandler?

    public init(_ id: RouteID, redirectURI: RedirectURI, dialect: Dialect, issuer: String? = nil,
                requireIssuer: Bool = false, responseMode: ResponseMode = .query,
                attemptLifetime: Duration = .seconds(600), profiles: [ProviderProfile] = [],
                handler: CallbackHandler? = nil) {
        self.profiles = profiles
        self.id = id
        self.redirectURI = redirectURI
        self.dialect = dialect
        self.issuer = issuer
        self.requireIssuer = requireIssuer
        self.responseMode = responseMode
        self.attemptLifetime = attemptLifetime
        self.handler = handler
    }

    /// What the dialect check expects. State and issuer are checked by the router after the
    /// attempt is found, so that a response tied to an attempt by its state ends that attempt.
    var expectations: CallbackExpectations {
        CallbackExpectations(state: nil, issuer: nil, requireIssuer: false, responseMode: responseMode, profiles: profiles)
    }

    /// Whether the dialect (or a profile: ``ProviderProfile/supabase``) carries no state, so
    /// at most one attempt may be pending.
    var isStateless: Bool { dialect.isStateless || profiles.relaxations.contains(.noState) }
}
