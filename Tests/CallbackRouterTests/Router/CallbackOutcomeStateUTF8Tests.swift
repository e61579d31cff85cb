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
import TestVectorSupport
import Testing
@testable import CallbackRouter

/// The router reads a callback's state as bytes (`withStateUTF8`) instead of making the
/// `String`; these must always be the bytes of `state`, on the classifier's common path
/// (a view of the query) and on its full path (strings), escaped or not, absent or not.
@Suite struct CallbackOutcomeStateUTF8Tests {
    static let callbacks: [(url: String, dialect: Dialect, mode: ResponseMode)] = [
        ("com.example.app:/cb?code=c0de&state=af0ifjsldkjAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_", .oauth2, .query),
        ("com.example.app:/cb?state=s1&code=c0de", .oauth2, .query),
        ("com.example.app:/cb?code=c0de&state=a%2Bb%20c+d%3D", .oauth2, .query),
        ("com.example.app:/cb?code=c0de&state=%C3%A9t%C3%A9-%F0%9F%9A%80", .oauth2, .query),
        ("com.example.app:/cb?code=c0de&state=~tilde.dot_under-dash", .oauth2, .query),
        ("com.example.app:/cb?code=c0de", .oauth2, .query),
        ("com.example.app:/cb?code=c0de&state=s1&iss=https%3A%2F%2Fissuer.example", .oauth2, .query),
        ("com.example.app:/cb?error=access_denied&error_description=no&state=s%2F2", .oauth2, .query),
        ("com.example.app:/cb?code=c0de&state=s1&extra=1", .oauth2, .query),
        ("com.example.app:/cb#code=c0de&state=fr%41gment", .oauth2, .fragment),
        ("com.example.clerk://callback?rotating_token_nonce=rtn_1&state=clerk-state", .clerk, .query),
        ("com.example.zephr:/cb#action=login&status=success&session_id=s1&tracking_id=t1", .zephr, .fragment),
        ("com.example.app:/cb?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&code=c0de&state=late%20state", .oauth2, .query),
    ]

    @Test(arguments: callbacks)
    func givesTheBytesOfState(url: String, dialect: Dialect, mode: ResponseMode) throws {
        let parsed = try CallbackURL(parsing: url)
        let outcome = try CallbackClassifier.classify(parsed, dialect: dialect, expecting: CallbackExpectations(responseMode: mode))
        let bytes = outcome.withStateUTF8 { Array($0) }
        #expect(bytes == outcome.state.map { Array($0.utf8) })
    }

    @Test func countsEveryCallback() {
        #expect(Self.callbacks.count == 13)
    }

    /// Seeded random states (every byte class, escaped or not) through both readings.
    @Test func agreesOnRandomStates() throws {
        var generator = SplitMix64(seed: 17)
        let alphabet = Array("abcXYZ019-._~%2B%20%C3%A9+!$'()*,;:@/?".utf8)
        var compared = 0
        for _ in 0 ..< 2_000 {
            let length = Int(generator.next() % 40)
            let state = String(
                decoding: (0 ..< length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
            guard let parsed = try? CallbackURL(parsing: "com.example.app:/cb?code=c0de&state=" + state),
                let outcome = try? CallbackClassifier.classify(parsed, dialect: .oauth2, expecting: CallbackExpectations())
            else { continue }
            #expect(outcome.withStateUTF8 { Array($0) } == outcome.state.map { Array($0.utf8) })
            compared += 1
        }
        #expect(compared >= 400) // 433 of the 2,000 with this seed classify
    }
}
