/// The common callback in one pass: a response in the query, nothing in the fragment, no
/// provider profile, a dialect other than Zephr. It reads each parameter's decoded bytes in
/// place (no intermediate arrays of strings), checks every rule the full path checks, and
/// makes strings only for the outcome it returns.
///
/// It never decides a refusal: whenever anything is off (a refusal, a withheld text, a
/// non-ASCII human text, a repeated name, tokens, a fragment), it returns nil and the full
/// path (``CallbackClassifier/classify(_:dialect:expecting:)``'s steps) runs from the start
/// and reports exactly what it always did. So an outcome from here is one the full path
/// would return too; debug builds check that on every call.
extension CallbackClassifier {
    /// Known response parameters by number: `KnownField.order`'s index, then the tokens of
    /// the implicit grant.
    enum FieldID {
        static let code = 0, state = 1, iss = 2, challengeToken = 3, action = 4, status = 5, sessionID = 6
        static let trackingID = 7, stateKey = 8, identifier = 9, message = 10, rotatingTokenNonce = 11
        static let createdSessionID = 12, error = 13, errorDescription = 14, errorURI = 15
        static let accessToken = 16, idToken = 17
        static let unknown = 31

        /// The wire names, in ID order (the same order as `KnownField.order`).
        static let names: [String] = KnownField.order + KnownField.implicitGrantTokens

        @inline(__always)
        static func bit(_ id: Int) -> UInt32 { 1 << UInt32(id) }

        /// The ID of a field name given as a string; ``unknown`` for any other name.
        static func of(_ name: String) -> Int {
            var name = name
            return name.withUTF8 { of($0) }
        }

        /// The ID of a decoded name; ``unknown`` for any other name.
        @inline(__always)
        static func of(_ name: UnsafeBufferPointer<UInt8>) -> Int {
            @inline(__always)
            func matches(_ expected: StaticString) -> Bool {
                let bytes = expected.utf8Start
                for i in 0 ..< name.count where name[i] != bytes[i] { return false }
                return true
            }
            switch name.count {
            case 3: return matches("iss") ? iss : unknown
            case 4: return matches("code") ? code : unknown
            case 5: return matches("state") ? state : matches("error") ? error : unknown
            case 6: return matches("status") ? status : matches("action") ? action : unknown
            case 7: return matches("message") ? message : unknown
            case 8: return matches("id_token") ? idToken : unknown
            case 9: return matches("state_key") ? stateKey : matches("error_uri") ? errorURI : unknown
            case 10: return matches("session_id") ? sessionID : matches("identifier") ? identifier : unknown
            case 11: return matches("tracking_id") ? trackingID : unknown
            case 12: return matches("access_token") ? accessToken : unknown
            case 15: return matches("challenge_token") ? challengeToken : unknown
            case 17: return matches("error_description") ? errorDescription : unknown
            case 18: return matches("created_session_id") ? createdSessionID : unknown
            case 20: return matches("rotating_token_nonce") ? rotatingTokenNonce : unknown
            default: return unknown
            }
        }

        /// Whether `value` is well formed for field `id` by the rules of ``ParameterSyntax``,
        /// judged on ASCII only: a non-ASCII human text is left to the full path.
        @inline(__always)
        static func accepts(_ id: Int, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
            switch id {
            case state:
                return !value.isEmpty
            case error:
                guard !value.isEmpty else { return false }
                for byte in value where !ParameterSyntax.isNQSChar(byte) { return false }
                return true
            case errorDescription:
                for byte in value where !ParameterSyntax.isNQSChar(byte) { return false }
                return true
            case errorURI:
                guard !value.isEmpty else { return false }
                for byte in value where byte == 0x20 || !ParameterSyntax.isNQSChar(byte) { return false }
                return true
            case message, identifier:
                // Printable ASCII is readable text; anything else goes to the full path.
                for byte in value where byte < 0x20 || byte > 0x7E { return false }
                return true
            default:
                guard !value.isEmpty else { return false }
                for byte in value where byte < 0x20 || byte > 0x7E { return false }
                return true
            }
        }
    }

    /// What one pass over the query learned.
    struct QueryScan {
        /// Known fields present.
        var present: UInt32 = 0
        /// Known fields whose value follows their syntax.
        var wellFormed: UInt32 = 0
        /// Whether a parameter the library does not know is present (an extra).
        var hasExtras = false
        /// Whether a known name repeats.
        var repeatsKnownName = false
        /// Whether the state equals the expected one (compared in constant time), when one is expected.
        var stateMatches = false
        /// Whether `iss` equals the expected issuer, when one is expected.
        var issuerMatches = false
        /// Where each known field is in the query, by ID (valid where ``present`` says so).
        var positions = SIMD32<UInt16>()

        func has(_ id: Int) -> Bool { present & FieldID.bit(id) != 0 }
    }

    /// The fields an outcome reads, and the one it requires (as ``read(_:dialect:)``): an
    /// error's, or those of the success of `dialect` (oauth2, ory, prelude or clerk).
    private static func shape(error: Bool, _ dialect: Dialect) -> (known: UInt32, required: Int) {
        let common = FieldID.bit(FieldID.state) | FieldID.bit(FieldID.iss)
        if error {
            return (
                FieldID.bit(FieldID.error) | FieldID.bit(FieldID.errorDescription) | FieldID.bit(FieldID.errorURI) | common,
                FieldID.error
            )
        }
        switch dialect {
        case .prelude:
            return (FieldID.bit(FieldID.challengeToken) | common, FieldID.challengeToken)
        case .clerk:
            return (
                FieldID.bit(FieldID.rotatingTokenNonce) | FieldID.bit(FieldID.createdSessionID) | common,
                FieldID.rotatingTokenNonce
            )
        default: // oauth2, ory
            return (FieldID.bit(FieldID.code) | common, FieldID.code)
        }
    }

    /// The success credentials of each dialect (``credentials(of:)``), as a mask.
    private static func credentialMask(_ dialect: Dialect) -> UInt32 {
        switch dialect {
        case .prelude: return FieldID.bit(FieldID.code) | FieldID.bit(FieldID.challengeToken)
        case .clerk: return FieldID.bit(FieldID.code) | FieldID.bit(FieldID.rotatingTokenNonce) | FieldID.bit(FieldID.createdSessionID)
        case .oauth2, .ory: return FieldID.bit(FieldID.code)
        default:
            return FieldID.bit(FieldID.code) | FieldID.bit(FieldID.challengeToken) | FieldID.bit(FieldID.rotatingTokenNonce)
                | FieldID.bit(FieldID.createdSessionID) | FieldID.bit(FieldID.sessionID) | FieldID.bit(FieldID.stateKey)
                | FieldID.bit(FieldID.status)
        }
    }

    /// The outcome of the common callback, or nil for the full path to decide.
    static func classifyCommon(_ url: CallbackURL, dialect: Dialect, expectations: CallbackExpectations) -> CallbackOutcome? {
        guard expectations.profiles.isEmpty, expectations.responseMode == .query, dialect != .zephr else { return nil }
        // Only an absent or empty fragment; Facebook's `#_=_` goes the full way.
        if let fragment = url.fragmentUTF8Count, fragment != 0 { return nil }

        let query = url.queryParameters
        let scan = scanQuery(query, expectations)
        if scan.repeatsKnownName || query.count > Int(UInt16.max) { return nil }
        if scan.has(FieldID.accessToken) || scan.has(FieldID.idToken) { return nil }
        if scan.hasExtras, query.firstDuplicate() != nil { return nil }

        let hasError = scan.has(FieldID.error)
        if hasError && scan.present & credentialMask(dialect) != 0 { return nil }

        var decided = dialect
        if dialect == .auto {
            let markers =
                scan.present
                & (FieldID.bit(FieldID.code) | FieldID.bit(FieldID.challengeToken)
                    | FieldID.bit(FieldID.rotatingTokenNonce) | FieldID.bit(FieldID.status))
            if markers.nonzeroBitCount > 1 { return nil }
            if markers == FieldID.bit(FieldID.code) {
                decided = .oauth2
            } else if markers == FieldID.bit(FieldID.challengeToken) {
                decided = .prelude
            } else if markers == FieldID.bit(FieldID.rotatingTokenNonce) {
                decided = .clerk
            } else if markers != 0 {
                return nil // Zephr's status: the full path reads Zephr
            } else if hasError {
                decided = .oauth2
            } else {
                return nil
            }
        }
        let kind: OutcomeKind
        if hasError {
            kind = .authorizationError
        } else {
            switch decided {
            case .oauth2: kind = .authorizationCode
            case .ory: kind = .sessionTokenExchangeCode
            case .prelude: kind = .challengeToken
            case .clerk: kind = .rotatingTokenNonce
            default: return nil
            }
        }

        let (known, required) = shape(error: hasError, decided)
        let fields = scan.present & known
        // A field of this outcome that breaks its syntax is refused or withheld: full path.
        if fields & ~scan.wellFormed != 0 { return nil }
        if !scan.has(required) { return nil }
        if expectations.state != nil && !(scan.has(FieldID.state) && scan.stateMatches) { return nil }
        if scan.has(FieldID.iss) {
            if expectations.issuer != nil && !scan.issuerMatches { return nil }
        } else if expectations.requireIssuer {
            return nil
        }

        // No extras (the common case): the outcome reads its fields from the query when asked.
        if scan.present & ~known == 0 && !scan.hasExtras {
            return CallbackOutcome(kind: kind, dialect: decided, query: query, mask: fields, positions: scan.positions)
        }
        // Extras: strings now, known fields in ID order (design.md's), extras in URL order.
        var knownFields: [CallbackOutcome.Field] = []
        var extra: [CallbackOutcome.Field] = []
        for index in query.indices {
            let parameter = query[index]
            let id = FieldID.names.firstIndex(of: parameter.name) ?? FieldID.unknown
            if id == FieldID.unknown || FieldID.bit(id) & known == 0 {
                extra.append(.init(name: parameter.name, value: parameter.value))
            } else {
                knownFields.append(.init(name: parameter.name, value: parameter.value))
            }
        }
        return CallbackOutcome(kind: kind, dialect: decided, fields: knownFields, extra: extra, withheld: [])
    }

    /// One pass over the query's decoded bytes: which known names are present, once or
    /// more, with a well-formed value, and whether state and issuer are the expected ones.
    private static func scanQuery(_ query: Parameters, _ expectations: CallbackExpectations) -> QueryScan {
        var scan = QueryScan()
        var expectedState = expectations.state ?? ""
        var expectedIssuer = expectations.issuer ?? ""
        expectedState.withUTF8 { state in
            expectedIssuer.withUTF8 { issuer in
                var position = 0
                query.forEachDecodedUTF8 { name, value in
                    defer { position += 1 }
                    let id = FieldID.of(name)
                    guard id != FieldID.unknown else {
                        scan.hasExtras = true
                        return
                    }
                    scan.positions[id] = UInt16(truncatingIfNeeded: position)
                    let bit = FieldID.bit(id)
                    if scan.present & bit != 0 { scan.repeatsKnownName = true }
                    scan.present |= bit
                    if FieldID.accepts(id, value) { scan.wellFormed |= bit }
                    if id == FieldID.state, expectations.state != nil {
                        scan.stateMatches = constantTimeEquals(value, state)
                    } else if id == FieldID.iss, expectations.issuer != nil {
                        // RFC 9207 §2.4: simple string comparison.
                        scan.issuerMatches = value.count == issuer.count && value.elementsEqual(issuer)
                    }
                }
            }
        }
        return scan
    }
}

extension CallbackClassifier {
    /// Every step in order, without the common path: the fuzzer checks that
    /// ``classify(_:dialect:expecting:)`` answers exactly as this does, in release builds.
    @_spi(Testing)
    public static func classifyWithoutCommonPath(
        _ url: CallbackURL, dialect: Dialect,
        expecting expectations: CallbackExpectations
    ) throws(CallbackError)
        -> CallbackOutcome
    {
        try classifyFully(url, dialect: dialect, expecting: expectations)
    }
}
