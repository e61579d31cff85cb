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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackLoopback
import CallbackRouter
import CallbackRouterKit

/// `login`'s browser page when a token step follows the loopback callback: the receiver
/// holds its answer until the token step ends, so the page says "Signed in" only when the
/// tokens came, and otherwise shows the same sentence the terminal's last line says.
enum HeldPage {
    /// How long the browser waits for the token step before its page says the sign-in is
    /// finishing in the terminal.
    static let hold = LoopbackReceiver.defaultAnswerHold

    /// `configuration`, holding the page for the token step when there is one.
    static func configuration(_ configuration: LoopbackReceiver.Configuration, tokenStep: Bool) -> LoopbackReceiver.Configuration {
        var configuration = configuration
        if tokenStep { configuration.answerHold = hold }
        return configuration
    }

    /// The ending the page shows for the outcome JSON `login` printed: signed in when it
    /// carries an access token (or when the callback was not a code to redeem and the
    /// terminal says ✓: the page is then that answer's own, "Continue in the app"…);
    /// otherwise the terminal's last line, without its mark (it holds only public things: a
    /// reason code, its detail, a provider's error code).
    static func ending(for json: JSONValue?, place: String, expectedIssuer: String?) -> LoopbackSignInEnding {
        guard let json, case .object(let members) = json.storage else {
            return .failed("The sign-in did not finish: the terminal says why and what to do.")
        }
        if members.contains(where: { $0.0 == "access_token" }) { return .signedIn }
        let line = SignInSummary.line(for: json, place: place, expectedIssuer: expectedIssuer, colour: false)
        if line.hasPrefix("✓"), !members.contains(where: { $0.0 == "outcome" && $0.1 == .string(OutcomeKind.authorizationCode.rawValue) }) {
            return .signedIn
        }
        let sentence = line.hasPrefix("✗ ") ? String(line.dropFirst(2)) : line
        return .failed(sentence + ". The terminal says what to do.")
    }
}

#endif
