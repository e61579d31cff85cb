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

/// Parses, returning the outcome instead of throwing, for table-driven expectations.
func parse(_ text: String, limits: ParsingLimits = .default) -> Result<CallbackURL, ParseError> {
    Result { () throws(ParseError) in try CallbackURL(parsing: text, limits: limits) }
}

func parse(bytes: [UInt8], limits: ParsingLimits = .default) -> Result<CallbackURL, ParseError> {
    Result { () throws(ParseError) in try CallbackURL(parsing: bytes, limits: limits) }
}

extension Result {
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A parameter list as comparable pairs.
func pairs(_ parameters: Parameters) -> [[String]] {
    parameters.map { [$0.name, $0.value] }
}

/// The components of a parsed URL as one comparable record, parameters included, so a
/// round trip can be checked with a single `==` and a failure shows what differed.
struct Components: Equatable, CustomStringConvertible {
    var scheme: String
    var userinfo: String?
    var hostKind: Host.Kind?
    var host: String?
    var addressBytes: [UInt8]?
    var port: Int?
    var path: String
    var query: String?
    var fragment: String?
    var queryParameters: [[String]]
    var fragmentParameters: [[String]]

    init(_ url: CallbackURL) {
        scheme = url.scheme
        userinfo = url.userinfo
        hostKind = url.host?.kind
        host = url.host?.text
        addressBytes = url.host?.addressBytes
        port = url.port
        path = url.path
        query = url.query
        fragment = url.fragment
        queryParameters = pairs(url.queryParameters)
        fragmentParameters = pairs(url.fragmentParameters)
    }

    var description: String {
        "\(scheme) userinfo=\(userinfo ?? "nil") host=\(host ?? "nil") port=\(port.map(String.init) ?? "nil") "
            + "path=\(path) query=\(query ?? "nil") fragment=\(fragment ?? "nil")"
    }
}
