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

/// Telling the browser how the sign-in ended, when the receiver holds its answer
/// (LoopbackReceiver/Configuration/answerHold).
///
/// ```swift
/// var configuration = LoopbackReceiver.Configuration()
/// configuration.answerHold = LoopbackReceiver.defaultAnswerHold       // 5 s
/// let receiver = try LoopbackReceiver(configuration)
/// // … the wait returns the accepted callback; the browser still waits for its page …
/// do {
///     let tokens = try await redeem(outcome)                           // the app's token step
///     receiver.finish(.signedIn)
/// } catch {
///     receiver.finish(.failed("The sign-in could not be finished: the token endpoint refused the code."))
/// }
/// ```
extension LoopbackReceiver {
    /// A hold a person hardly notices, long enough for a token request: 5 seconds.
    public static let defaultAnswerHold: Duration = .seconds(5)
    /// The longest hold accepted: 60 seconds.
    public static let longestAnswerHold: Duration = .seconds(60)

    /// Sends the held page of the accepted callback: "Signed in" (or the success URL) for
    /// LoopbackSignInEnding/signedIn, "Sign-in failed" with the app's sentence (or the
    /// failure URL) for LoopbackSignInEnding/failed(_:). Returns once the browser has
    /// the page: at once when nothing is held (no hold configured, no callback accepted, a
    /// provider error or refusal, which were answered at once) or it was already answered;
    /// otherwise within about the linger timeout, and never later than the hold plus the
    /// connection and linger timeouts. Only the first call counts; after the hold ran out
    /// the page already said the sign-in was finishing in the app, and this changes nothing.
    /// It blocks the calling thread that briefly: a command-line tool calls it before it exits.
    public func finish(_ ending: LoopbackSignInEnding) {
        guard let held = server.heldAnswer.withLock({ $0 }) else { return }
        held.finish(ending)
    }
}
