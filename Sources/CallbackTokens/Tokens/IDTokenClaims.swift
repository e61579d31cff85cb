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

/// The claims of an ID token that passed OpenID Connect Core §3.1.3.7's checks, made only
/// by ``TokenSet/checkIDToken(for:clientID:issuer:maxClockSkew:clock:)`` and the
/// `checkRefreshedIDToken` methods of ``TokenSet``: an ID token this package has not seen
/// arrive in a token response cannot become one.
///
/// `description` shows the issuer, audiences and times; the subject's length only.
public struct IDTokenClaims: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `iss`: equal to the expected issuer, byte for byte.
    public let issuer: String
    /// `sub`: the user's identifier at the issuer.
    public let subject: String
    /// `aud`: contains the client id.
    public let audience: [String]
    /// `azp`, when present: the client id.
    public let authorizedParty: String?
    /// `exp`, seconds since the Unix epoch: in the future (within the skew) when checked.
    public let expiresAt: Int64
    /// `iat`, seconds since the Unix epoch: not in the future beyond the skew.
    public let issuedAt: Int64
    /// `auth_time`, when present.
    public let authTime: Int64?
    /// The JWS header's `alg` (not verified: see docs/tokens.md).
    public let algorithm: String
    /// Whether `at_hash` was present and matched the access token.
    public let accessTokenHashChecked: Bool
    /// Whether `c_hash` was present and matched the code.
    public let codeHashChecked: Bool
    /// Whether `nonce` was compared and matched: always after a login's check; after a
    /// refresh only when the refreshed token carries a `nonce` and the login's token was
    /// given to compare it with.
    public let nonceChecked: Bool
    /// The payload's members, for claims this type does not name (`email`, `name`…).
    let claims: JSONObject

    /// The claim `name` when it is a JSON string (`email`, `name`, `acr`…), else nil.
    public func stringClaim(_ name: String) -> String? { claims[name]?.string }

    /// The names of every claim in the payload, in order.
    public var claimNames: [String] { claims.names }

    /// Issuer, audiences, times and which hashes were checked; the subject's length only.
    public var description: String {
        "IDTokenClaims(iss: \(issuer), sub: <\(subject.utf8.count) bytes>, aud: [\(audience.map { ParameterName.shown($0) }.joined(separator: ", "))], exp: \(expiresAt), iat: \(issuedAt), alg: \(ParameterName.shown(algorithm)), nonce: \(nonceChecked ? "matched" : "not checked")\(accessTokenHashChecked ? ", at_hash: matched" : "")\(codeHashChecked ? ", c_hash: matched" : ""))"
    }

    /// The same text as `description`.
    public var debugDescription: String { description }

    /// `dump()` shows the description, never the payload.
    public var customMirror: Mirror { Mirror(self, children: ["claims": description], displayStyle: .struct) }
}

extension TokenSet {
    /// The default allowance for clocks that disagree: five minutes.
    public static let defaultMaxClockSkew: Duration = .seconds(300)

    /// Checks the response's ID token against the login it answers (OpenID Connect Core
    /// §3.1.3.7) and returns its claims.
    ///
    /// Checked, each with its reason code:
    /// - there is an `id_token` (`missing_parameter`), a JWS in compact form: three
    ///   base64url parts, header and payload strict JSON objects (`invalid_parameter`; an
    ///   encrypted, five-part token is `unsupported_algorithm`);
    /// - `alg` is present and not `none` (`unsupported_algorithm`);
    /// - `iss` equals `issuer` exactly (`issuer_missing`, `issuer_mismatch`);
    /// - `sub` is a non-empty string (`missing_parameter`, `invalid_parameter`);
    /// - `aud` (a string or an array of strings) contains `clientID`; with several audiences
    ///   `azp` is required, and when present equals `clientID` (`audience_mismatch`);
    /// - `exp` is an integer after now minus `maxClockSkew` (`token_expired`); `iat` is an
    ///   integer not after now plus `maxClockSkew`, and so is `nbf` when present
    ///   (`invalid_parameter`); a fraction or a string is `invalid_parameter`;
    /// - `nonce` equals the attempt's, compared in constant time (`nonce_mismatch`, also
    ///   when it is missing);
    /// - `at_hash` (against the access token) and `c_hash` (against the delivery's code),
    ///   when present: the base64url of the left half of SHA-256, for `alg` RS256, PS256,
    ///   ES256 and HS256 (`token_hash_mismatch`); with another `alg` a present hash cannot
    ///   be checked and is `unsupported_algorithm`.
    ///
    /// Not checked: the signature. OpenID Connect Core §3.1.3.7 item 6 lets the TLS server
    /// validation of the token endpoint stand in for it when the ID token arrives directly
    /// from that endpoint, which is the only way a ``TokenSet`` is made. Send the request
    /// over `https` with certificate validation on (the `URLSession` transport does).
    ///
    /// - Parameters:
    ///   - delivery: the delivery whose code this response redeemed (its attempt's nonce,
    ///     its code for `c_hash`).
    ///   - clientID: the client id the token was requested with.
    ///   - issuer: the expected issuer, e.g. from discovery's checked `issuer`.
    ///   - maxClockSkew: how far the clocks may disagree (default five minutes).
    ///   - clock: where the current calendar time is read (``AttemptClock/wallClockNanoseconds()``).
    public func checkIDToken(
        for delivery: Delivery, clientID: String, issuer: String, maxClockSkew: Duration = TokenSet.defaultMaxClockSkew,
        clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims {
        guard let idToken else {
            throw CallbackError(.missingParameter, "the token response has no id_token")
        }
        return try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: delivery.outcome.code, nonce: .required(delivery.attempt.nonce), clientID: clientID,
            issuer: issuer, maxClockSkew: maxClockSkew, now: clock.wallClockNanoseconds() / 1_000_000_000)
    }

    /// Checks the ID token of a refresh response (OpenID Connect Core §12.2) against the
    /// claims checked at login, and returns its claims; nil when the response has no
    /// `id_token` (a refresh response need not carry one).
    ///
    /// Everything ``checkIDToken(for:clientID:issuer:maxClockSkew:clock:)`` checks, with
    /// the first token's issuer as the expected one, and: `sub` the same
    /// (`invalid_parameter`), `aud` the same audiences (`audience_mismatch`), `auth_time`
    /// the same when the first had one (`invalid_parameter`), and `nonce` absent or the
    /// same as the first token's (`nonce_mismatch`). A `c_hash` is refused: a refresh
    /// redeems no code (`token_hash_mismatch`).
    public func checkRefreshedIDToken(
        previous: IDTokenClaims, clientID: String, maxClockSkew: Duration = TokenSet.defaultMaxClockSkew,
        clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims? {
        guard let idToken else { return nil }
        let claims = try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: nil, nonce: .ifPresent(previous.stringClaim("nonce")),
            clientID: clientID, issuer: previous.issuer, maxClockSkew: maxClockSkew, now: clock.wallClockNanoseconds() / 1_000_000_000)
        try IDTokenCheck.compare(claims, subject: previous.subject, audience: previous.audience, authTime: previous.authTime)
        return claims
    }

    /// Checks the ID token of a refresh response (OpenID Connect Core §12.2) when the
    /// login's ID token is not at hand, and returns its claims; nil when the response has
    /// no `id_token`.
    ///
    /// Everything ``checkIDToken(for:clientID:issuer:maxClockSkew:clock:)`` checks, with
    /// the same reason codes, except the `nonce`: `iss` equals `issuer`, `aud` contains
    /// `clientID` (and `azp` with several audiences), `exp` and `iat` within
    /// `maxClockSkew`, `alg` `none` refused, `at_hash` against the new access token when
    /// present. A `c_hash` is refused: a refresh redeems no code (`token_hash_mismatch`).
    /// A `nonce` in the refreshed token is not compared (there is nothing to compare it
    /// with; ``IDTokenClaims/nonceChecked`` is false), and neither is the subject: that
    /// the refreshed token names the same user as the login needs the login's token, given
    /// to ``checkRefreshedIDToken(previousIDToken:clientID:issuer:maxClockSkew:clock:)``.
    ///
    /// Not checked: the signature, as in ``checkIDToken(for:clientID:issuer:maxClockSkew:clock:)``.
    public func checkRefreshedIDToken(
        clientID: String, issuer: String, maxClockSkew: Duration = TokenSet.defaultMaxClockSkew,
        clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims? {
        guard let idToken else { return nil }
        return try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: nil, nonce: .unchecked, clientID: clientID, issuer: issuer,
            maxClockSkew: maxClockSkew, now: clock.wallClockNanoseconds() / 1_000_000_000)
    }

    /// Checks the ID token of a refresh response (OpenID Connect Core §12.2) against the
    /// login's ID token given as its compact string (what a process that did not make the
    /// login's ``IDTokenClaims`` holds), and returns its claims; nil when the response has
    /// no `id_token`.
    ///
    /// `previousIDToken` is read first, with ``checkPreviousIDToken(_:clientID:issuer:)``:
    /// it must be a well-formed JWS in compact form whose `iss` equals `issuer`, with a
    /// `sub`, an `aud` containing `clientID`, and `auth_time` and `nonce` well-typed when
    /// present; its `exp` is not looked at (the login's token has usually expired), nor is
    /// its signature. Then everything
    /// ``checkRefreshedIDToken(clientID:issuer:maxClockSkew:clock:)`` checks, and: `sub`
    /// the same (`invalid_parameter`), `aud` the same audiences (`audience_mismatch`),
    /// `auth_time` the same when the earlier token had one (`invalid_parameter`), and
    /// `nonce` absent or the same as the earlier token's (`nonce_mismatch`; a `nonce` when
    /// the earlier token had none is refused too).
    ///
    /// Why reading an unverified earlier token is safe: its claims are used only as
    /// expectations, never as facts returned to the caller. Every claim returned comes from
    /// the new ID token, which arrived directly from the token endpoint over a TLS-validated
    /// connection (OpenID Connect Core §3.1.3.7 item 6) and passes every check above on its
    /// own against `issuer` and `clientID`. A tampered or forged earlier token can therefore
    /// only make a genuine refreshed token fail a comparison (a refusal), never make a token
    /// pass that would otherwise be refused: the comparisons only add conditions.
    ///
    /// - Parameters:
    ///   - previousIDToken: the `id_token` of the login (or of the last checked refresh).
    ///   - clientID: the client id the token was requested with.
    ///   - issuer: the expected issuer, e.g. from discovery's checked `issuer`.
    ///   - maxClockSkew: how far the clocks may disagree (default five minutes).
    ///   - clock: where the current calendar time is read (``AttemptClock/wallClockNanoseconds()``).
    public func checkRefreshedIDToken(
        previousIDToken: String, clientID: String, issuer: String, maxClockSkew: Duration = TokenSet.defaultMaxClockSkew,
        clock: any AttemptClock = SystemAttemptClock()
    ) throws(CallbackError) -> IDTokenClaims? {
        let previous = try IDTokenCheck.previous(previousIDToken, clientID: clientID, issuer: issuer)
        guard let idToken else { return nil }
        let claims = try IDTokenCheck.check(
            idToken, accessToken: accessToken, code: nil, nonce: .ifPresent(previous.nonce), clientID: clientID, issuer: issuer,
            maxClockSkew: maxClockSkew, now: clock.wallClockNanoseconds() / 1_000_000_000)
        try IDTokenCheck.compare(claims, subject: previous.subject, audience: previous.audience, authTime: previous.authTime)
        return claims
    }

    /// Checks that `previousIDToken` can serve as the login's ID token for
    /// ``checkRefreshedIDToken(previousIDToken:clientID:issuer:maxClockSkew:clock:)``, which
    /// runs the same check first: call it before sending a refresh request, so that a
    /// mistaken earlier token is refused before a (possibly rotating) refresh token is spent.
    ///
    /// Refused: not three base64url parts with JSON object header and payload, or no `alg`
    /// or `alg` `none` (`invalid_parameter`); `iss` missing or not `issuer`
    /// (`issuer_missing`, `issuer_mismatch`); no non-empty `sub` (`missing_parameter`,
    /// `invalid_parameter`); `aud` not containing `clientID` (`audience_mismatch`);
    /// `auth_time` not a NumericDate or `nonce` not a string (`invalid_parameter`).
    /// Every detail names it as the earlier ID token.
    public static func checkPreviousIDToken(_ previousIDToken: String, clientID: String, issuer: String) throws(CallbackError) {
        _ = try IDTokenCheck.previous(previousIDToken, clientID: clientID, issuer: issuer)
    }
}

enum IDTokenCheck {
    static let limits = JSONLimits(maxBytes: 32 * 1024, maxDepth: 16, maxStringBytes: 16 * 1024, maxMembers: 128)
    static let sha256Algorithms: Set<String> = ["RS256", "PS256", "ES256", "HS256"]

    /// What the `nonce` claim must be.
    enum NonceExpectation {
        /// A login: present and equal to the attempt's.
        case required(String)
        /// A refresh against the login's token: absent, or equal to the login's (a nil
        /// expectation, a login token without one, then refuses any).
        case ifPresent(String?)
        /// A refresh without the login's token: not compared.
        case unchecked
    }

    /// The claims of the login's ID token a refreshed one is compared with (read, not trusted).
    struct Previous {
        let subject: String
        let audience: [String]
        let authTime: Int64?
        let nonce: String?
    }

    static func check(
        _ token: String, accessToken: String, code: String?, nonce: NonceExpectation, clientID: String,
        issuer: String, maxClockSkew: Duration, now: Int64
    ) throws(CallbackError) -> IDTokenClaims {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.count == 5 {
            throw CallbackError(.unsupportedAlgorithm, "the ID token is encrypted (JWE); only signed ID tokens are read")
        }
        guard parts.count == 3 else {
            throw CallbackError(.invalidParameter, "the ID token is not a JWS in compact form (three base64url parts)")
        }
        let header = try object(parts[0], naming: "header")
        let payload = try object(parts[1], naming: "payload")

        guard let algorithm = header["alg"]?.string, !algorithm.isEmpty else {
            throw CallbackError(.unsupportedAlgorithm, "the ID token's header has no alg")
        }
        guard algorithm != "none" else {
            throw CallbackError(.unsupportedAlgorithm, "the ID token is unsigned (alg none)")
        }

        guard let issuerValue = payload["iss"] else {
            throw CallbackError(.issuerMissing, "the ID token has no iss")
        }
        guard let tokenIssuer = issuerValue.string, tokenIssuer == issuer else {
            throw CallbackError(.issuerMismatch, "the ID token's iss is not the expected issuer (\(issuer))")
        }

        guard let subjectValue = payload["sub"] else {
            throw CallbackError(.missingParameter, "the ID token has no sub")
        }
        guard let subject = subjectValue.string, !subject.isEmpty else {
            throw CallbackError(.invalidParameter, "the ID token's sub is not a non-empty string")
        }

        let audience: [String]
        switch payload["aud"] {
        case .string(let one)?:
            audience = [one]
        case .array(let many)?:
            var strings: [String] = []
            for element in many {
                guard let text = element.string else {
                    throw CallbackError(.audienceMismatch, "the ID token's aud is not a string or an array of strings")
                }
                strings.append(text)
            }
            audience = strings
        default:
            throw CallbackError(.audienceMismatch, "the ID token has no aud, or it is not a string or an array of strings")
        }
        guard audience.contains(clientID) else {
            throw CallbackError(.audienceMismatch, "the ID token's aud does not contain the client id (\(clientID))")
        }
        let authorizedParty: String?
        switch payload["azp"] {
        case nil:
            guard audience.count == 1 else {
                throw CallbackError(.audienceMismatch, "the ID token names several audiences and no azp (OIDC Core §3.1.3.7 item 4)")
            }
            authorizedParty = nil
        case .string(let azp)? where azp == clientID:
            authorizedParty = azp
        default:
            throw CallbackError(.audienceMismatch, "the ID token's azp is not the client id (\(clientID))")
        }

        let skew = max(0, maxClockSkew.nanosecondsSaturated / 1_000_000_000)
        let expiresAt = try seconds("exp", in: payload, required: true) ?? 0
        guard expiresAt > now.subtractingReportingOverflow(skew).partialValue else {
            throw CallbackError(.tokenExpired, "the ID token expired (exp \(expiresAt), now \(now), allowed skew \(skew) s)")
        }
        let issuedAt = try seconds("iat", in: payload, required: true) ?? 0
        let latest = now.addingReportingOverflow(skew)
        let horizon = latest.overflow ? Int64.max : latest.partialValue
        guard issuedAt <= horizon else {
            throw CallbackError(
                .invalidParameter, "the ID token was issued in the future (iat \(issuedAt), now \(now), allowed skew \(skew) s)")
        }
        if let notBefore = try seconds("nbf", in: payload, required: false), notBefore > horizon {
            throw CallbackError(.invalidParameter, "the ID token is not valid yet (nbf \(notBefore), now \(now), allowed skew \(skew) s)")
        }
        let authTime = try seconds("auth_time", in: payload, required: false)

        let nonceChecked: Bool
        switch nonce {
        case .required(let expected):
            guard let tokenNonce = payload["nonce"]?.string, constantTimeEquals(tokenNonce, expected) else {
                throw CallbackError(.nonceMismatch, "the ID token's nonce is missing or is not the attempt's")
            }
            nonceChecked = true
        case .ifPresent(let expected):
            if let value = payload["nonce"] {
                guard let tokenNonce = value.string, let expected, constantTimeEquals(tokenNonce, expected) else {
                    throw CallbackError(.nonceMismatch, "the refreshed ID token's nonce is not the login's ID token's")
                }
                nonceChecked = true
            } else {
                nonceChecked = false
            }
        case .unchecked:
            nonceChecked = false
        }

        let accessTokenHashChecked = try checkHash("at_hash", of: accessToken, in: payload, algorithm: algorithm)
        let codeHashChecked: Bool
        if payload["c_hash"] != nil {
            guard let code else {
                throw CallbackError(.tokenHashMismatch, "the ID token has a c_hash, and no code was redeemed (a refresh)")
            }
            codeHashChecked = try checkHash("c_hash", of: code, in: payload, algorithm: algorithm)
        } else {
            codeHashChecked = false
        }

        return IDTokenClaims(
            issuer: tokenIssuer, subject: subject, audience: audience, authorizedParty: authorizedParty, expiresAt: expiresAt,
            issuedAt: issuedAt, authTime: authTime, algorithm: algorithm, accessTokenHashChecked: accessTokenHashChecked,
            codeHashChecked: codeHashChecked, nonceChecked: nonceChecked, claims: payload)
    }

    /// OIDC Core §12.2: the refreshed token names the same user, audiences and
    /// authentication as the login's.
    static func compare(_ claims: IDTokenClaims, subject: String, audience: [String], authTime: Int64?) throws(CallbackError) {
        guard claims.subject == subject else {
            throw CallbackError(.invalidParameter, "the refreshed ID token's sub is not the first ID token's")
        }
        guard Set(claims.audience) == Set(audience) else {
            throw CallbackError(.audienceMismatch, "the refreshed ID token's aud is not the first ID token's")
        }
        if let authTime, claims.authTime != authTime {
            throw CallbackError(.invalidParameter, "the refreshed ID token's auth_time is not the first ID token's")
        }
    }

    /// Reads the login's ID token as expectations: well-formed, `iss` the expected issuer,
    /// `sub`, `aud` with the client id, `auth_time` and `nonce` well-typed. Not trusted:
    /// see ``TokenSet/checkRefreshedIDToken(previousIDToken:clientID:issuer:maxClockSkew:clock:)``.
    static func previous(_ token: String, clientID: String, issuer: String) throws(CallbackError) -> Previous {
        do throws(CallbackError) {
            let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count == 3 else {
                throw CallbackError(.invalidParameter, "it is not a JWS in compact form (three base64url parts)")
            }
            let header = try object(parts[0], naming: "header")
            let payload = try object(parts[1], naming: "payload")
            guard let algorithm = header["alg"]?.string, !algorithm.isEmpty, algorithm != "none" else {
                throw CallbackError(.invalidParameter, "its header has no alg, or alg none")
            }
            guard let issuerValue = payload["iss"] else { throw CallbackError(.issuerMissing, "it has no iss") }
            guard issuerValue.string == issuer else {
                throw CallbackError(.issuerMismatch, "its iss is not the expected issuer (\(issuer))")
            }
            guard let subjectValue = payload["sub"] else { throw CallbackError(.missingParameter, "it has no sub") }
            guard let subject = subjectValue.string, !subject.isEmpty else {
                throw CallbackError(.invalidParameter, "its sub is not a non-empty string")
            }
            var audience: [String] = []
            switch payload["aud"] {
            case .string(let one)?: audience = [one]
            case .array(let many)?: audience = many.compactMap(\.string)
            default: break
            }
            guard audience.contains(clientID) else {
                throw CallbackError(.audienceMismatch, "its aud does not contain the client id (\(clientID))")
            }
            let authTime = try seconds("auth_time", in: payload, required: false)
            var nonce: String?
            if let value = payload["nonce"] {
                guard let text = value.string else { throw CallbackError(.invalidParameter, "its nonce is not a string") }
                nonce = text
            }
            return Previous(subject: subject, audience: audience, authTime: authTime, nonce: nonce)
        } catch {
            throw CallbackError(error.reason, "the earlier (login's) ID token: " + error.detail)
        }
    }

    static func object(_ part: Substring.UTF8View.SubSequence, naming name: String) throws(CallbackError) -> JSONObject {
        guard let bytes = Base64URL.decode(String(decoding: part, as: UTF8.self)) else {
            throw CallbackError(.invalidParameter, "the ID token's \(name) is not canonical base64url")
        }
        let value = try JSONReader.parse(bytes, limits: limits)
        guard let object = value.object else {
            throw CallbackError(.invalidParameter, "the ID token's \(name) is a JSON \(value.typeName), not an object")
        }
        return object
    }

    /// A NumericDate claim as whole seconds: a JSON integer (a fraction, an exponent, a
    /// string or a negative value is `invalid_parameter`).
    static func seconds(_ name: String, in payload: JSONObject, required: Bool) throws(CallbackError) -> Int64? {
        guard let value = payload[name] else {
            if required { throw CallbackError(.missingParameter, "the ID token has no \(name)") }
            return nil
        }
        guard let seconds = value.number?.int64, seconds >= 0 else {
            throw CallbackError(.invalidParameter, "the ID token's \(name) is not a non-negative integer NumericDate")
        }
        return seconds
    }

    /// OIDC Core §3.1.3.6: the base64url of the left half of the hash of the ASCII value,
    /// the hash named by the JWS `alg`.
    static func checkHash(_ name: String, of value: String, in payload: JSONObject, algorithm: String) throws(CallbackError) -> Bool {
        guard let claim = payload[name] else { return false }
        guard sha256Algorithms.contains(algorithm) else {
            throw CallbackError(
                .unsupportedAlgorithm,
                "the ID token's \(name) needs the hash of alg \(ParameterName.shown(algorithm)), which this package does not compute")
        }
        let expected = Base64URL.encode(SHA256.hash(value.utf8).prefix(SHA256.digestByteCount / 2))
        guard let text = claim.string, constantTimeEquals(text, expected) else {
            throw CallbackError(.tokenHashMismatch, "the ID token's \(name) does not match")
        }
        return true
    }
}
