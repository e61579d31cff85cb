/// Reads what a callback means in a dialect, after the rules every dialect shares.
///
/// Order of the checks (the first failure is reported):
/// 1. `access_token` / `id_token` anywhere → `implicit_grant_not_supported`.
/// 2. Response parameters in the other component than ``CallbackExpectations/responseMode``
///    → `parameters_in_fragment` (or `parameters_in_query`); an empty fragment and
///    Facebook's `#_=_` are ignored.
/// 3. A duplicated parameter → `duplicate_parameter` (RFC 6749 §3.1), at its second occurrence.
/// 4. `error` with a success credential (`code`…) → `ambiguous_response`; for ``Dialect/auto``,
///    two dialects' markers → `ambiguous_response`, none → `missing_parameter`.
/// 5. The dialect's fields: a required one absent → `missing_parameter`; a token-like value
///    that is empty or not RFC 6749 VSCHAR → `invalid_parameter` (`state` is the client's
///    opaque value: only an empty one is refused here, whatever its characters, and it is
///    then judged by equality in step 6); human text that breaks
///    its syntax is withheld and listed in ``CallbackOutcome/withheldFields``; Zephr's
///    unknown `status` → `unknown_status`.
/// 6. The expected state: absent → `state_missing`, different → `state_mismatch`
///    (constant-time), for error responses too, unless a route's ``ProviderProfile`` makes
///    an error without state *unbound* (``CallbackOutcome/isUnbound``).
/// 7. The expected issuer (RFC 9207): different → `issuer_mismatch`; absent when required
///    → `issuer_missing`.
///
/// The redirect-URI policy and match come before all of this: see ``CallbackValidator``.
public enum CallbackClassifier {
    /// Says what `url` means in `dialect` (or the one `.auto` picks), checked against
    /// `expectations` in the order above; throws the first rule it breaks.
    public static func classify(
        _ url: CallbackURL, dialect: Dialect,
        expecting expectations: CallbackExpectations = CallbackExpectations()
    )
        throws(CallbackError) -> CallbackOutcome
    {
        var reading = CommonReading()
        let source = url.sourceText
        if readCommon(url, source, dialect: dialect, expectations: expectations, into: &reading) {
            #if DEBUG
            // The common path may only ever return what the full one returns.
            let common = outcome(url, source, &reading)
            let full = try? classifyFully(url, dialect: dialect, expecting: expectations)
            precondition(full.map(common.isSame) == true, "the classifier's common path disagrees with the full path")
            #endif
            return outcome(url, source, &reading)
        }
        return try classifyFully(url, dialect: dialect, expecting: expectations)
    }

    /// Every step, in order, for any callback: what decides every refusal.
    static func classifyFully(_ url: CallbackURL, dialect: Dialect, expecting expectations: CallbackExpectations)
        throws(CallbackError) -> CallbackOutcome
    {
        let relaxations = expectations.profiles.relaxations
        let response = try ResponseParameters(url, mode: expectations.responseMode, relaxations: relaxations)
        var outcome = try read(response, dialect: dialect)
        if outcome.kind == .authorizationError,
            response.isErrorFromFragment || (relaxations.contains(.unboundErrors) && outcome.state == nil)
        {
            // An error the provider sends without the app's state (ProviderProfile.supabase,
            // .cognito): reported, but tied to no login.
            outcome = outcome.unbound()
        } else {
            try checkState(outcome, response, expectations)
        }
        try checkIssuer(outcome, response, expectations)
        return outcome
    }

    // MARK: Dialects

    private static let markers: [(name: String, dialect: Dialect)] = [
        ("code", .oauth2), ("challenge_token", .prelude), ("rotating_token_nonce", .clerk), ("status", .zephr),
    ]

    private static func credentials(of dialect: Dialect) -> [String] {
        switch dialect {
        case .prelude: return ["code", "challenge_token"]
        case .clerk: return ["code", "rotating_token_nonce", "created_session_id"]
        case .zephr: return ["code", "status", "session_id", "state_key"]
        case .oauth2, .ory: return ["code"]
        default: return KnownField.successCredentials
        }
    }

    private static func read(_ response: ResponseParameters, dialect: Dialect) throws(CallbackError) -> CallbackOutcome {
        let hasError = response.has("error")
        if hasError, let credential = credentials(of: dialect).first(where: response.has) {
            throw CallbackError(
                .ambiguousResponse, at: response.item(credential)?.offset,
                "the callback carries both 'error' and '\(credential)': it is neither a success nor a failure")
        }

        var decided = dialect
        if dialect == .auto {
            let present = markers.filter { response.has($0.name) }
            if present.count > 1 {
                throw CallbackError(
                    .ambiguousResponse, at: response.item(present[1].name)?.offset,
                    "the callback carries both '\(present[0].name)' and '\(present[1].name)': name the dialect instead of auto")
            }
            if let marker = present.first {
                decided = marker.dialect
            } else if hasError {
                decided = .oauth2
            } else {
                throw CallbackError(
                    .missingParameter, at: nil,
                    "no parameter says what this callback is (code, challenge_token, rotating_token_nonce, status or error)")
            }
        }

        if hasError {
            return try build(
                .authorizationError, decided, response,
                known: ["error", "error_description", "error_uri", "state", "iss"], required: ["error"])
        }
        switch decided {
        case .oauth2:
            return try build(.authorizationCode, decided, response, known: ["code", "state", "iss"], required: ["code"])
        case .ory:
            return try build(.sessionTokenExchangeCode, decided, response, known: ["code", "state", "iss"], required: ["code"])
        case .prelude:
            return try build(
                .challengeToken, decided, response, known: ["challenge_token", "state", "iss"],
                required: ["challenge_token"])
        case .clerk:
            return try build(
                .rotatingTokenNonce, decided, response,
                known: ["rotating_token_nonce", "created_session_id", "state", "iss"],
                required: ["rotating_token_nonce"])
        default:
            return try readZephr(response)
        }
    }

    private static let zephrFields = [
        "action", "status", "session_id", "tracking_id", "state_key", "identifier", "message", "state", "iss",
    ]

    private static func readZephr(_ response: ResponseParameters) throws(CallbackError) -> CallbackOutcome {
        guard let status = response.item("status") else {
            throw CallbackError(.missingParameter, at: nil, "the zephr dialect requires 'status'")
        }
        switch status.value {
        case "success":
            return try build(.loginSuccess, .zephr, response, known: zephrFields, required: ["session_id"])
        case "partial":
            return try build(.partialRegistration, .zephr, response, known: zephrFields, required: ["state_key"])
        case "failure":
            return try build(.loginFailure, .zephr, response, known: zephrFields, required: [])
        default:
            throw CallbackError(
                .unknownStatus, at: status.valueOffset,
                "the status is not one Zephr defines (success, partial, failure)")
        }
    }

    /// Sorts the response into known fields (checked) and extras (passed as they came).
    private static func build(
        _ kind: OutcomeKind, _ dialect: Dialect, _ response: ResponseParameters,
        known: [String], required: [String]
    ) throws(CallbackError) -> CallbackOutcome {
        var fields: [CallbackOutcome.Field] = []
        var extra: [CallbackOutcome.Field] = []
        var withheld: [String] = []
        for item in response.items {
            guard known.contains(item.name) else {
                extra.append(.init(name: item.name, value: item.value))
                continue
            }
            let syntax = KnownField.syntax(of: item.name)
            if syntax.accepts(item.value) {
                fields.append(.init(name: item.name, value: item.value))
            } else if syntax.isWithheldWhenInvalid {
                withheld.append(item.name)
            } else {
                throw CallbackError(.invalidParameter, at: item.valueOffset, invalidDetail(item, syntax))
            }
        }
        for name in required where !fields.contains(where: { $0.name == name }) {
            throw CallbackError(
                .missingParameter, at: nil,
                "the \(dialect.rawValue) dialect requires '\(name)' for \(kind.rawValue)")
        }
        extra += response.passive.map { .init(name: $0.name, value: $0.value) }
        return CallbackOutcome(kind: kind, dialect: dialect, fields: fields, extra: extra, withheld: withheld)
    }

    private static func invalidDetail(_ item: ResponseParameters.Item, _ syntax: ParameterSyntax) -> String {
        if item.value.isEmpty { return "the parameter '\(item.name)' is empty" }
        switch syntax {
        case .errorCode:
            return "the parameter '\(item.name)' has a character outside RFC 6749 NQSCHAR (%x20-21 / %x23-5B / %x5D-7E)"
        default:
            return "the parameter '\(item.name)' has a character outside RFC 6749 VSCHAR (%x20-7E)"
        }
    }

    // MARK: State and issuer

    private static func checkState(
        _ outcome: CallbackOutcome, _ response: ResponseParameters,
        _ expectations: CallbackExpectations
    ) throws(CallbackError) {
        guard let expected = expectations.state else { return }
        guard let state = outcome.state else {
            throw CallbackError(.stateMissing, at: nil, "a state was expected and the callback has none")
        }
        if !constantTimeEquals(state, expected) {
            throw CallbackError(
                .stateMismatch, at: response.item("state")?.valueOffset,
                "the state is not the one this login sent")
        }
    }

    private static func checkIssuer(
        _ outcome: CallbackOutcome, _ response: ResponseParameters,
        _ expectations: CallbackExpectations
    ) throws(CallbackError) {
        guard let issuer = outcome.issuer else {
            if expectations.requireIssuer {
                throw CallbackError(
                    .issuerMissing, at: nil,
                    "the authorization server sends 'iss' (RFC 9207) and the callback has none")
            }
            return
        }
        // RFC 9207 §2.4: simple string comparison, no normalization.
        if let expected = expectations.issuer, issuer != expected {
            throw CallbackError(
                .issuerMismatch, at: response.item("iss")?.valueOffset,
                "the 'iss' parameter is not the expected issuer (RFC 9207)")
        }
    }
}
