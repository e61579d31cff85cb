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

import CallbackParsing
import Testing

/// `Parameters` is a `Collection`: a position past `count` traps like one, through every
/// accessor that takes a position. The query and the fragment share one storage, so an
/// unchecked position used to read the fragment's first pair (from the query's list) or an
/// empty inline slot (a zeroed pair: a name and value of "").
///
/// Exit tests run each body in a child process and expect it to stop with a failure.
@Suite struct ParameterBoundsTests {
    @Test func positionsInsideTheListStillRead() throws {
        let url = try CallbackURL(parsing: "myapp://cb?code=a#frag=b")
        #expect(url.queryParameters.count == 1)
        #expect(url.queryParameters[0].name == "code")
        #expect(url.fragmentParameters[0].name == "frag")
        #expect(url.queryParameters.offset(at: 0) == 11)
        #expect(url.fragmentParameters.valueOffset(at: 0) == 23)
    }

    @Test func subscriptPastTheQueryTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb?code=a#state=SECRET")
            _ = url.queryParameters[1] // the fragment's first pair sits at storage position 1
        }
    }

    @Test func subscriptIntoAnEmptyInlineSlotTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb?code=a")
            _ = url.queryParameters[3]
        }
    }

    @Test func negativePositionTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb#a=1&b=2")
            _ = url.fragmentParameters[-1]
        }
    }

    @Test func subscriptPastAnEmptyListTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb")
            _ = url.queryParameters[0]
        }
    }

    @Test func offsetPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb?code=a#state=SECRET")
            _ = url.queryParameters.offset(at: 1)
        }
    }

    @Test func valueOffsetPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb?code=a")
            _ = url.queryParameters.valueOffset(at: 5)
        }
    }

    @Test func indexOffsetPastTheEndThenSubscriptTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = try! CallbackURL(parsing: "myapp://cb?a=1&b=2#c=3")
            let parameters = url.queryParameters
            _ = parameters[parameters.index(parameters.startIndex, offsetBy: 2)]
        }
    }
}
