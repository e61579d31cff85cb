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

// The `long` row: the long redirects real authorization servers sent the interop suites
// (Tests/CallbackRouterTests/Vectors/captured-long-redirects.json: the OpenID Connect hybrid
// flow's signed ID token, 256- and 512-byte states, percent-encoded iss), read at start-up.
// Where parse + decode is mostly the byte loops: held to 2.5 instructions a byte.
import CallbackRouter
import Foundation

extension Corpus {
    /// The captured long redirects, in the file's order.
    static let long: [String] = {
        // …/Benchmarks/callback-bench/LongRows.swift → …/Tests/CallbackRouterTests/Vectors/
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Tests/CallbackRouterTests/Vectors/captured-long-redirects.json")
        guard let data = try? Data(contentsOf: path),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = file["cases"] as? [[String: Any]]
        else { fatalError("callback-bench: cannot read \(path.path)") }
        return cases.map { $0["url"] as! String }
    }()
}

/// Ours on a long redirect: the parse and every decoded parameter of the component that
/// carries the response (the query, or the fragment for django-oauth-toolkit's hybrid flow).
@inline(never)
func oursParseLong(_ inputs: [String]) {
    for input in inputs {
        guard let url = try? CallbackURL(parsing: input) else { consume(1); continue }
        var total = 0
        url.forEachQueryParameterUTF8 { name, value in total &+= name.count &+ value.count }
        let fragment = url.fragmentParameters
        if !fragment.isEmpty { fragment.forEachDecodedUTF8 { name, value in total &+= name.count &+ value.count } }
        consume(total)
    }
}

/// Foundation on a long redirect: `URLComponents` + `queryItems`, and for a response in the
/// fragment, the fragment's items read the same way (Foundation has no fragment items).
@inline(never)
func foundationParseLong(_ inputs: [String]) {
    for input in inputs {
        guard let components = URLComponents(string: input) else { consume(1); continue }
        var total = 0
        for item in components.queryItems ?? [] { total &+= item.name.utf8.count &+ (item.value?.utf8.count ?? 0) }
        if let fragment = components.percentEncodedFragment {
            var items = URLComponents()
            items.percentEncodedQuery = fragment
            for item in items.queryItems ?? [] { total &+= item.name.utf8.count &+ (item.value?.utf8.count ?? 0) }
        }
        consume(total)
    }
}

/// Ours on a long redirect, the parse alone (`--profile N --long --parse-only`): what the
/// `long` row spends before decoding, for the breakdown in docs/performance.md.
@inline(never)
func oursParseLongOnly(_ inputs: [String]) {
    for input in inputs {
        guard let url = try? CallbackURL(parsing: input) else { consume(1); continue }
        keep(url)
    }
}

/// Keeps a parsed URL alive past the optimizer (its parse cannot be dropped as unused).
@inline(never)
func keep(_ url: CallbackURL) { withExtendedLifetime(url) {} }
