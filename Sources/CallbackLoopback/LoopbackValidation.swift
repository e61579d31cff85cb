import CallbackRouter

/// What one callback request means, and whether it belongs to this login.
struct LoopbackEvaluation: Sendable {
    enum Kind: Sendable, Equatable {
        case success
        case providerFailure
        case rejected
    }

    let kind: Kind
    /// The validated outcome, or the refusal: exactly what `callback-router parse` decides.
    let result: Result<CallbackOutcome, CallbackError>
    /// The provider's `error` value, for the page (shown only when it is a plain token).
    let providerError: String?
    /// The refusal's reason code, for the log.
    let reason: ReasonCode?
    /// The callback carries exactly one `state`, equal (in constant time) to the expected one.
    let carriesExpectedState: Bool
}

/// The receiver's own validation, for a wait that is not tied to a ``CallbackRouter``: the
/// shared ``CallbackValidator`` configured as `callback-router parse --dialect D --state S
/// --redirect-uri <the loopback URI> [--issuer I] [--require-issuer]` configures it, or
/// `parse --logout (--state S | --no-state) --redirect-uri <the loopback URI>` for a logout.
struct LoopbackValidation: Sendable {
    let expectations: LoopbackExpectations
    let redirectURI: RedirectURI
    private let validator: CallbackValidator

    var expectedState: String? { expectations.state }

    /// - Throws: `invalid_configuration` if the redirect URI is not one the native policy
    ///   accepts (it always is: an IP loopback literal or `localhost` with a checked path).
    init(_ expectations: LoopbackExpectations, redirectURI: String, allowLocalhost: Bool = false) throws(CallbackError) {
        if expectations.purpose == .logout && (expectations.issuer != nil || expectations.requireIssuer) {
            throw CallbackError(
                .invalidConfiguration, "a logout's callback carries no iss: expect no issuer when waiting for a logout")
        }
        self.expectations = expectations
        self.redirectURI = try RedirectURI(redirectURI, policy: .native, allowLocalhost: allowLocalhost)
        validator = try CallbackValidator(
            redirectURIs: [self.redirectURI], policy: .native, allowLocalhost: allowLocalhost, dialect: expectations.dialect,
            expecting: CallbackExpectations(
                state: expectations.state, issuer: expectations.issuer,
                requireIssuer: expectations.requireIssuer, responseMode: .query, profiles: expectations.profiles))
    }

    /// Validates the callback URL the request makes (`http://127.0.0.1:PORT` + target, or
    /// the form_post body as its query): the single place that decides what a callback means.
    func evaluate(callbackURL text: String) -> LoopbackEvaluation {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text, limits: expectations.limits)
        } catch {
            return refusal(CallbackError(error), tied: false)
        }
        let tied = carriesExpectedState(url)
        do {
            let outcome =
                expectations.purpose == .logout
                ? try validator.validateLogout(url, allowingNoState: expectations.state == nil)
                : try validator.validate(url)
            let failure = outcome.kind.isProviderFailure
            return LoopbackEvaluation(
                kind: failure ? .providerFailure : .success, result: .success(outcome),
                providerError: failure ? outcome.value("error") : nil, reason: nil,
                carriesExpectedState: tied)
        } catch {
            return refusal(error, tied: tied)
        }
    }

    private func refusal(_ error: CallbackError, tied: Bool) -> LoopbackEvaluation {
        LoopbackEvaluation(
            kind: .rejected, result: .failure(error), providerError: nil, reason: error.reason,
            carriesExpectedState: tied)
    }

    /// The receiver's own tie rule, independent of what validation concluded: exactly one
    /// `state` in the query, equal to the expected one.
    func carriesExpectedState(_ url: CallbackURL) -> Bool {
        guard let expected = expectations.state else { return false }
        return Self.carries(url, state: expected)
    }

    static func carries(_ url: CallbackURL, state expected: String) -> Bool {
        guard let state = (try? url.queryParameters.value(named: "state")) ?? nil else { return false }
        return constantTimeEquals(state, expected)
    }

    /// Only a callback proven to answer this login ends the wait: one carrying the expected
    /// state (whatever validation concluded: with the right state even a refusal is the
    /// provider's final word), or, when no state is expected, a valid callback.
    func endsWait(_ evaluation: LoopbackEvaluation) -> Bool {
        if expectedState != nil { return evaluation.carriesExpectedState }
        return evaluation.kind != .rejected
    }
}
