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
        var relaxations = expectations.profiles.relaxations
        if dialect.rules.readsMagicLinks { relaxations.insert(.magicLinkInFragment) }
        let response = try ResponseParameters(url, mode: expectations.responseMode, relaxations: relaxations)
        var outcome = try read(response, dialect: dialect, hosted: relaxations.contains(.clerkHosted))
        if outcome.kind == .authorizationError,
            response.isErrorFromFragment || (relaxations.contains(.unboundErrors) && outcome.state == nil)
                || (outcome.dialect.rules.errorsAreUnbound && outcome.state == nil)
        {
            // An error the provider sends without the app's state (ProviderProfile.supabase,
            // .cognito; any error on a dialect whose errors are unbound, as Clerk's native flow
            // has no state): reported, but tied to no login.
            outcome = outcome.unbound()
        }
        // Clerk's failure, transfer and bare callbacks are unbound whatever they carry; a state
        // they do carry is still checked.
        if !outcome.isUnbound || outcome.state != nil {
            try checkState(outcome, response, expectations)
        }
        try checkIssuer(outcome, response, expectations)
        return outcome
    }

    // MARK: Dialects

    /// The fields of an error response, whatever the dialect.
    static let errorFields = ["error", "error_description", "error_uri", "state", "iss"]

    /// The dialects ``Dialect/auto`` can pick, by their markers' precedence (Dialect+Table.swift).
    private static let markers: [(name: String, dialect: Dialect)] = Dialect.allCases
        .compactMap { dialect in dialect.rules.marker.map { (name: $0.name, precedence: $0.precedence, dialect: dialect) } }
        .sorted { $0.precedence < $1.precedence }.map { (name: $0.name, dialect: $0.dialect) }

    /// `code, challenge_token, rotating_token_nonce, status or error`.
    private static let markerList = markers.map(\.name).joined(separator: ", ") + " or error"

    private static func read(_ response: ResponseParameters, dialect: Dialect, hosted: Bool) throws(CallbackError)
        -> CallbackOutcome
    {
        let present = markers.filter { response.has($0.name) }
        // Prelude's SDKs read `error` only when it is not empty (`?error=&challenge_token=…`
        // finalizes): on such a dialect (or the one auto picks first) an empty one is no
        // error (it stays an extra).
        let ignoresEmptyError =
            dialect.rules.ignoresEmptyError || (dialect == .auto && present.first?.dialect.rules.ignoresEmptyError == true)
        let hasError = response.has("error") && !(ignoresEmptyError && response.item("error")?.value.isEmpty == true)
        if hasError, let credential = dialect.rules.credentials.first(where: response.has) {
            throw CallbackError(
                .ambiguousResponse, at: response.item(credential)?.offset,
                "the callback carries both 'error' and '\(credential)': it is neither a success nor a failure")
        }

        var decided = dialect
        if dialect == .auto {
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
                throw CallbackError(.missingParameter, at: nil, "no parameter says what this callback is (\(markerList))")
            }
        }

        if hasError {
            return try build(.authorizationError, decided, response, known: errorFields, required: ["error"])
        }
        guard let reader = decided.rules.read else { preconditionFailure("auto reads no callback of its own") }
        return try reader(response, decided, hosted)
    }

    // MARK: Ory

    /// Ory's exchange code, or (account linking: Kratos sends the new login flow's id and no
    /// code) the login flow to continue.
    static func readOry(_ response: ResponseParameters, _ dialect: Dialect, hosted: Bool) throws(CallbackError)
        -> CallbackOutcome
    {
        if !response.has("code") && response.has("flow") {
            return try build(.continueLoginFlow, dialect, response, known: ["flow", "state", "iss"], required: ["flow"])
        }
        return try build(
            .sessionTokenExchangeCode, dialect, response, known: ["code", "state", "iss", "flow"], required: ["code"])
    }

    // MARK: Prelude

    static func readPrelude(_ response: ResponseParameters, _ dialect: Dialect, hosted: Bool) throws(CallbackError)
        -> CallbackOutcome
    {
        if response.item("challenge_token")?.value.isEmpty == true {
            // Both Prelude SDKs read an empty token as none (`missing_challenge_token`).
            throw CallbackError(
                .missingParameter, at: nil, "the prelude dialect requires 'challenge_token' for challenge_token (it is empty)")
        }
        return try build(
            .challengeToken, dialect, response, known: ["challenge_token", "state", "iss"], required: ["challenge_token"])
    }

    // MARK: Clerk

    /// Clerk's failure and transfer signal (clerk-js `authenticateWithTransport.ts`,
    /// clerk-android `SSOService.kt`).
    private static let clerkSignals = ["__clerk_status", "__clerk_error_code"]
    private static let magicLinkFields = ["flow_id", "approval_token"]
    /// `__clerk_error_code`s that, with `__clerk_status=failed`, continue the sign-in as a
    /// sign-up (`external_account_not_found`) or the sign-up as a sign-in (`external_account_exists`).
    private static let clerkTransferCodes = ["external_account_not_found", "external_account_exists"]
    /// The codes clerk-js shows as they came; any other is `oauth_callback_failed`.
    private static let clerkKnownFailureCodes = ["oauth_access_denied", "oauth_callback_failed"]

    /// Clerk's callbacks, each shape once: a nonce (native OAuth; with ``ProviderProfile/clerkHosted``
    /// also `state` and `created_session_id`), a magic link, a failure or transfer signal, or
    /// nothing. Two shapes at once are `ambiguous_response` (clerk-js lets the failure win,
    /// clerk-android the nonce: we refuse both readings).
    static func readClerk(_ response: ResponseParameters, _ dialect: Dialect, hosted: Bool) throws(CallbackError)
        -> CallbackOutcome
    {
        let signal = clerkSignals.first(where: response.has)
        let link = magicLinkFields.first(where: response.has)
        // An empty nonce is no nonce to every Clerk SDK (clerk-js `if (nonce)`, clerk-android
        // `takeIf(String::isNotBlank)`): the callback is read without it (it stays an extra).
        if let nonce = response.item("rotating_token_nonce"), !nonce.value.isEmpty {
            // A status other than `failed` says nothing to either SDK: the nonce stands, and the
            // status is an extra.
            let failure = response.item("__clerk_status")?.value == "failed" || response.has("__clerk_error_code")
            if let other = failure ? signal : link {
                throw CallbackError(
                    .ambiguousResponse, at: response.item(other)?.offset,
                    "the callback carries both 'rotating_token_nonce' and '\(other)': it is neither a success nor a failure")
            }
            let outcome = try build(
                .rotatingTokenNonce, .clerk, response,
                known: ["rotating_token_nonce", "created_session_id", "state", "iss"],
                required: hosted ? ["rotating_token_nonce", "created_session_id"] : ["rotating_token_nonce"])
            if hosted && outcome.state == nil {
                throw CallbackError(
                    .stateMissing, at: nil, "Clerk's hosted auth sends the attempt's state back and the callback has none")
            }
            return outcome
        }
        if response.has("created_session_id") {
            throw CallbackError(
                .missingParameter, at: nil,
                "the clerk dialect requires 'rotating_token_nonce' with 'created_session_id'")
        }
        if let link {
            // A blank flow id or approval token is none to both SDKs (clerk-ios trims and
            // drops an empty value, clerk-android `isNullOrBlank`).
            for name in magicLinkFields {
                if let item = response.item(name), item.value.utf8.allSatisfy(isASCIIWhitespace) {
                    throw CallbackError(
                        .missingParameter, at: nil,
                        "the clerk dialect requires '\(name)' for magic_link (it is blank)")
                }
            }
            if let signal {
                throw CallbackError(
                    .ambiguousResponse, at: response.item(signal)?.offset,
                    "the callback carries both '\(link)' and '\(signal)': it is neither a magic link nor a failure")
            }
            return try build(
                .magicLink, .clerk, response, known: ["flow_id", "approval_token", "state", "iss"],
                required: ["flow_id", "approval_token"])
        }
        if signal != nil { return try readClerkSignal(response) }
        if hosted {
            // Hosted auth answers with its nonce only (clerk-ios `HostedAuthCallback`).
            throw CallbackError(.missingParameter, at: nil, "Clerk's hosted auth requires 'rotating_token_nonce'")
        }
        // Nothing in the URL: the app asks Clerk (clerk-ios and clerk-js reload the sign-in).
        return try build(.bareCallback, .clerk, response, known: ["state", "iss"], required: []).unbound()
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// `__clerk_status=failed` with a transfer code → `account_transfer`; any other failed
    /// status, or a `__clerk_error_code` alone (clerk-android) → `clerk_failure`, the code
    /// normalised as clerk-js does; another status → `unknown_status`.
    private static func readClerkSignal(_ response: ResponseParameters) throws(CallbackError) -> CallbackOutcome {
        let status = response.item("__clerk_status")
        if let status, status.value != "failed" {
            throw CallbackError(
                .unknownStatus, at: status.valueOffset,
                "the __clerk_status is not one a native Clerk callback carries (failed)")
        }
        // The code is compared byte for byte with the few Clerk defines; its own text is never
        // shown unless it is one of them (an empty one is absent, as clerk-js reads it).
        let code = response.item("__clerk_error_code")?.value ?? ""
        let kind: OutcomeKind
        let shown: String
        if status != nil && clerkTransferCodes.contains(code) {
            kind = .accountTransfer
            shown = code
        } else {
            kind = .clerkFailure
            shown = clerkKnownFailureCodes.contains(code) ? code : "oauth_callback_failed"
        }
        let built = try build(
            kind, .clerk, response, known: ["__clerk_status", "state", "iss"], required: [], omitting: ["__clerk_error_code"])
        return CallbackOutcome(
            kind: kind, dialect: .clerk, fields: built.knownFields + [.init(name: "__clerk_error_code", value: shown)],
            extra: built.extraFields, withheld: built.withheldFields, isUnbound: true)
    }

    static func readZephr(_ response: ResponseParameters, _ dialect: Dialect, hosted: Bool) throws(CallbackError)
        -> CallbackOutcome
    {
        guard let status = response.item("status") else {
            throw CallbackError(.missingParameter, at: nil, "the zephr dialect requires 'status'")
        }
        switch status.value {
        case "success":
            return try build(.loginSuccess, .zephr, response, known: Dialect.zephrFields, required: ["session_id"])
        case "partial":
            return try build(.partialRegistration, .zephr, response, known: Dialect.zephrFields, required: ["state_key"])
        case "failure":
            return try build(.loginFailure, .zephr, response, known: Dialect.zephrFields, required: [])
        default:
            throw CallbackError(
                .unknownStatus, at: status.valueOffset,
                "the status is not one Zephr defines (success, partial, failure)")
        }
    }

    /// Sorts the response into known fields (checked) and extras (passed as they came).
    static func build(
        _ kind: OutcomeKind, _ dialect: Dialect, _ response: ResponseParameters,
        known: [String], required: [String], omitting omitted: [String] = []
    ) throws(CallbackError) -> CallbackOutcome {
        var fields: [CallbackOutcome.Field] = []
        var extra: [CallbackOutcome.Field] = []
        var withheld: [String] = []
        for item in response.items where !omitted.contains(item.name) {
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
        case .compactJWS:
            return "the parameter '\(item.name)' is not a compact JWS (three base64url segments joined by '.'), "
                + "which both Prelude SDKs require"
        case .uuid:
            return "the parameter '\(item.name)' is not a flow id as Kratos writes it (a lowercase UUID, 8-4-4-4-12 hex digits)"
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
            if expectations.requiresIssuer {
                throw CallbackError(
                    .issuerMissing, at: nil,
                    "the authorization server sends 'iss' (RFC 9207) and the callback has none")
            }
            return
        }
        // RFC 9207 §2.4: simple string comparison, no normalization.
        if let expected = expectations.issuer, issuer != expected {
            throw CallbackError.issuerMismatch(
                received: issuer, expected: expected, at: response.item("iss")?.valueOffset)
        }
    }
}
