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
        let issuer: String
        let subject: String
        let audience: [String]
        /// `azp`, when present.
        let authorizedParty: String?
        let authTime: Int64?
        let nonce: String?
        /// Its `iat` when it is an integer (only named in a refusal, never required).
        let issuedAt: Int64?

        /// The claims of a login's ID token checked in this process.
        init(_ claims: IDTokenClaims) {
            self.init(
                issuer: claims.issuer, subject: claims.subject, audience: claims.audience, authorizedParty: claims.authorizedParty,
                authTime: claims.authTime, nonce: claims.stringClaim("nonce"), issuedAt: claims.issuedAt)
        }

        init(
            issuer: String, subject: String, audience: [String], authorizedParty: String?, authTime: Int64?, nonce: String?,
            issuedAt: Int64?
        ) {
            self.issuer = issuer
            self.subject = subject
            self.audience = audience
            self.authorizedParty = authorizedParty
            self.authTime = authTime
            self.nonce = nonce
            self.issuedAt = issuedAt
        }
    }

    /// What an ID token is checked against besides the login: the `alg` values allowed, the
    /// clock skew, and how long ago it may have been issued.
    struct Settings {
        let signingAlgorithms: [String]
        let maxClockSkew: Duration
        let maxIssuedAtAge: Duration
        /// The `iat` of the earlier ID token a refreshed one is compared with, when known:
        /// names a repeated token in the refusal of a stale `iat`.
        var previousIssuedAt: Int64? = nil
    }

    /// OIDC Core §3.1.3.7, in its order: the token's form, the header (`alg`, `crit`), `iss`,
    /// `sub`, `aud` and `azp`, the times, the `nonce`, then `at_hash` and `c_hash`.
    static func check(
        _ token: String, accessToken: String, code: String?, nonce: NonceExpectation, clientID: String,
        issuer: String, settings: Settings, now: Int64
    ) throws(CallbackError) -> IDTokenClaims {
        let (header, payload) = try signedParts(of: token)
        let algorithm = try checkHeader(header, allowing: settings.signingAlgorithms)
        let tokenIssuer = try checkIssuer(in: payload, expected: issuer)
        let subject = try checkSubject(in: payload)
        let (audience, authorizedParty) = try checkAudience(in: payload, clientID: clientID)
        let times = try checkTimes(in: payload, now: now, settings: settings)
        let nonceChecked = try checkNonce(in: payload, expecting: nonce)
        let accessTokenHashChecked = try checkHash("at_hash", of: accessToken, in: payload, algorithm: algorithm)
        let codeHashChecked = try checkCodeHash(of: code, in: payload, algorithm: algorithm)
        return IDTokenClaims(
            issuer: tokenIssuer, subject: subject, audience: audience, authorizedParty: authorizedParty,
            expiresAt: times.expiresAt, issuedAt: times.issuedAt, authTime: times.authTime, algorithm: algorithm,
            accessTokenHashChecked: accessTokenHashChecked, codeHashChecked: codeHashChecked, nonceChecked: nonceChecked,
            claims: payload)
    }

    /// The header and payload of a JWS in compact form (an encrypted, five-part token is
    /// `unsupported_algorithm`).
    static func signedParts(of token: String) throws(CallbackError) -> (header: JSONObject, payload: JSONObject) {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.count == 5 {
            throw CallbackError(.unsupportedAlgorithm, "the ID token is encrypted (JWE); only signed ID tokens are read")
        }
        guard parts.count == 3 else {
            throw CallbackError(.invalidParameter, "the ID token is not a JWS in compact form (three base64url parts)")
        }
        return (try object(parts[0], naming: "header"), try object(parts[1], naming: "payload"))
    }

    /// Whether `algorithm` is `none` in any spelling (`NONE`, `nOnE`): an unsigned token.
    static func isNone(_ algorithm: String) -> Bool {
        algorithm.utf8.count == 4 && algorithm.lowercased() == "none"
    }

    /// The JOSE header: `alg` present, not `none` in any case, one of `allowed` (OIDC Core
    /// §3.1.3.7 item 7), and no `crit` (RFC 7515 §4.1.11: no extension is understood here,
    /// so a critical one makes the token invalid). Returns the `alg`.
    static func checkHeader(_ header: JSONObject, allowing allowed: [String]) throws(CallbackError) -> String {
        guard let algorithm = header["alg"]?.string, !algorithm.isEmpty else {
            throw CallbackError(.unsupportedAlgorithm, "the ID token's header has no alg")
        }
        guard !isNone(algorithm) else {
            throw CallbackError(
                .unsupportedAlgorithm,
                "the ID token is unsigned (alg \(ParameterName.shown(algorithm))): an unsigned ID token is never accepted")
        }
        guard header["crit"] == nil else {
            throw CallbackError(
                .unsupportedAlgorithm,
                "the ID token's header has crit: it names extensions the token must not be accepted without, and this package understands none (RFC 7515 §4.1.11)"
            )
        }
        guard allowed.contains(algorithm) else {
            throw CallbackError(
                .unsupportedAlgorithm,
                "the ID token is signed with alg \(ParameterName.shown(algorithm)), not one the provider is known to sign ID tokens with (\(allowed.map { ParameterName.shown($0) }.joined(separator: ", "))): pass the provider's id_token_signing_alg_values_supported as signingAlgorithms (default RS256, OpenID Connect Core §3.1.3.7 item 7)"
            )
        }
        return algorithm
    }

    /// `iss`, equal to the expected issuer byte for byte.
    static func checkIssuer(in payload: JSONObject, expected issuer: String) throws(CallbackError) -> String {
        guard let issuerValue = payload["iss"] else {
            throw CallbackError(.issuerMissing, "the ID token has no iss")
        }
        guard let tokenIssuer = issuerValue.string, tokenIssuer == issuer else {
            throw CallbackError(.issuerMismatch, "the ID token's iss is not the expected issuer (\(issuer))")
        }
        return tokenIssuer
    }

    /// `sub`, a non-empty string.
    static func checkSubject(in payload: JSONObject) throws(CallbackError) -> String {
        guard let subjectValue = payload["sub"] else {
            throw CallbackError(.missingParameter, "the ID token has no sub")
        }
        guard let subject = subjectValue.string, !subject.isEmpty else {
            throw CallbackError(.invalidParameter, "the ID token's sub is not a non-empty string")
        }
        return subject
    }

    /// `aud` (a string or an array of strings) containing the client id, and `azp`: required
    /// with several audiences (item 4), the client id when present.
    static func checkAudience(
        in payload: JSONObject, clientID: String
    ) throws(CallbackError) -> (audience: [String], authorizedParty: String?) {
        let audience: [String]
        switch payload["aud"]?.storage {
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
        switch payload["azp"]?.storage {
        case nil:
            guard audience.count == 1 else {
                throw CallbackError(.audienceMismatch, "the ID token names several audiences and no azp (OIDC Core §3.1.3.7 item 4)")
            }
            return (audience, nil)
        case .string(let azp)? where azp == clientID:
            return (audience, azp)
        default:
            throw CallbackError(.audienceMismatch, "the ID token's azp is not the client id (\(clientID))")
        }
    }

    /// `exp` after now minus the skew; `iat` not after now plus the skew nor before now minus
    /// the skew and the maximum age; `nbf` not after now plus the skew; and `auth_time` read
    /// when present.
    static func checkTimes(
        in payload: JSONObject, now: Int64, settings: Settings
    ) throws(CallbackError) -> (expiresAt: Int64, issuedAt: Int64, authTime: Int64?) {
        let skew = wholeSeconds(settings.maxClockSkew)
        let maxAge = wholeSeconds(settings.maxIssuedAtAge)
        let expiresAt = try seconds("exp", in: payload, required: true) ?? 0
        guard expiresAt > now.subtractingReportingOverflow(skew).partialValue else {
            throw CallbackError(
                .tokenExpired,
                "the ID token expired (exp \(expiresAt), now \(now), allowed skew \(skew) s): sign in again; if this device's clock is wrong, correct it"
            )
        }
        let issuedAt = try seconds("iat", in: payload, required: true) ?? 0
        let latest = now.addingReportingOverflow(skew)
        let horizon = latest.overflow ? Int64.max : latest.partialValue
        guard issuedAt <= horizon else {
            throw CallbackError(
                .invalidParameter,
                "the ID token was issued in the future (iat \(issuedAt), now \(now), allowed skew \(skew) s): if this device's clock is behind, correct it"
            )
        }
        let earliest = now.subtractingReportingOverflow(skew).partialValue.subtractingReportingOverflow(maxAge)
        if !earliest.overflow, issuedAt < earliest.partialValue {
            let repeated =
                settings.previousIssuedAt == issuedAt
                ? "; it repeats the earlier ID token (the same iat), and a refreshed ID token must be newly issued (OpenID Connect Core §12.2)"
                : ""
            throw CallbackError(
                .tokenExpired,
                "the ID token was issued too long ago (iat \(issuedAt), now \(now): more than \(maxAge) s, the maxIssuedAtAge, plus the allowed skew \(skew) s)\(repeated): sign in again; if this device's clock is wrong, correct it"
            )
        }
        if let notBefore = try seconds("nbf", in: payload, required: false), notBefore > horizon {
            throw CallbackError(.invalidParameter, "the ID token is not valid yet (nbf \(notBefore), now \(now), allowed skew \(skew) s)")
        }
        return (expiresAt, issuedAt, try seconds("auth_time", in: payload, required: false))
    }

    /// A setting's whole seconds, never negative.
    static func wholeSeconds(_ duration: Duration) -> Int64 {
        max(0, duration.nanosecondsSaturated / 1_000_000_000)
    }

    /// The `nonce` as `expectation` says, compared in constant time; whether it was compared.
    static func checkNonce(in payload: JSONObject, expecting expectation: NonceExpectation) throws(CallbackError) -> Bool {
        switch expectation {
        case .required(let expected):
            guard let tokenNonce = payload["nonce"]?.string, constantTimeEquals(tokenNonce, expected) else {
                throw CallbackError(.nonceMismatch, "the ID token's nonce is missing or is not the attempt's")
            }
            return true
        case .ifPresent(let expected):
            guard let value = payload["nonce"] else { return false }
            guard let tokenNonce = value.string, let expected, constantTimeEquals(tokenNonce, expected) else {
                throw CallbackError(.nonceMismatch, "the refreshed ID token's nonce is not the login's ID token's")
            }
            return true
        case .unchecked:
            return false
        }
    }

    /// `c_hash` against the redeemed code when present; refused when no code was redeemed
    /// (a refresh).
    static func checkCodeHash(of code: String?, in payload: JSONObject, algorithm: String) throws(CallbackError) -> Bool {
        guard payload["c_hash"] != nil else { return false }
        guard let code else {
            throw CallbackError(.tokenHashMismatch, "the ID token has a c_hash, and no code was redeemed (a refresh)")
        }
        return try checkHash("c_hash", of: code, in: payload, algorithm: algorithm)
    }

    /// OIDC Core §12.2: the refreshed token names the same issuer, user, audiences and
    /// authorized party as the login's (each refusal names the claim, never its value), and
    /// the same authentication as `authTime` says: compared when both tokens carry an
    /// `auth_time` (§12.2 binds it only "if the ID Token contains an auth_time Claim"), and a
    /// change either refused or recorded in ``IDTokenClaims/authTimeChanged``.
    static func compare(
        _ claims: inout IDTokenClaims, with previous: Previous, authTime rule: RefreshedAuthTime
    ) throws(CallbackError) {
        let login = "the login's ID token's"
        guard claims.issuer == previous.issuer else {
            throw CallbackError(.issuerMismatch, "the refreshed ID token's iss is not \(login) (OpenID Connect Core §12.2)")
        }
        guard claims.subject == previous.subject else {
            throw CallbackError(
                .subjectMismatch,
                "the refreshed ID token's sub is not \(login): the provider answered the refresh with another account's ID token (OpenID Connect Core §12.2)"
            )
        }
        guard Set(claims.audience) == Set(previous.audience) else {
            throw CallbackError(.audienceMismatch, "the refreshed ID token's aud is not \(login) (OpenID Connect Core §12.2)")
        }
        guard claims.authorizedParty == previous.authorizedParty else {
            throw CallbackError(
                .audienceMismatch,
                "the refreshed ID token's azp is not \(login) (present in one and not the other, or another value; OpenID Connect Core §12.2)"
            )
        }
        guard let original = previous.authTime, let refreshed = claims.authTime, refreshed != original else { return }
        switch rule {
        case .mustMatch:
            throw CallbackError(
                .authTimeMismatch,
                "the refreshed ID token's auth_time is not \(login): OpenID Connect Core §12.2 says it must be the original authentication's (RefreshedAuthTime.mayChange accepts a provider that sends the time of the refresh)"
            )
        case .mayChange:
            claims.authTimeChanged = true
        }
    }

    /// Reads the login's ID token as expectations: well-formed, `iss` the expected issuer,
    /// `sub`, `aud` with the client id, `auth_time` and `nonce` well-typed. Not trusted:
    /// see ``TokenSet/checkRefreshedIDToken(previousIDToken:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:authTime:)``.
    static func previous(_ token: String, clientID: String, issuer: String) throws(CallbackError) -> Previous {
        do throws(CallbackError) {
            let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count == 3 else {
                throw CallbackError(.invalidParameter, "it is not a JWS in compact form (three base64url parts)")
            }
            let header = try object(parts[0], naming: "header")
            let payload = try object(parts[1], naming: "payload")
            guard let algorithm = header["alg"]?.string, !algorithm.isEmpty, !isNone(algorithm) else {
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
            switch payload["aud"]?.storage {
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
            var authorizedParty: String?
            if let value = payload["azp"] {
                guard let text = value.string else { throw CallbackError(.invalidParameter, "its azp is not a string") }
                authorizedParty = text
            }
            return Previous(
                issuer: issuer, subject: subject, audience: audience, authorizedParty: authorizedParty, authTime: authTime, nonce: nonce,
                issuedAt: payload["iat"]?.number?.int64)
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
