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

/// How the sign-in ended after its callback was accepted: what a receiver that holds its
/// answer (LoopbackReceiver/Configuration/answerHold) shows the browser once the app
/// says so with LoopbackReceiver/finish(_:).
///
/// ```swift
/// receiver.finish(.signedIn)                                           // "Signed in"
/// receiver.finish(.failed("The token endpoint refused the code: invalid_client"))
/// ```
public enum LoopbackSignInEnding: Hashable, Sendable {
    /// The app finished the sign-in (it holds its tokens): the page says "Signed in", or
    /// the browser goes to LoopbackReceiver/Configuration/successURL.
    case signedIn
    /// The app could not finish it: the page says "Sign-in failed" with `sentence`, or
    /// the browser goes to LoopbackReceiver/Configuration/failureURL. `sentence` is
    /// shown to the person as text (escaped): say what happened and what to do, never a
    /// secret (no code, token, state or client secret). One that is empty or holds a control
    /// or formatting character is left out; one longer than 200 characters is cut.
    case failed(String)
}
