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

import CallbackRouterFoundation
import Foundation
import Testing

/// A provider's refusal in the callback, as ``SignIn`` throws it: the published numbers and
/// categories (docs/errors.md) and the words Foundation shows.
@Suite struct AuthorizationErrorTests {
    @Test func theNumbersAndCategoriesAreThePublishedOnes() {
        let expected: [(AuthorizationErrorCode, Int, CallbackErrorCategory)] = [
            (.invalidRequest, 1, .misconfigured), (.unauthorizedClient, 2, .misconfigured), (.accessDenied, 3, .providerRefused),
            (.unsupportedResponseType, 4, .misconfigured), (.invalidScope, 5, .misconfigured), (.serverError, 6, .network),
            (.temporarilyUnavailable, 7, .network), (.interactionRequired, 8, .providerRefused), (.loginRequired, 9, .providerRefused),
            (.accountSelectionRequired, 10, .providerRefused), (.consentRequired, 11, .providerRefused),
            (.invalidRequestURI, 12, .misconfigured), (.invalidRequestObject, 13, .misconfigured),
            (.requestNotSupported, 14, .misconfigured), (.requestURINotSupported, 15, .misconfigured),
            (.registrationNotSupported, 16, .misconfigured), (AuthorizationErrorCode(rawValue: "slow_down_please"), 0, .providerRefused),
        ]
        for (code, number, category) in expected {
            let error = AuthorizationError(code: code)
            #expect(error.errorCode == number, "\(code)")
            #expect(error.category == category, "\(code)")
        }
    }

    @Test func foundationShowsOurWordsNotTheProviders() {
        let error = AuthorizationError(code: .accessDenied, providerDescription: "The user clicked Cancel")
        let bridged = error as NSError
        #expect(bridged.domain == "CallbackRouterFoundation.AuthorizationError")
        #expect(bridged.code == 3)
        #expect(
            error.localizedDescription
                == "The sign-in service did not sign you in: the request was denied (the user or the provider said no) (access_denied).")
        #expect(!error.localizedDescription.contains("clicked"))
        #expect(bridged.localizedRecoverySuggestion == "Sign in again and allow the app's access, if you meant to.")
        #expect(error.description == "AuthorizationError(access_denied)")
    }
}
