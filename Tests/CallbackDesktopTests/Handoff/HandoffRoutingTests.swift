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
import CallbackRouter
@testable import CallbackDesktop

@Suite struct HandoffRoutingTests {
    typealias Answer = HandoffMatch.Answer

    @Test(arguments: [
        ([Answer?](), HandoffMatch.Decision.nobody),
        ([.notMine, .notMine], .nobody),
        ([.exact], .deliver(to: 0)),
        ([.notMine, .exact, .notMine], .deliver(to: 1)),
        ([.candidate, .exact], .deliver(to: 1)),
        ([.exact, nil], .deliver(to: 0)),
        ([.exact, .exact], .conflict(candidates: [0, 1])),
        ([.candidate], .deliver(to: 0)),
        ([.notMine, .candidate], .deliver(to: 1)),
        ([.candidate, .candidate], .conflict(candidates: [0, 1])),
        ([.candidate, .candidate, nil], .conflict(candidates: [0, 1])),
        ([.candidate, nil], .busy),
        ([nil], .busy),
        ([.notMine, nil], .busy),
    ])
    func decidesWhoGetsTheCallback(answers: [Answer?], expected: HandoffMatch.Decision) {
        #expect(HandoffMatch.decide(answers) == expected)
    }

    @Test(
        arguments: [
            // listener's scheme, expected state, offered scheme, offered state, answer
            ("myapp", "s1", "myapp", "s1", Answer.exact),
            ("myapp", "s1", "myapp", "s2", .notMine),
            ("myapp", "s1", "myapp", "s1x", .notMine),
            // No state is not this login's: a forged `myapp:x` must not end a wait for s1.
            ("myapp", "s1", "myapp", nil, .notMine),
            ("myapp", nil, "myapp", "s1", .candidate),
            ("myapp", nil, "myapp", nil, .candidate),
            ("myapp", "s1", "other", "s1", .notMine),
            ("myapp", nil, "other", nil, .notMine),
        ] as [(String, String?, String, String?, Answer)])
    func answersAnOffer(listener: String, expected: String?, scheme: String, state: String?, answer: Answer) throws {
        let route = CallbackRoute(scheme: try CallbackScheme(validating: scheme), state: state)
        #expect(
            HandoffMatch.answer(listenerScheme: try CallbackScheme(validating: listener), expectedState: expected, offered: route) == answer
        )
    }

    @Test(arguments: [
        ("abc", "abc", true), ("abc", "abd", false), ("abc", "ab", false), ("", "", true),
        ("", "a", false), (String(repeating: "x", count: 256), "", false),
    ])
    func comparesStatesInConstantTime(a: String, b: String, equal: Bool) {
        #expect(constantTimeEquals(a, b) == equal)
        #expect(constantTimeEquals(b, a) == equal)
    }

    @Test(
        arguments: [
            ("myapp://cb?code=1&state=a%2Bb+c", "myapp", "a+b c"),
            ("MyApp://cb?code=1", "myapp", nil),
            ("com.example.app:/cb#code=1&state=frag", "com.example.app", "frag"),
            ("myapp://cb?state=q#state=f", "myapp", "q"),
            ("myapp://cb?state=", "myapp", ""),
        ] as [(String, String, String?)])
    func readsTheStateWithTheProjectsParser(url: String, scheme: String, state: String?) throws {
        let route = try CallbackRoute(CallbackURL(parsing: url))
        #expect(route.scheme.name == scheme)
        #expect(route.state == state)
    }

    @Test(arguments: [
        ("myapp://cb?state=a&state=b", "duplicate_parameter"),
        ("https://example.com/cb?state=a", "scheme_not_allowed"),
        ("javascript:alert(1)//?state=a", "scheme_not_allowed"),
    ])
    func refusesCallbacksItCannotRoute(url: String, reason: String) {
        #expect {
            try CallbackRoute(CallbackURL(parsing: url))
        } throws: { ($0 as? CallbackError)?.reason.rawValue == reason }
    }

    @Test(arguments: [nil, "", "state-value", String(repeating: "s", count: 8192)] as [String?])
    func encodesOffersThatDecodeToTheSameRoute(state: String?) throws {
        let route = CallbackRoute(scheme: try CallbackScheme(validating: "com.example.app"), state: state)
        let bytes = HandoffWire.offer(route)
        #expect(bytes[0] == HandoffWire.FrameType.offer.rawValue)
        let length = Int(bytes[1]) << 24 | Int(bytes[2]) << 16 | Int(bytes[3]) << 8 | Int(bytes[4])
        #expect(length == bytes.count - 5)
        let decoded = HandoffWire.decodeOffer(Array(bytes[5...]))
        #expect(decoded?.scheme.name == "com.example.app")
        #expect(decoded?.state == state)
    }

    /// A magic link's `flow_id` (no state) travels in the offer, so a `listen --flow-id`
    /// can answer it; a state always wins over it.
    @Test func encodesAFlowIDOfferThatDecodesToTheSameRoute() throws {
        let scheme = try CallbackScheme(validating: "myapp")
        let link = try CallbackRoute(CallbackURL(parsing: "myapp://callback?flow_id=sia_1&approval_token=t"))
        #expect(link.flowID == "sia_1" && link.state == nil)
        let decoded = HandoffWire.decodeOffer(Array(HandoffWire.offer(link)[5...]))
        #expect(decoded?.flowID == "sia_1" && decoded?.state == nil && decoded?.scheme == scheme)
        let withState = try CallbackRoute(CallbackURL(parsing: "myapp://callback?flow_id=sia_1&state=s"))
        #expect(withState.flowID == nil && withState.state == "s")
        #expect(HandoffMatch.answer(listenerScheme: scheme, expectedState: nil, expectedFlowID: "sia_1", offered: link) == .exact)
        #expect(HandoffMatch.answer(listenerScheme: scheme, expectedState: nil, expectedFlowID: "sia_2", offered: link) == .notMine)
        #expect(HandoffMatch.answer(listenerScheme: scheme, expectedState: nil, expectedFlowID: "sia_1", offered: withState) == .notMine)
        #expect(HandoffMatch.answer(listenerScheme: scheme, expectedState: nil, offered: link) == .candidate)
    }

    @Test(arguments: [
        [UInt8](), [0], [2, 0, 1, 0x61], [3, 0, 1, 0x61, 0x62], [0, 0, 5, 0x61], [0, 0, 1, 0x41], [0, 0, 1, 0x61, 0x62],
        [0, 0, 4, 0x68, 0x74, 0x74, 0x70], [1, 0, 1, 0x61, 0xFF],
    ])
    func refusesMalformedOffers(payload: [UInt8]) {
        #expect(HandoffWire.decodeOffer(payload) == nil)
    }
}
