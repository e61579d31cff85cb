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

// fuzz-restore: arbitrary sealed-attempt records go to `CallbackRouter.restore`, on a fresh
// router with a stateful OAuth route, a stateless Prelude route and a route that accepts
// logouts without state, its clock at the calendar time the seeds were sealed at.
//
// Input: byte 0 is the mode; the rest is the record's text. Mode bit 0 set: the harness
// appends a correct `check` line (the first 16 bytes of SHA-256 over the text), so that
// mutations reach the field parser instead of stopping at the checksum.
//
// Checked on every input (a violation traps; libFuzzer keeps the reproducer):
// - `restore` answers exactly once: an attempt, or a `CallbackError` whose reason is one
//   of too_long, invalid_record, no_route, attempt_expired, replayed, cancelled, timeout,
//   conflict; never a crash or a trap;
// - a refusal's detail shows none of the record's secret values (state, code-verifier,
//   nonce: neither their base64url text nor, when 8 bytes or longer, their decoded text).
//   A value may equal words of the fixed text ("route"), so a detail containing one is a
//   leak only when the same record with every secret value blinded (each byte 'x', the
//   check recomputed in mode 1) is refused with a detail that does not contain it;
// - a restored attempt is pending (pendingCount 1), on the route the record names, and is
//   restored once: the same record again, and the attempt re-sealed, are both `replayed`;
// - printer/parser: the re-sealed attempt restores on another fresh router to an attempt
//   with the same purpose, route, state, verifier and nonce;
// - on the OAuth route the restored attempt takes exactly one callback carrying its state
//   (`code` for a login, nothing for a logout); the second is `replayed`.
import CallbackRouter
import FuzzSupport

let allowedReasons: Set<ReasonCode> = [
    .tooLong, .invalidRecord, .noRoute, .attemptExpired, .replayed, .cancelled, .timeout, .conflict,
]

func makeRouter() -> CallbackRouter {
    var builder = RouterBuilder()
    do {
        builder.add(
            Route(
                "op", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2,
                issuer: "https://op.example.com"))
        builder.add(
            Route(
                "prelude", redirectURI: try RedirectURI("myapp://oauth-callback", policy: .customSchemeOnly),
                dialect: .prelude))
        builder.add(
            Route(
                "auth0", redirectURI: try RedirectURI("com.example.app:/auth0"), dialect: .oauth2,
                acceptsLogoutWithoutState: true))
        return try builder.build(clock: ManualAttemptClock())
    } catch {
        fatalError("the fixture router does not build: \(error)")
    }
}

/// The record's lines, split at each LF byte. (Splitting the `String` at `"\n"` would keep a
/// CR LF pair, one `Character`, inside a line, and blinding that line would drop the
/// record's final newline: a harness bug the fuzzer found, not a leak.)
func lines(of text: String) -> [[UInt8]] {
    Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
}

/// The values of the secret lines, as written and decoded, to look for in details.
func secrets(in text: String) -> [String] {
    var found: [String] = []
    for line in lines(of: text) {
        for name in ["state ", "code-verifier ", "nonce "] where line.starts(with: name.utf8) {
            let value = String(decoding: line.dropFirst(name.utf8.count), as: UTF8.self)
            if value.utf8.count >= 4 { found.append(value) }
            if let bytes = Base64URL.decode(value), bytes.count >= 8 { found.append(String(decoding: bytes, as: UTF8.self)) }
        }
    }
    return found
}

/// The record with every letter and digit of a secret line's value replaced by 'x': every
/// other byte (punctuation, controls, the line ends) stays, so the record keeps its shape
/// and a detail that does not come from the secret stays the same.
func blinded(_ body: String) -> String {
    var result: [[UInt8]] = []
    for line in lines(of: body) {
        var line = line
        for name in ["state ", "code-verifier ", "nonce "] where line.starts(with: name.utf8) {
            for index in name.utf8.count ..< line.count {
                switch line[index] {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                    UInt8(ascii: "a") ... UInt8(ascii: "z"):
                    line[index] = UInt8(ascii: "x")
                default: break
                }
            }
        }
        result.append(line)
    }
    return String(decoding: Array(result.joined(separator: [0x0A])), as: UTF8.self)
}

func withCheck(_ body: String, mode: UInt8) -> String {
    mode & 1 == 1 ? body + "check " + Base64URL.encode(SHA256.hash(body.utf8).prefix(16)) + "\n" : body
}

func refusalDetail(_ text: String) -> String? {
    do { try makeRouter().restore(text); return nil } catch { return error.detail }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRestore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let body = String(decoding: input[1...], as: UTF8.self)
    let text = withCheck(body, mode: input[0])
    let router = makeRouter()
    let restored: LoginAttempt
    do {
        restored = try router.restore(text)
    } catch {
        check(allowedReasons.contains(error.reason), "restore refused with \(error.reason)")
        let shown = secrets(in: text).filter { error.detail.contains($0) }
        if !shown.isEmpty {
            let other = refusalDetail(withCheck(blinded(body), mode: input[0])) ?? ""
            for secret in shown {
                check(other.contains(secret), "a refusal's detail shows a secret: \(error.reason)")
            }
        }
        return 0
    }

    check(router.pendingCount == 1, "a restored attempt is not the one pending attempt")
    check(router.routeIDs.contains(restored.route), "restored on a route the router does not have")
    for again in [SealedAttempt(text), restored.sealed()] {
        do {
            try router.restore(again)
            check(false, "a record was restored twice")
        } catch {
            check(error.reason == .replayed, "a second restore is \(error.reason), not replayed")
        }
    }

    do {
        let other = try makeRouter().restore(restored.sealed())
        check(
            other.purpose == restored.purpose && other.route == restored.route && other.state == restored.state
                && other.pkce == restored.pkce && other.nonce == restored.nonce, "the re-sealed attempt restores differently")
    } catch {
        check(false, "the re-sealed attempt does not restore: \(error.reason)")
    }

    guard restored.route == "op" else { return 0 }
    let state = PercentEncoding.encode(restored.state)
    let url =
        restored.purpose == .login
        ? "com.example.app:/oauth2redirect?code=c&state=" + state
        : "com.example.app:/oauth2redirect?state=" + state
    do {
        let delivery = try router.handle(url)
        check(delivery.attempt == restored, "the callback reached another attempt")
        check(
            delivery.outcome.kind == (restored.purpose == .login ? .authorizationCode : .logoutComplete),
            "a \(restored.purpose) callback read as \(delivery.outcome.kind)")
    } catch {
        check(false, "the restored attempt's callback was refused: \(error.reason)")
    }
    do {
        try router.handle(url)
        check(false, "a callback was delivered twice")
    } catch {
        check(error.reason == .replayed, "a second callback is \(error.reason), not replayed")
    }
    return 0
}
