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

/// `constantTimeEquals`, which compares states (the router uses it too).
@Suite struct RedirectURIConstantTimeTests {
    @Test(arguments: [
        ("", "", true), ("a", "a", true), ("af0ifjsldkj", "af0ifjsldkj", true),
        ("", "a", false), ("a", "", false), ("abc", "abd", false), ("xbc", "abc", false),
        ("abc", "abcd", false), ("abcd", "abc", false), ("abc\0", "abc", false), ("abc", "abc\0", false),
        ("é", "e\u{301}", false),
    ])
    func comparesBytes(_ a: String, _ b: String, _ equal: Bool) {
        #expect(constantTimeEquals(a, b) == equal)
        #expect(constantTimeEquals(a.utf8, b.utf8) == equal)
        #expect(constantTimeEquals(Array(a.utf8), Array(b.utf8)[...]) == equal)
    }
}
