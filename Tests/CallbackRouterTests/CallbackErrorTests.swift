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

import Testing
@testable import CallbackRouter

@Suite struct CallbackErrorTests {
    @Test func catchMatchesByReasonCode() {
        do {
            throw CallbackError(.stateMismatch, "the state is not the expected one")
        } catch ReasonCode.stateMismatch {
            // matched
        } catch {
            Issue.record("expected state_mismatch, got \(error)")
        }
    }

    @Test func parseErrorsKeepTheirReasonAndOffset() {
        let error = CallbackError(ParseError(.invalidPort, at: 12, "the port is larger than 65535"))
        #expect(error.reason == .invalidPort)
        #expect(error.offset == 12)
        #expect(!(ReasonCode.invalidHost ~= error))
    }

    @Test func everyReasonCodeIsDistinctAndSnakeCase() {
        let raw = ReasonCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw.count == 43)
        for code in raw {
            #expect(code.allSatisfy { $0 == "_" || ($0.isLetter && $0.isLowercase) || $0.isNumber }, "\(code)")
        }
    }
}
