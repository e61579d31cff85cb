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
    let exitCode: Int32
    /// The provider's `error` value, for the page (shown only when it is a plain token).
    let providerError: String?
    /// The request carries exactly one `state` equal, in constant time, to the expected one.
    let carriesExpectedState: Bool
}

/// The callback validation the receiver applies, as `parse` applies it.
///
/// `evaluate(callbackURL:)` is the single place that decides what a callback means; the
/// receiver adds only its own rule on top (which evaluations end the wait, see
/// ``LoopbackServer``).
struct LoopbackValidation: Sendable {
    var dialect: String
    var expectedState: String?
    var issuer: String?
    var requireIssuer: Bool
    var limits: ParsingLimits
    /// The redirect URI handed out (`http://127.0.0.1:PORT/callback`).
    var redirectURI: String

    /// The dialects this validation understands.
    static let dialects: [String] = ["auto", "oauth2"]

    func evaluate(callbackURL text: String) -> LoopbackEvaluation {
        let url: CallbackURL
        do {
            url = try CallbackURL(parsing: text, limits: limits)
        } catch {
            return rejection(error.reason, error.detail, error.offset, tied: false)
        }
        let tied = carriesExpectedState(url)
        let parameters = url.queryParameters

        if let duplicate = parameters.firstDuplicate() {
            return rejection(.duplicateParameter, "a parameter occurs more than once",
                             duplicate.offset, tied: tied)
        }
        if !url.fragmentParameters.isEmpty, url.fragment != "_=_" {
            return rejection(.parametersInFragment, "the callback has parameters in the fragment; the loopback receiver reads the query",
                             nil, tied: tied)
        }
        for implicit in ["access_token", "id_token"] where parameters.contains(named: implicit) {
            return rejection(.implicitGrantNotSupported, "the callback carries '\(implicit)': the implicit grant is not supported",
                             parameters.valueOffset(named: implicit), tied: tied)
        }
        let hasCode = parameters.contains(named: "code")
        let hasError = parameters.contains(named: "error")
        if hasCode && hasError {
            return rejection(.ambiguousResponse, "the callback carries both 'code' and 'error'", parameters.valueOffset(named: "error"), tied: tied)
        }
        guard hasCode || hasError else {
            return rejection(.missingParameter, "the callback carries neither 'code' nor 'error'", nil, tied: tied)
        }
        let state = (try? parameters.value(named: "state")) ?? nil
        if let expectedState {
            guard let state else {
                return rejection(.stateMissing, "the callback carries no 'state'", nil, tied: false)
            }
            guard Self.constantTimeEqual(state, expectedState) else {
                return rejection(.stateMismatch, "the callback's 'state' is not the expected one", parameters.valueOffset(named: "state"), tied: false)
            }
        }
        for name in ["code", "state"] {
            if let value = (try? parameters.value(named: name)) ?? nil, !Self.isVSCHAR(value) {
                return rejection(.invalidParameter, "'\(name)' must be printable ASCII (RFC 6749 VSCHAR)", parameters.valueOffset(named: name), tied: tied)
            }
        }
        let known: Set<String> = hasError ? ["error", "error_description", "error_uri", "state", "iss"] : ["code", "state", "iss"]
        var members: [(String, JSONValue)] = [
            ("outcome", .string(hasError ? "authorization_error" : "authorization_code")),
            ("dialect", .string("oauth2")),
        ]
        for name in hasError ? ["error", "error_description", "error_uri", "state", "iss"] : ["code", "state", "iss"] {
            if let value = (try? parameters.value(named: name)) ?? nil { members.append((name, .string(value))) }
        }
        if !hasError {
            let iss = (try? parameters.value(named: "iss")) ?? nil
            if let issuer, let iss, iss != issuer {
                return rejection(.issuerMismatch, "the callback's 'iss' is not the expected issuer", parameters.valueOffset(named: "iss"), tied: tied)
            }
            if requireIssuer, iss == nil {
                return rejection(.issuerMissing, "the callback carries no 'iss' and one is required", nil, tied: tied)
            }
        }
        let extra = parameters.filter { !known.contains($0.name) }.map { ($0.name, JSONValue.string($0.value)) }
        members.append(("extra", .object(extra)))
        let errorValue = hasError ? ((try? parameters.value(named: "error")) ?? nil) : nil
        return LoopbackEvaluation(kind: hasError ? .providerFailure : .success, json: .object(members),
                                  exitCode: hasError ? ExitCode.providerFailure : ExitCode.success,
                                  providerError: errorValue, carriesExpectedState: tied)
    }

    private func rejection(_ reason: ReasonCode, _ detail: String, _ offset: Int?, tied: Bool) -> LoopbackEvaluation {
        LoopbackEvaluation(kind: .rejected, json: rejectionJSON(reason: reason, detail: detail, offset: offset),
                           exitCode: ExitCode.rejected, providerError: nil, carriesExpectedState: tied)
    }

    /// The receiver's own tie rule, independent of what validation concluded: exactly one
    /// `state` in the query, equal to the expected one.
    func carriesExpectedState(_ url: CallbackURL) -> Bool {
        guard let expectedState, let state = (try? url.queryParameters.value(named: "state")) ?? nil else { return false }
        return Self.constantTimeEqual(state, expectedState)
    }

    /// Compares without an early exit, so the time taken does not say how many leading
    /// bytes of a guess were right (only whether the lengths match).
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in 0 ..< x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    static func isVSCHAR(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }
}
