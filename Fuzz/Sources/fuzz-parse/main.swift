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

// fuzz-parse: any byte string either parses or is refused with a well-formed ParseError,
// and whatever parses prints back to a string that parses to identical components.
//
// Checked on every input (a violation traps, libFuzzer keeps the reproducer):
// - `string` is the input; `pathSlice`, `forEachDecodedUTF8`, `forEachQueryParameterUTF8`
//   and name lookups agree
//   with `path` and the subscript;
// - exactly one outcome: a CallbackURL or a ParseError (typed throws), and the `String`
//   and byte-collection entry points agree on it;
// - a ParseError's reason is one of `ReasonCode.allCases`, its offset inside the input;
// - parse → serialized → parse gives identical components and parameters, and printing
//   the reparsed value gives the same string (the printer is a fixed point);
// - `description` never shows a parameter value: it is identical for the same URL with
//   every value replaced by as many `a`s, and contains no value longer than 3 bytes
//   that the value-blind description does not also contain (host, path, names); the
//   same for debugDescription and dump() of the URL, its host, its parameter lists and each
//   parameter (both lists indexed from 0), on inputs whose length is a multiple of 8.
// Linear time is checked by libFuzzer's `-timeout` over inputs up to `-max_len`.
import CallbackParsing
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let outcome = parse(bytes)

    // The String entry point must agree whenever the bytes are a String's UTF-8.
    let text = String(decoding: bytes, as: UTF8.self)
    if Array(text.utf8) == bytes {
        let fromString = parse(text)
        switch (outcome, fromString) {
        case (.success(let a), .success(let b)):
            check(a == b && a.serialized == b.serialized, "String and bytes parse differently")
        case (.failure(let a), .failure(let b)):
            check(a == b, "String and bytes refuse differently: \(a) vs \(b)")
        default:
            check(false, "String and bytes disagree on success")
        }
    }

    switch outcome {
    case .failure(let error):
        check(ReasonCode.allCases.contains(error.reason), "unknown reason \(error.reason)")
        if let offset = error.offset {
            check(offset >= 0 && offset < size, "offset \(offset) outside an input of \(size) bytes")
        } else {
            check(error.reason == .emptyInput, "\(error.reason) without an offset")
        }
    case .success(let url):
        check(Array(url.string.utf8) == bytes, "string is not the input")
        checkAccessors(url)
        checkRoundTrip(url)
        // dump() through Mirror costs ~7× the rest of the checks (3,000 against 23,000
        // execs/s): run it on one input length in eight, a choice fixed by the input so
        // that a reproducer replays it.
        checkRedaction(url, dumps: size % 8 == 0)
    }
    return 0
}

func parse(_ bytes: [UInt8]) -> Result<CallbackURL, ParseError> {
    Result { () throws(ParseError) in try CallbackURL(parsing: bytes) }
}

func parse(_ text: String) -> Result<CallbackURL, ParseError> {
    Result { () throws(ParseError) in try CallbackURL(parsing: text) }
}

/// The zero-copy accessors agree with the allocating ones.
func checkAccessors(_ url: CallbackURL) {
    check(String(url.pathSlice) == url.path, "pathSlice differs from path")
    for list in [url.queryParameters, url.fragmentParameters] {
        checkPairs(list, "forEachDecodedUTF8", list.forEachDecodedUTF8)
        for parameter in list {
            check(
                list.contains(named: parameter.name) && list.count(named: parameter.name) >= 1,
                "a parameter is not found by its own name")
        }
    }
    checkPairs(url.queryParameters, "forEachQueryParameterUTF8", url.forEachQueryParameterUTF8)
}

/// A zero-copy reader yields exactly `list`'s pairs, in order, decoded as the subscript does.
func checkPairs(
    _ list: Parameters, _ reader: String,
    _ forEach: ((UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void
) {
    var position = 0
    try? forEach { name, value in
        check(position < list.count, "\(reader) yields too many pairs")
        let parameter = list[position]
        check(
            name.elementsEqual(parameter.name.utf8) && value.elementsEqual(parameter.value.utf8),
            "\(reader) differs from the subscript")
        position += 1
    }
    check(position == list.count, "\(reader) yields too few pairs")
}

func checkRoundTrip(_ url: CallbackURL) {
    let printed = url.serialized
    guard case .success(let again) = parse(printed) else {
        fatalError("the serialization does not parse again")
    }
    check(again == url, "reparse changed a component")
    check(
        again.scheme == url.scheme && again.userinfo == url.userinfo && again.port == url.port
            && again.path == url.path && again.query == url.query && again.fragment == url.fragment,
        "reparse changed a raw component")
    check(again.hasAuthority == url.hasAuthority, "reparse changed whether there is an authority")
    check(
        again.host?.kind == url.host?.kind && again.host?.text == url.host?.text
            && again.host?.addressBytes == url.host?.addressBytes, "reparse changed the host")
    check(Array(again.queryParameters) == Array(url.queryParameters), "reparse changed the query parameters")
    check(Array(again.fragmentParameters) == Array(url.fragmentParameters), "reparse changed the fragment parameters")
    check(again.serialized == printed, "printing is not a fixed point")
    check((try? again.decodedPath()) == (try? url.decodedPath()), "reparse changed the decoded path")
}

/// Rewrites a raw query or fragment with every value replaced by as many `a`s as its
/// decoded length, keeping names and separators.
func blindValues(_ raw: String, _ parameters: Parameters) -> String {
    var out = ""
    var index = parameters.startIndex
    for pair in raw.split(separator: "&", omittingEmptySubsequences: false) {
        if pair.isEmpty { out += "&"; continue }
        if let equals = pair.firstIndex(of: "="), index < parameters.endIndex {
            out += pair[..<equals] + "=" + String(repeating: "a", count: parameters[index].value.utf8.count) + "&"
        } else {
            out += pair + "&"
        }
        index += 1
    }
    return String(out.dropLast())
}

func checkRedaction(_ url: CallbackURL, dumps: Bool) {
    var blind = url.scheme + ":"
    if let host = url.host {
        blind += "//" + (url.userinfo.map { $0 + "@" } ?? "") + host.text + (url.port.map { ":" + String($0) } ?? "")
    }
    blind += url.path
    if let query = url.query { blind += "?" + blindValues(query, url.queryParameters) }
    if let fragment = url.fragment { blind += "#" + blindValues(fragment, url.fragmentParameters) }
    guard case .success(let blinded) = parse(blind) else {
        fatalError("the value-blind rewrite does not parse")
    }
    let description = url.description
    let blindDescription = blinded.description
    for parameter in Array(url.queryParameters) + Array(url.fragmentParameters)
    where parameter.value.utf8.count > 3 && description.contains(parameter.value) {
        check(blindDescription.contains(parameter.value), "description shows a parameter value")
    }
    check(description == blindDescription, "description depends on parameter values")
    check(String(reflecting: url) == description, "debugDescription differs from description")
    guard dumps else { return }
    // dump() and debugDescription of the parameter lists and of each parameter too.
    check(printed(url) == printed(blinded), "dump(url) depends on parameter values")
    check(printed(url.host as Any) == printed(blinded.host as Any), "dump(host) depends on parameter values")
    check(printed(url.queryParameters) == printed(blinded.queryParameters), "dump(queryParameters) depends on values")
    check(printed(url.fragmentParameters) == printed(blinded.fragmentParameters), "dump(fragmentParameters) depends on values")
    // Both lists index from 0, whatever the other holds.
    for (list, other) in [(url.queryParameters, blinded.queryParameters), (url.fragmentParameters, blinded.fragmentParameters)] {
        check(list.startIndex == 0 && list.count == other.count, "parameter lists must index from 0")
        for position in 0 ..< list.count {
            check(printed(list[position]) == printed(other[position]), "dump(parameter) depends on its value")
        }
    }
}

func printed(_ value: some Any) -> String {
    var out = String(reflecting: value)
    dump(value, to: &out)
    return out
}
