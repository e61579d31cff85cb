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

// One instance of the web backend's login logic, driven line by line over stdin/stdout by
// the backend process (Tests/Interop/web-backend/backend.py), which owns the HTTP side, the
// sessions and the database. Every request gets a router of its own; the sealed record goes
// back to the backend, which keeps it server-side under the browser's session. Secrets
// travel only over the pipes, never in argv or the environment.
//
//     keys SEALING_KEY DIGEST_KEY                           (base64url; first line, once)
//     begin ISSUER AUTHORIZE_ENDPOINT CLIENT_ID SCOPE REDIRECT_URI
//         -> begun AUTHORIZATION_URL RECORD                 (RECORD: base64url of the sealed text)
//     finish ISSUER RECORD CALLBACK_URL
//         -> consume HEX UNTIL  <- inserted|present|failed  (the shared store, at most once)
//         -> delivered CODE CODE_VERIFIER REDIRECT_URI NONCE | refused REASON DETAIL
// Fields are separated by one tab.

import CallbackRouter

/// The routes of every request's router: one loopback route (any port, RFC 8252 §7.3), the
/// issuer required in the callback (RFC 9207).
func makeRouter(issuer: String, store: PipeConsumedStateStore) throws(CallbackError) -> CallbackRouter {
    var builder = RouterBuilder()
    builder.add(
        Route(
            "web", redirectURI: try RedirectURI("http://127.0.0.1/callback", policy: .native), dialect: .oauth2,
            issuer: issuer, requiresIssuer: true))
    return try builder.build(maxPendingAttempts: 1, consumedStates: store)
}

func reply(_ fields: String...) { print(fields.joined(separator: "\t")) }

func refused(_ error: CallbackError) { reply("refused", error.reason.rawValue, error.detail) }

/// The keys from the first line (base64url): the sealing key and the digest key, the same on
/// every instance. Nil when the line is not that.
func readKeys() -> (sealing: [UInt8], digest: [UInt8])? {
    guard let first = readLine()?.split(separator: "\t", omittingEmptySubsequences: false), first.count == 3,
        first[0] == "keys", let sealing = Base64URL.decode(String(first[1])), let digest = Base64URL.decode(String(first[2]))
    else { return nil }
    return (sealing, digest)
}

/// Answers one command line.
func answer(_ fields: [String], sealingKey: [UInt8], store: PipeConsumedStateStore) throws(CallbackError) {
    switch fields.first {
    case "begin"? where fields.count == 6:
        let router = try makeRouter(issuer: fields[1], store: store)
        let attempt = try router.beginLogin(on: "web", redirectURI: fields[5])
        let request = try attempt.authorizationRequest(endpoint: fields[2], clientID: fields[3], scope: fields[4])
        let record = try attempt.sealed(key: sealingKey)
        reply("begun", request.url, Base64URL.encode(Array(record.text.utf8)))
    case "finish"? where fields.count == 4:
        guard let record = Base64URL.decode(fields[2]) else {
            throw CallbackError(.invalidRecord, "the record is not base64url")
        }
        let router = try makeRouter(issuer: fields[1], store: store)
        try router.restore(String(decoding: record, as: UTF8.self), key: sealingKey)
        let delivery = try router.handle(fields[3])
        let attempt = delivery.attempt
        reply("delivered", delivery.outcome.code ?? "", attempt.pkce.verifier, attempt.redirectURI.url.string, attempt.nonce)
    default:
        reply("refused", "invalid_configuration", "unknown command; expected begin or finish with their fields")
    }
}

if let keys = readKeys() {
    let store = PipeConsumedStateStore(digestKey: keys.digest)
    while let line = readLine() {
        do throws(CallbackError) {
            try answer(
                line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init), sealingKey: keys.sealing, store: store)
        } catch {
            refused(error)
        }
    }
} else {
    reply("refused", "invalid_configuration", "the first line must be: keys SEALING_KEY DIGEST_KEY (base64url)")
}
