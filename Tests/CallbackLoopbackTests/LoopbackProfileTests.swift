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

@testable import CallbackLoopback
import CallbackRouter
import Testing

/// A provider profile in the receiver's validation, tested on the library: no command is run.
@Suite struct LoopbackProfileTests {
    @Test func theLoopbackValidationAppliesThem() throws {
        // An error without the app's state: refused without the profile, an unbound
        // provider error with cognito's (which still never ends a wait that expects a state).
        let url = "http://127.0.0.1:4000/callback?error=access_denied"
        let strict = try LoopbackValidation(LoopbackExpectations(state: "s"), redirectURI: "http://127.0.0.1:4000/callback")
        #expect(strict.evaluate(callbackURL: url).kind == .rejected)
        let cognito = try LoopbackValidation(
            LoopbackExpectations(state: "s", profiles: [.cognito]), redirectURI: "http://127.0.0.1:4000/callback")
        let evaluation = cognito.evaluate(callbackURL: url)
        #expect(evaluation.kind == .providerFailure)
        #expect((try? evaluation.result.get())?.isUnbound == true)
        #expect(!cognito.endsWait(evaluation))
    }
}
