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
@testable import CallbackTokens

/// The one serializer is the helper's output: its bytes are the CLI contract (docs/cli.md),
/// so the escapes it writes are pinned here, and what it writes reads back.
@Suite struct JSONValueSerializationTests {
    @Test(arguments: [
        (JSONValue.string("a\"b\\c"), #""a\"b\\c""#),
        (.string("\n\r\t\u{08}\u{0C}"), #""\n\r\t\b\f""#),
        (.string("\u{01}\u{1B}\u{1F}\u{7F}"), #""\u0001\u001b\u001f\u007f""#),
        (.string("é✓/"), #""é✓/""#),
        (.int(-42), "-42"),
        (.int(nil), "null"),
        (.string(nil), "null"),
        (.bool(false), "false"),
        (.array([.null, .bool(true), .array([])]), "[null,true,[]]"),
        (.object([("z", .int(1)), ("a", .object([]))]), #"{"z":1,"a":{}}"#),
    ])
    func writesTheHelpersBytes(_ value: JSONValue, _ expected: String) throws {
        #expect(value.serialized == expected)
        #expect(try JSONReader.parse(value.serialized) == value)
    }
}
