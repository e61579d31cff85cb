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

// fuzz-classify: any URL × any dialect, policy, response mode, redirect URIs, expected
// state and issuer goes through `CallbackValidator` (policy, redirect match, dialect,
// state, issuer) and gets exactly one answer: an outcome or a typed rejection.
//
// Input: byte 0 picks the dialect, byte 1 the policy, response mode, require-issuer and
// the registered redirect URIs, byte 2 the expected state and issuer (from a table, or
// "whatever the URL carries", so that the success paths are reachable); the rest is the URL.
//
// Checked on every input (a violation traps; libFuzzer keeps the reproducer):
// - a rejection's reason is in `ReasonCode.allCases` (design.md's table and its additions),
//   never a lifecycle code (the validator knows no attempts), its offset inside the URL
//   (or at its end, where an empty last value starts);
// - an outcome obeys the rules of design.md: the dialect that decided is the one named
//   (never `auto`), its kind is one the dialect produces, its fields are the URL's own
//   parameters from the expected component, tokens are non-empty VSCHAR (a state only
//   non-empty: it is the client's opaque value), Prelude's token a compact JWS, Ory's flow
//   a lowercase UUID, Clerk's magic-link values not blank, no duplicated
//   name, no implicit-grant token, no `error` beside a success credential, the expected
//   state and issuer hold, the callback answers a registered redirect URI and the policy;
// - value blindness: the same URL with every parameter value replaced by another of the
//   same length and byte class (so every syntax rule gives the same answer; `status` and
//   `error` kept, the expected state and issuer blinded alike) is classified the same
//   way: an outcome with an identical `description` (so the description shows no value),
//   or the same rejection with an identical `detail` (so no detail shows a value). Only
//   `state_mismatch` / `issuer_mismatch` may turn into something else, since blinding can
//   make two different values equal.
// - one classifier: `classify`, which takes a one-pass common path for ordinary callbacks,
//   answers exactly as the full path alone does (the same outcome, field for field, or the
//   same reason, offset and detail).
@_spi(Testing) import CallbackRouter
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClassify(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let dialect = Dialect.allCases[Int(input[0]) % Dialect.allCases.count]
    let config = input[1], expect = input[2]
    let urlBytes = Array(input[3...])

    let mode: ResponseMode = config & 0x04 == 0 ? .query : .fragment
    let requiresIssuer = config & 0x08 != 0
    let redirects = Fixtures.redirectSets[Int(config >> 4) % Fixtures.redirectSets.count]
    let policy: RedirectURIPolicy
    switch config & 0x03 {
    case 0, 3: policy = .native
    case 1: policy = .customSchemeOnly
    default: policy = .allowlist(redirects.isEmpty ? [Fixtures.redirectSets[1][0]] : redirects)
    }

    let url: CallbackURL
    do {
        url = try CallbackURL(parsing: urlBytes)
    } catch {
        check(ReasonCode.allCases.contains(error.reason), "unknown parse reason \(error.reason)")
        return 0
    }
    let component = mode == .query ? url.queryParameters : url.fragmentParameters
    let state = pick(expect & 0x07, table: Fixtures.states, fromURL: component.values(named: "state").first)
    let issuer = pick(expect >> 3 & 0x07, table: Fixtures.issuers, fromURL: component.values(named: "iss").first)
    let expectations = CallbackExpectations(state: state, issuer: issuer, requiresIssuer: requiresIssuer, responseMode: mode)

    let validator: CallbackValidator
    do {
        validator = try CallbackValidator(redirectURIs: redirects, policy: policy, dialect: dialect, expecting: expectations)
    } catch {
        check(error.reason == .invalidConfiguration, "a validator's configuration refused with \(error.reason)")
        return 0
    }

    let result = Result { () throws(CallbackError) in try validator.validate(url) }
    switch result {
    case .failure(let error):
        checkRejection(error, urlLength: urlBytes.count)
    case .success(let outcome):
        checkOutcome(outcome, url: url, dialect: dialect, expectations: expectations, validator: validator)
    }
    checkBlindness(url, dialect: dialect, expectations: expectations)
    checkCommonPath(url, dialect: dialect, expectations: expectations)
    return 0
}

/// `classify` (common path first) against the full path alone.
func checkCommonPath(_ url: CallbackURL, dialect: Dialect, expectations: CallbackExpectations) {
    let fast = Result { () throws(CallbackError) in try CallbackClassifier.classify(url, dialect: dialect, expecting: expectations) }
    let full = Result { () throws(CallbackError) in
        try CallbackClassifier.classifyWithoutCommonPath(url, dialect: dialect, expecting: expectations)
    }
    switch (fast, full) {
    case (.success(let a), .success(let b)):
        check(
            a.description == b.description && a.kind == b.kind && a.dialect == b.dialect && a.isUnbound == b.isUnbound
                && a.withheldFields == b.withheldFields, "the common path's outcome differs from the full path's")
        check(
            a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value),
            "the common path's fields differ from the full path's")
        check(
            a.extra.map(\.name) == b.extra.map(\.name) && a.extra.map(\.value) == b.extra.map(\.value),
            "the common path's extras differ from the full path's")
    case (.failure(let a), .failure(let b)):
        check(
            a.reason == b.reason && a.offset == b.offset && a.detail == b.detail,
            "the common path's refusal differs from the full path's")
    default:
        check(false, "the common path and the full path disagree on whether the callback is valid")
    }
}

enum Fixtures {
    static let redirectSets: [[RedirectURI]] = {
        func make(_ strings: [String], localhost: Bool = false) -> [RedirectURI] {
            strings.map { try! RedirectURI($0, allowsLocalhost: localhost) } // fixed, valid fixtures
        }
        return [
            [],
            make(["com.example.app:/oauth2redirect"]),
            make(["http://127.0.0.1/callback"]),
            make(["myapp://oauth-callback"]),
            make(["https://app.example.com/cb?tenant=acme"]),
            make(["com.example.app:/oauth2redirect", "http://[::1]/cb", "myapp://callback?x=1"]),
            make(["http://localhost:8080/cb"], localhost: true),
            make(["com.example.app://example.us.auth0.com/ios/com.example.app/callback"]),
            make(["com.example.zephr://login"]),
        ]
    }()
    static let states: [String] = ["af0ifjsldkj", "xyz", "s", "Ab-_9~.x"]
    static let issuers: [String] = ["https://accounts.google.com", "https://example.us.auth0.com/", "https://issuer.example"]
}

/// 0: none; 1: the URL's own value (when it has one); otherwise an entry of `table`.
func pick(_ choice: UInt8, table: [String], fromURL: String?) -> String? {
    switch choice {
    case 0, 5: return nil
    case 1, 6: return fromURL.flatMap { $0.isEmpty ? nil : $0 }
    default: return table[Int(choice) % table.count]
    }
}

let lifecycleReasons: Set<ReasonCode> = [.unknownState, .replayed, .attemptExpired, .conflict, .cancelled, .timeout, .noRoute]

func checkRejection(_ error: CallbackError, urlLength: Int) {
    check(ReasonCode.allCases.contains(error.reason), "unknown reason \(error.reason)")
    check(!lifecycleReasons.contains(error.reason), "the validator answered with the lifecycle reason \(error.reason)")
    check(error.reason != .invalidConfiguration, "a callback was refused as invalid_configuration")
    if let offset = error.offset {
        // An empty value at the very end is pointed at by the URL's length.
        check(offset >= 0 && offset <= urlLength, "offset \(offset) outside a URL of \(urlLength) bytes")
    }
}

func isVSCHAR(_ value: String) -> Bool { !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } }

/// Prelude's token as both Prelude SDKs decode it: three non-empty base64url segments (no
/// padding), none of a length one past a multiple of four, joined by '.'.
func isCompactJWS(_ value: String) -> Bool {
    let segments = value.split(separator: ".", omittingEmptySubsequences: false)
    return segments.count == 3
        && segments.allSatisfy { segment in
            !segment.isEmpty && segment.utf8.count % 4 != 1
                && segment.utf8.allSatisfy { byte in
                    (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte) || (0x30 ... 0x39).contains(byte)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                }
        }
}

/// Ory's flow id as Kratos writes it: a lowercase 8-4-4-4-12 UUID.
func isLowercaseUUID(_ value: String) -> Bool {
    let bytes = Array(value.utf8)
    guard bytes.count == 36 else { return false }
    return bytes.indices.allSatisfy { index in
        [8, 13, 18, 23].contains(index)
            ? bytes[index] == UInt8(ascii: "-") : (0x30 ... 0x39).contains(bytes[index]) || (0x61 ... 0x66).contains(bytes[index])
    }
}

/// Blank as both Clerk SDKs read a magic link's values: only ASCII whitespace.
func isBlank(_ value: String) -> Bool { value.utf8.allSatisfy { $0 == 0x20 || (0x09 ... 0x0D).contains($0) } }

let implicitTokens = ["access_token", "id_token"]
let tokenFields: Set<String> = [
    "code", "iss", "challenge_token", "action", "status", "session_id", "tracking_id", "state_key",
    "rotating_token_nonce", "created_session_id", "error",
]

func checkOutcome(
    _ outcome: CallbackOutcome, url: CallbackURL, dialect: Dialect,
    expectations: CallbackExpectations, validator: CallbackValidator
) {
    // The dialect that decided, and a kind it produces.
    check(outcome.dialect != .auto, "the outcome's dialect is auto")
    if dialect != .auto { check(outcome.dialect == dialect, "dialect \(dialect) decided as \(outcome.dialect)") }
    let kinds: [Dialect: [OutcomeKind]] = [
        .oauth2: [.authorizationCode], .ory: [.sessionTokenExchangeCode, .continueLoginFlow], .prelude: [.challengeToken],
        .clerk: [.rotatingTokenNonce, .clerkFailure, .accountTransfer, .bareCallback, .magicLink],
        .zephr: [.loginSuccess, .partialRegistration, .loginFailure],
    ]
    check(
        outcome.kind == .authorizationError || kinds[outcome.dialect]?.contains(outcome.kind) == true,
        "dialect \(outcome.dialect) produced \(outcome.kind)")
    if dialect == .auto { check(outcome.dialect != .ory, "auto picked ory") }

    // Policy and redirect URI.
    check(url.userinfo == nil, "an outcome for a callback with userinfo")
    check(!["javascript", "data", "file", "vbscript", "about", "blob"].contains(url.scheme), "forbidden scheme passed")
    if validator.policy == .customSchemeOnly { check(url.scheme != "http" && url.scheme != "https", "http passed custom-scheme-only") }
    if !validator.redirectURIs.isEmpty {
        check(validator.redirectURIs.contains { $0.matches(url) }, "an outcome for a callback that answers no redirect URI")
    }

    // The shared rules.
    let query = url.queryParameters, fragment = url.fragmentParameters
    for token in implicitTokens {
        check(
            !query.contains(named: token) && !(fragment.contains(named: token) && url.fragment != "_=_"),
            "an outcome for a callback carrying \(token)")
    }
    let response: Parameters
    // Clerk's magic link split across both: `flow_id` in the query, `approval_token` alone in the fragment.
    let splitLink =
        outcome.kind == .magicLink && query.contains(named: "flow_id") && fragment.count == 1
        && fragment.contains(named: "approval_token")
    switch expectations.responseMode {
    case .query where splitLink:
        check(!query.contains(named: "approval_token"), "a split magic link with the token in both components")
        response = query
    case .query where outcome.kind == .magicLink && !(url.fragment ?? "").isEmpty:
        // Clerk's magic link may stand in the fragment (both SDKs read it there).
        response = fragment
    case .query:
        check(url.fragment == nil || url.fragment == "" || url.fragment == "_=_", "query mode accepted a fragment with data")
        response = query
    case .fragment:
        response = fragment
        check(
            !query.names.contains { ["code", "state", "error", "iss"].contains($0) },
            "fragment mode accepted response parameters in the query")
    }
    check(response.firstDuplicate() == nil, "an outcome for a callback with a duplicated parameter")
    // Prelude's SDKs read an empty `error` as none.
    let hasError =
        response.contains(named: "error") && !(outcome.dialect == .prelude && response.values(named: "error") == [""])
    check(hasError == (outcome.kind == .authorizationError), "error present \(hasError) but the outcome is \(outcome.kind)")
    if hasError { check(!response.contains(named: "code"), "code and error both accepted") }

    // Every field is the URL's own, and tokens are VSCHAR.
    for field in outcome.fields {
        if field.name == "__clerk_error_code" {
            // Normalised: never the URL's own text unless it is one of Clerk's codes.
            check(
                ["oauth_access_denied", "oauth_callback_failed", "external_account_not_found", "external_account_exists"]
                    .contains(field.value), "a Clerk error code that is not one of Clerk's")
            continue
        }
        let values = splitLink && field.name == "approval_token" ? fragment.values(named: field.name) : response.values(named: field.name)
        check(values == [field.value], "field \(field.name) is not the URL's value")
        if tokenFields.contains(field.name) { check(isVSCHAR(field.value), "token field \(field.name) breaks VSCHAR") }
        if field.name == "challenge_token" { check(isCompactJWS(field.value), "a challenge token that is no compact JWS") }
        if field.name == "flow" { check(isLowercaseUUID(field.value), "an Ory flow id that is no lowercase UUID") }
        if field.name == "flow_id" || field.name == "approval_token" { check(!isBlank(field.value), "a blank \(field.name)") }
        if field.name == "rotating_token_nonce" { check(!field.value.isEmpty, "an empty nonce read as a nonce") }
        if field.name == "state" { check(!field.value.isEmpty, "an empty state accepted") }
    }
    for name in outcome.withheldFields {
        check(outcome.value(name) == nil, "withheld field \(name) is still shown")
        check(response.contains(named: name), "withheld field \(name) is not in the URL")
    }
    let required: [OutcomeKind: String] = [
        .authorizationCode: "code", .sessionTokenExchangeCode: "code", .challengeToken: "challenge_token",
        .rotatingTokenNonce: "rotating_token_nonce", .loginSuccess: "session_id", .partialRegistration: "state_key",
        .authorizationError: "error", .magicLink: "approval_token", .clerkFailure: "__clerk_error_code",
        .accountTransfer: "__clerk_error_code", .continueLoginFlow: "flow",
    ]
    if outcome.kind == .continueLoginFlow { check(!response.contains(named: "code"), "account linking with a code") }
    if let name = required[outcome.kind] { check(outcome.value(name) != nil, "\(outcome.kind) without \(name)") }

    // State and issuer.
    // (An unbound outcome without state is returned whatever state is expected: it answers no login.)
    if let expected = expectations.state, !outcome.isUnbound || outcome.state != nil {
        check(outcome.state == expected, "an outcome whose state is not the expected one")
    }
    if expectations.requiresIssuer { check(outcome.issuer != nil, "an outcome without the required issuer") }
    if let expected = expectations.issuer, let issuer = outcome.issuer { check(issuer == expected, "an outcome with another issuer") }

    check(String(reflecting: outcome) == outcome.description, "debugDescription differs from description")
}

// MARK: Value blindness

/// Another value of the same length whose every byte is in the same class for every syntax
/// rule (`blindByte`), and which differs from the original wherever it can.
func blind(_ value: String) -> String {
    let bytes = value.utf8.map(blindByte)
    return String(decoding: bytes, as: UTF8.self)
}

/// Values shown on purpose or read for their meaning (not secrets): kept as they are.
let keptNames: Set<String> = ["status", "error"]

func encode(_ text: String, spaceAsPlus: Bool) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
            UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.append(byte)
        case 0x20 where spaceAsPlus:
            out.append(UInt8(ascii: "+"))
        default:
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

func blindComponent(_ parameters: Parameters) -> String {
    parameters.map { parameter in
        let value = keptNames.contains(parameter.name) ? parameter.value : blind(parameter.value)
        return encode(parameter.name, spaceAsPlus: true) + "=" + encode(value, spaceAsPlus: true)
    }.joined(separator: "&")
}

func blindURL(_ url: CallbackURL) -> String {
    var out = url.scheme + ":"
    if let host = url.host {
        out += "//" + (url.userinfo.map { $0 + "@" } ?? "") + host.text + (url.port.map { ":" + String($0) } ?? "")
    }
    out += url.path
    if url.query != nil { out += "?" + blindComponent(url.queryParameters) }
    if let fragment = url.fragment {
        // Kept as written when it holds no value to blind: `#`, `#_=_`, `#&` must stay
        // (non-)ignorable exactly as they were.
        let keep = fragment == "_=_" || url.fragmentParameters.isEmpty
        out += "#" + (keep ? fragment : blindComponent(url.fragmentParameters))
    }
    return out
}

func checkBlindness(_ url: CallbackURL, dialect: Dialect, expectations: CallbackExpectations) {
    guard let blinded = try? CallbackURL(parsing: blindURL(url)) else { return } // longer when re-encoded: skip
    var blindExpectations = expectations
    blindExpectations.state = expectations.state.map(blind)
    blindExpectations.issuer = expectations.issuer.map(blind)
    let original = Result { () throws(CallbackError) in
        try CallbackClassifier.classify(url, dialect: dialect, expecting: expectations)
    }
    let other = Result { () throws(CallbackError) in
        try CallbackClassifier.classify(blinded, dialect: dialect, expecting: blindExpectations)
    }
    switch (original, other) {
    case (.success(let a), .success(let b)):
        check(a.kind == b.kind && a.dialect == b.dialect, "blinding values changed the outcome's kind")
        check(a.description == b.description, "an outcome's description depends on parameter values")
        check(a.withheldFields == b.withheldFields, "blinding values changed what is withheld")
    case (.success, .failure(let b)):
        fatalError("blinding values turned an outcome into \(b.reason)")
    case (.failure(let a), let other):
        if a.reason == .stateMismatch || a.reason == .issuerMismatch { return }
        guard case .failure(let b) = other else { fatalError("blinding values turned \(a.reason) into an outcome") }
        check(a.reason == b.reason, "blinding values turned \(a.reason) into \(b.reason)")
        check(a.detail == b.detail, "a rejection's detail depends on parameter values: \(a.reason)")
    }
}
