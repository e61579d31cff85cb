import CallbackRouter

/// What one GET on the callback path means, and whether it belongs to this login.
struct LoopbackEvaluation: Sendable {
    enum Kind: Sendable, Equatable {
        case success
        case providerFailure
        case rejected
    }

    let kind: Kind
    /// Exactly what `callback-router parse` prints for this callback.
    let json: JSONValue
    /// Exactly `parse`'s exit code.
    let exitCode: Int32
    /// The provider's `error` value, for the page (shown only when it is a plain token).
    let providerError: String?
    /// The refusal's reason code, for stderr.
    let reason: ReasonCode?
    /// The query carries exactly one `state`, equal (in constant time) to the expected one.
    let carriesExpectedState: Bool
}

/// The callback validation of `loopback`: the shared ``CallbackValidator`` configured as
/// `callback-router parse --dialect D --state S --redirect-uri <the loopback URI>
/// [--issuer I] [--require-issuer]` configures it, with its JSON and exit codes.
struct LoopbackValidation: Sendable {
    /// What the command line says, before the port (hence the redirect URI) is known.
    struct Settings: Sendable {
        var dialect: Dialect = .auto
        var expectedState: String?
        var issuer: String?
        var requireIssuer = false
        var limits: ParsingLimits = .default
    }

    let settings: Settings
    let redirectURI: RedirectURI
    private let validator: CallbackValidator

    var expectedState: String? { settings.expectedState }

    /// - Throws: `invalid_configuration` if the redirect URI is not one the native policy
    ///   accepts (it always is: an IP loopback literal with a checked path).
    init(_ settings: Settings, redirectURI: String) throws(CallbackError) {
        self.settings = settings
        self.redirectURI = try RedirectURI(redirectURI, policy: .native)
        validator = try CallbackValidator(
            redirectURIs: [self.redirectURI], policy: .native, dialect: settings.dialect,
            expecting: CallbackExpectations(state: settings.expectedState, issuer: settings.issuer,
                                            requireIssuer: settings.requireIssuer, responseMode: .query))
    }

    /// Validates the callback URL the request target makes (`http://127.0.0.1:PORT` +
    /// target): the single place that decides what a callback means. The receiver adds
    /// only its own rule on top (which evaluations end the wait, see ``LoopbackServer``).
    func evaluate(callbackURL text: String) -> LoopbackEvaluation {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text, limits: settings.limits)
        } catch {
            return refusal(CallbackError(error), tied: false)
        }
        let tied = carriesExpectedState(url)
        do {
            let outcome = try validator.validate(url)
            let failure = outcome.kind.isProviderFailure
            return LoopbackEvaluation(kind: failure ? .providerFailure : .success, json: ParseCommand.outcomeJSON(outcome),
                                      exitCode: ParseCommand.exitCode(for: outcome),
                                      providerError: failure ? outcome.value("error") : nil, reason: nil,
                                      carriesExpectedState: tied)
        } catch {
            return refusal(error, tied: tied)
        }
    }

    private func refusal(_ error: CallbackError, tied: Bool) -> LoopbackEvaluation {
        LoopbackEvaluation(kind: .rejected, json: ParseCommand.rejectionJSON(error), exitCode: ParseCommand.exitCode(for: error),
                           providerError: nil, reason: error.reason, carriesExpectedState: tied)
    }

    /// The receiver's own tie rule, independent of what validation concluded: exactly one
    /// `state` in the query, equal to the expected one.
    func carriesExpectedState(_ url: CallbackURL) -> Bool {
        guard let expected = settings.expectedState,
              let state = (try? url.queryParameters.value(named: "state")) ?? nil else { return false }
        return constantTimeEquals(state, expected)
    }
}
