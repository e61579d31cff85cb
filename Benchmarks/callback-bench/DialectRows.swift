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
import MallocCounter

/// One row per dialect: its typical callback classified (parse + redirect check +
/// classification, as `callback-router parse --dialect D --redirect-uri …` does) against the
/// bare parse of the same callback, in turns. The target: each within 2× its parse.
enum BenchDialects {
    struct Case {
        let name: String
        let dialect: Dialect
        let url: String
        let redirect: RedirectURI
        let expectations: CallbackExpectations
    }

    static let cases: [Case] = [
        Case(
            name: "oauth2", dialect: .oauth2, url: Corpus.typical, redirect: try! RedirectURI("com.example.app:/oauth2redirect"),
            expectations: BenchRouter.expectations),
        Case(
            name: "prelude", dialect: .prelude,
            url: "myapp://oauth-callback?challenge_token="
                + "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdF83UXhWMm1LcDlzTGQzUnRZOHdaYzROYkgifQ.cWAcu0YaZgsGuSG2bQ3hve4CQivEKewS5PsOZYacwlQ",
            redirect: try! RedirectURI("myapp://oauth-callback", policy: .customSchemeOnly), expectations: CallbackExpectations()),
        Case(
            name: "ory", dialect: .ory, url: "com.example.app://callback?code=ory_ac_Zx81LmQp3WfT9sKd2VbN7hYc",
            redirect: try! RedirectURI("com.example.app://callback"), expectations: CallbackExpectations()),
        Case(
            name: "zephr", dialect: .zephr,
            url: "com.example.app:/auth?action=login&status=success&session_id=sess_4Kq9Zp2LmX7vTb&tracking_id=trk_81Hd2Qw",
            redirect: try! RedirectURI("com.example.app:/auth"), expectations: CallbackExpectations()),
        Case(
            name: "clerk", dialect: .clerk,
            url: "myapp://sso-callback?rotating_token_nonce=rtn_3NfQ8wZk2LpV7xYc&created_session_id=sess_2Yh&state=af0ifjsldkjAbCd",
            redirect: try! RedirectURI("myapp://sso-callback", policy: .customSchemeOnly),
            expectations: CallbackExpectations(state: "af0ifjsldkjAbCd")),
    ]

    @inline(never)
    static func classifyOnce(_ test: Case) {
        guard let url = try? CallbackURL(parsing: test.url), (try? test.redirect.check(url)) != nil,
            let outcome = try? CallbackClassifier.classify(url, dialect: test.dialect, expecting: test.expectations)
        else {
            consume(1); return
        }
        consume(outcome.isUnbound ? 2 : 1) // the outcome, not its strings (made when a field is read)
    }

    static func run() {
        for test in cases where selected("classify_\(test.name)") {
            let one = [test.url]
            let (classify, parse) = measurePair(operations: 1, ours: { classifyOnce(test) }, theirs: { oursParse(one) })
            let allocs = allocations(operations: 1) { classifyOnce(test) }
            print(
                "BENCH classify_\(test.name) ours_ns=\(format(classify)) parse_ns=\(format(parse)) "
                    + "ratio=\(format(classify / parse))x allocs=\(malloc_counter_is_counting() != 0 ? format(allocs) : "unmeasured")"
                    + " # parse + redirect check + \(test.name) classification, against the parse alone")
        }
    }
}
