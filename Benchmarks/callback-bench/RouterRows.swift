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

import CallbackRouter
import CallbackRouterCLI
import Foundation
import MallocCounter

/// The rows that go past parsing: the `parse` command's whole work, and router dispatch.
enum BenchRouter {
    static func run() {
        classifyRow()
        for pending in [10, 1_000, 10_000] { dispatchRow(pending: pending) }
    }

    /// Parse + classify + validate against a registered redirect URI: what
    /// `callback-router parse --dialect oauth2 --redirect-uri … --state …` does.
    static let redirect = try! RedirectURI("com.example.app:/oauth2redirect")
    static let expectations = CallbackExpectations(state: "af0ifjsldkjAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_")

    /// What `callback-router parse --dialect oauth2 --redirect-uri … --state …` does, then
    /// the code read as a `String` (an app's next step). The redirect URI and expectations
    /// are the caller's, made once: a `static let` read here would add the benchmark's own
    /// `swift_once` calls (~50 instructions) to every operation.
    @inline(never)
    static func classifyOnce(_ input: String, _ redirect: RedirectURI, _ expectations: CallbackExpectations) {
        guard let url = try? CallbackURL(parsing: input), (try? redirect.check(url)) != nil,
            let outcome = try? CallbackClassifier.classify(url, dialect: .oauth2, expecting: expectations)
        else {
            consume(1); return
        }
        consume(outcome.code?.utf8.count ?? 0)
    }

    static func classifyRow() {
        guard selected("parse_classify_validate") else { return }
        let input = Corpus.typical
        let redirect = Self.redirect, expectations = Self.expectations
        func ours() { classifyOnce(input, redirect, expectations) }
        let (oursNs, theirs) = measurePair(operations: 1, ours: { ours() }, theirs: { foundationParse([input]) })
        let allocs = allocations(operations: 1) { ours() }
        report(
            "parse_classify_validate", ours: oursNs, foundation: theirs, allocs: allocs,
            note: "Foundation column: URLComponents + queryItems alone, no checks")
    }

    /// `handle(url)` for a callback whose attempt is pending, with `pending` other attempts
    /// pending beside it: O(1) means the figure does not grow with `pending`.
    static func dispatchRow(pending: Int) {
        guard selected("router_dispatch_\(pending)_pending") else { return }
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try! RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        let router = try! builder.build(maxPendingAttempts: pending + 10_000)
        for _ in 0 ..< pending { _ = try! router.beginLogin(on: "app") }
        let batch = 200
        var samples: [Double] = []
        var allocsPerCallback = 0.0
        for round in 0 ..< repetitions * 5 {
            let attempts = (0 ..< batch).map { _ in try! router.beginLogin(on: "app") }
            let urls = attempts.map { "com.example.app:/oauth2redirect?code=c0de&state=\($0.state)" }
            let allocBefore = malloc_counter_allocations()
            let start = nanoseconds()
            for url in urls { consume((try? router.handle(url)) == nil ? 0 : 1) }
            samples.append(Double(nanoseconds() - start) / Double(batch))
            if round == 0 { allocsPerCallback = Double(malloc_counter_allocations() - allocBefore) / Double(batch) }
        }
        samples.sort()
        report(
            "router_dispatch_\(pending)_pending", ours: samples[samples.count / 2], foundation: nil,
            allocs: allocsPerCallback, note: "handle(url) incl. parse, classify, state lookup, consume; pending=\(router.pendingCount)")
    }
}
