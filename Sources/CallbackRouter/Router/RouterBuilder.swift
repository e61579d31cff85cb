/// Collects routes, checks them, and freezes them into a ``CallbackRouter``.
///
/// ```swift
/// var builder = RouterBuilder()
/// builder.add(Route("google", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"),
///                   dialect: .oauth2, issuer: "https://accounts.google.com"))
/// let router = try builder.build()
/// ```
///
/// Two routes that could match the same callback are an `invalid_configuration` error
/// (the router never guesses between them), as are two routes with the same id.
public struct RouterBuilder: Sendable {
    private var routes: [Route] = []

    public init() {}

    public mutating func add(_ route: Route) { routes.append(route) }

    /// Checks every pair of routes; throws `invalid_configuration` naming the pair that overlaps.
    public func validate() throws(CallbackError) {
        for (i, a) in routes.enumerated() {
            guard a.dialect != .auto else {
                throw CallbackError(.invalidConfiguration, "route '\(a.id)' must name its dialect: 'auto' guesses, a route must not")
            }
            for b in routes[(i + 1)...] {
                if a.id == b.id {
                    throw CallbackError(.invalidConfiguration, "two routes are named '\(a.id)'")
                }
                if Self.overlap(a.redirectURI, b.redirectURI) {
                    throw CallbackError(.invalidConfiguration,
                                        "routes '\(a.id)' and '\(b.id)' could both match the same callback (\(a.redirectURI) and \(b.redirectURI))")
                }
            }
        }
    }

    /// Validates and returns the immutable router.
    public func build(clock: any AttemptClock = SystemAttemptClock(), limits: ParsingLimits = .default,
                      maxPendingAttempts: Int = 65_536) throws(CallbackError) -> CallbackRouter {
        try validate()
        return CallbackRouter(routes: routes, clock: clock, limits: limits, maxPendingAttempts: maxPendingAttempts)
    }

    /// Whether one callback URL could match both registered URIs: same scheme, host and path,
    /// compatible ports (loopback matches any port), and no query parameter that both
    /// require with different values.
    static func overlap(_ a: RedirectURI, _ b: RedirectURI) -> Bool {
        let x = a.url, y = b.url
        guard x.scheme == y.scheme, x.host == y.host, x.path == y.path else { return false }
        if !(a.isLoopback && b.isLoopback) && x.port != y.port { return false }
        for parameter in x.queryParameters {
            let other = y.queryParameters.values(named: parameter.name)
            if !other.isEmpty && !other.contains(parameter.value) { return false }
        }
        return true
    }
}
