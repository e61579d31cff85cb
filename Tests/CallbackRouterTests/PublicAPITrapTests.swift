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

/// No trap is reachable from public API with bad input (docs/security.md, "Traps audited").
/// Each case runs in a child process (an exit test), so a trap fails the test instead of
/// stopping the test runner.
@Suite struct PublicAPITrapTests {
    @Test func aRandomTokenOfTooFewBytesIsClampedTo16NotATrap() async {
        await #expect(processExitsWith: .success) {
            for bytes in [15, 1, 0, -1, Int.min] {
                precondition(Base64URL.decode(AttemptSecrets.randomToken(bytes: bytes))?.count == 16, "clamped to 16 bytes")
            }
        }
    }

    @Test func aRandomTokenOfTooManyBytesIsClampedTo4096NotATrap() async {
        await #expect(processExitsWith: .success) {
            for bytes in [4097, Int.max] {
                precondition(Base64URL.decode(AttemptSecrets.randomToken(bytes: bytes))?.count == 4096, "clamped to 4096 bytes")
            }
        }
    }

    @Test func aRandomTokenInTheRangeCarriesTheBytesAskedFor() {
        for bytes in [16, 17, 32, 4096] {
            #expect(Base64URL.decode(AttemptSecrets.randomToken(bytes: bytes))?.count == bytes)
        }
    }
}
