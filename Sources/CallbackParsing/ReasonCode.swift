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

/// A stable, machine-readable reason for refusing a callback.
///
/// Reason codes are the contract scripts and apps match on: they are added, never renamed
/// (every code is listed in the repository's docs/cli.md, "Reason codes"). The type is a struct with static members rather
/// than an enum so that new codes do not break exhaustive `switch`es in users' code.
///
/// Match a thrown error against a code with `catch`:
/// ```swift
/// do { try router.handle(url) }
/// catch ReasonCode.stateMismatch { … }
/// ```
public struct ReasonCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire name, e.g. `"state_mismatch"`.
    public let rawValue: String

    /// Makes a code from its wire name; the static members are the codes this package uses.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The wire name, as the CLI's JSON prints it.
    public var description: String { rawValue }

    /// Every code of the reason-code table (docs/parsing.md), in its order.
    public static let allCases: [ReasonCode] = [
        .emptyInput, .tooLong, .invalidCharacter, .invalidScheme, .relativeReference,
        .invalidAuthority, .invalidHost, .invalidPort, .invalidPercentEncoding, .invalidUTF8,
        .tooManyParameters, .duplicateParameter,
        .invalidConfiguration, .schemeNotAllowed, .redirectURIMismatch, .userinfoNotAllowed,
        .missingParameter, .invalidParameter, .ambiguousResponse, .parametersInFragment,
        .implicitGrantNotSupported, .unknownStatus, .stateMissing, .stateMismatch,
        .issuerMissing, .issuerMismatch,
        .unknownState, .replayed, .attemptExpired, .conflict, .cancelled, .timeout, .noRoute,
        // Added after the first table (codes are added, never renamed):
        .parametersInQuery, .invalidRecord,
        // Added with the token endpoint, the ID token and discovery (docs/tokens.md):
        .unsupportedTokenType, .nonceMismatch, .audienceMismatch, .tokenExpired, .tokenHashMismatch,
        .unsupportedAlgorithm,
        // Added with the comparison of a refreshed ID token with the login's (docs/tokens.md):
        .subjectMismatch, .authTimeMismatch,
    ]

    // MARK: Syntax

    /// `empty_input`: the URL is empty.
    public static let emptyInput = ReasonCode(rawValue: "empty_input")
    /// `too_long`: the URL, or one parameter, is longer than its limit.
    public static let tooLong = ReasonCode(rawValue: "too_long")
    /// `invalid_character`: a byte no browser leaves raw in that component (controls,
    /// space, non-ASCII, and the component's own exclusions; see docs/parsing.md).
    public static let invalidCharacter = ReasonCode(rawValue: "invalid_character")
    /// `invalid_scheme`: the scheme is not `ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")`.
    public static let invalidScheme = ReasonCode(rawValue: "invalid_scheme")
    /// `relative_reference`: there is no scheme; a callback URL is always absolute.
    public static let relativeReference = ReasonCode(rawValue: "relative_reference")
    /// `invalid_authority`: the authority is malformed (e.g. two `@`).
    public static let invalidAuthority = ReasonCode(rawValue: "invalid_authority")
    /// `invalid_host`: the host is malformed or ambiguous (e.g. `0x7f.1`, an IPv6 zone).
    public static let invalidHost = ReasonCode(rawValue: "invalid_host")
    /// `invalid_port`: the port is not decimal digits up to 65535.
    public static let invalidPort = ReasonCode(rawValue: "invalid_port")
    /// `invalid_percent_encoding`: `%` not followed by two hexadecimal digits.
    public static let invalidPercentEncoding = ReasonCode(rawValue: "invalid_percent_encoding")
    /// `invalid_utf8`: percent-decoded bytes that are not valid UTF-8.
    public static let invalidUTF8 = ReasonCode(rawValue: "invalid_utf8")
    /// `too_many_parameters`: more parameters than the limit.
    public static let tooManyParameters = ReasonCode(rawValue: "too_many_parameters")
    /// `duplicate_parameter`: a parameter occurs more than once (RFC 6749 §3.1).
    public static let duplicateParameter = ReasonCode(rawValue: "duplicate_parameter")

    // MARK: Policy

    /// `invalid_configuration`: a registered redirect URI (or other setting) breaks a rule.
    public static let invalidConfiguration = ReasonCode(rawValue: "invalid_configuration")
    /// `scheme_not_allowed`: the scheme is refused by the policy.
    public static let schemeNotAllowed = ReasonCode(rawValue: "scheme_not_allowed")
    /// `redirect_uri_mismatch`: the callback answers no registered redirect URI.
    public static let redirectURIMismatch = ReasonCode(rawValue: "redirect_uri_mismatch")
    /// `userinfo_not_allowed`: the callback carries userinfo (`user@host`).
    public static let userinfoNotAllowed = ReasonCode(rawValue: "userinfo_not_allowed")

    // MARK: Meaning

    /// `missing_parameter`: a parameter the dialect requires is absent.
    public static let missingParameter = ReasonCode(rawValue: "missing_parameter")
    /// `invalid_parameter`: a parameter's value breaks its syntax.
    public static let invalidParameter = ReasonCode(rawValue: "invalid_parameter")
    /// `ambiguous_response`: the callback says two things at once (e.g. `code` and `error`).
    public static let ambiguousResponse = ReasonCode(rawValue: "ambiguous_response")
    /// `parameters_in_fragment`: response parameters in the fragment where the query is expected.
    public static let parametersInFragment = ReasonCode(rawValue: "parameters_in_fragment")
    /// `parameters_in_query`: response parameters in the query where the route expects them
    /// in the fragment (`response_mode=fragment`); the mirror of `parameters_in_fragment`.
    public static let parametersInQuery = ReasonCode(rawValue: "parameters_in_query")
    /// `implicit_grant_not_supported`: tokens in the URL (`access_token`, `id_token`).
    public static let implicitGrantNotSupported = ReasonCode(rawValue: "implicit_grant_not_supported")
    /// `unknown_status`: a status the dialect does not define.
    public static let unknownStatus = ReasonCode(rawValue: "unknown_status")
    /// `state_missing`: a state was expected and none came.
    public static let stateMissing = ReasonCode(rawValue: "state_missing")
    /// `state_mismatch`: the state is not the expected one.
    public static let stateMismatch = ReasonCode(rawValue: "state_mismatch")
    /// `issuer_missing`: the route requires `iss` (RFC 9207) and none came.
    public static let issuerMissing = ReasonCode(rawValue: "issuer_missing")
    /// `issuer_mismatch`: `iss` is not the expected issuer (RFC 9207).
    public static let issuerMismatch = ReasonCode(rawValue: "issuer_mismatch")

    // MARK: Lifecycle

    /// `unknown_state`: no pending attempt has this state.
    public static let unknownState = ReasonCode(rawValue: "unknown_state")
    /// `replayed`: the attempt was already answered.
    public static let replayed = ReasonCode(rawValue: "replayed")
    /// `attempt_expired`: the attempt's deadline has passed.
    public static let attemptExpired = ReasonCode(rawValue: "attempt_expired")
    /// `conflict`: another login is already in progress on this route.
    public static let conflict = ReasonCode(rawValue: "conflict")
    /// `cancelled`: the attempt was cancelled.
    public static let cancelled = ReasonCode(rawValue: "cancelled")
    /// `timeout`: nothing arrived before the deadline.
    public static let timeout = ReasonCode(rawValue: "timeout")
    /// `no_route`: no registered route matches the callback.
    public static let noRoute = ReasonCode(rawValue: "no_route")
    /// `invalid_record`: a sealed attempt record that is not one this package wrote, or not
    /// intact: truncated, an unknown version, a missing or extra line, bad base64url, a
    /// value out of range, or a checksum that does not match (docs/sealed-attempts.md).
    public static let invalidRecord = ReasonCode(rawValue: "invalid_record")

    // MARK: Tokens (added with the token endpoint; docs/tokens.md)

    /// `unsupported_token_type`: a token response's `token_type` is not `Bearer` (compared
    /// case-insensitively, RFC 6749 §5.1) and not one the caller allowed.
    public static let unsupportedTokenType = ReasonCode(rawValue: "unsupported_token_type")
    /// `nonce_mismatch`: the ID token's `nonce` is missing or is not the attempt's (OIDC Core
    /// §3.1.3.7 item 11).
    public static let nonceMismatch = ReasonCode(rawValue: "nonce_mismatch")
    /// `audience_mismatch`: the ID token's `aud` does not contain the client id, or it names
    /// several audiences and `azp` is not the client id (OIDC Core §3.1.3.7 items 3–5).
    public static let audienceMismatch = ReasonCode(rawValue: "audience_mismatch")
    /// `token_expired`: the ID token's `exp` has passed, beyond the allowed clock skew (OIDC
    /// Core §3.1.3.7 item 9).
    public static let tokenExpired = ReasonCode(rawValue: "token_expired")
    /// `token_hash_mismatch`: the ID token's `at_hash` or `c_hash` is not the left half of
    /// the hash of the access token or code (OIDC Core §3.2.2.9, §3.3.2.11).
    public static let tokenHashMismatch = ReasonCode(rawValue: "token_hash_mismatch")
    /// `unsupported_algorithm`: the ID token's `alg` is `none`, is missing, or is one whose
    /// hash this package cannot compute while `at_hash` or `c_hash` needs it.
    public static let unsupportedAlgorithm = ReasonCode(rawValue: "unsupported_algorithm")
    /// `subject_mismatch`: a refreshed ID token's `sub` is not the login's ID token's: the
    /// refresh answered with another account (OIDC Core §12.2).
    public static let subjectMismatch = ReasonCode(rawValue: "subject_mismatch")
    /// `auth_time_mismatch`: a refreshed ID token's `auth_time` is not the login's, and the
    /// check was told it must be (OIDC Core §12.2).
    public static let authTimeMismatch = ReasonCode(rawValue: "auth_time_mismatch")
}

extension ReasonCode {
    /// Lets `catch ReasonCode.stateMismatch` match any error carrying that reason.
    public static func ~= (code: ReasonCode, error: any Error) -> Bool {
        (error as? any ReasonCarrying)?.reason == code
    }
}
