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

// fuzz-json-foundation: the strict JSON reader against Foundation's `JSONSerialization`
// (`.fragmentsAllowed`). Foundation is the comparison side here, never the product.
//
// Checked on every input our reader accepts: Foundation accepts it too and reads the same
// value (null, booleans, strings, arrays, objects with the same names; integers in Int64
// range equal exactly, other numbers equal as `Double`), except for two classes documented
// in docs/tokens.md and pinned in JSONFoundationDifferentialTests:
// - `number-past-double`: a number past `Double`'s range (`1e400`), which we keep as text
//   and Foundation refuses;
// - `foundation-drops-bom`: Foundation drops a raw U+FEFF at the start of each unescaped
//   run of a string or member name: the string's start, or right after an escape
//   (`"\u{FEFF}aud"` reads as `aud`, `"\u00e4\u{FEFF}b"` as `äb`); we keep every character.
//   Compared with every U+FEFF removed from both sides (found by this fuzzer, twice, in
//   its first 300,000 inputs). Two member names that differ only by such a U+FEFF are
//   two members for us and one for Foundation (`{"\u{FEFF}a":1,"a":2}` reads as
//   `["a": 2]`): allowed when that explains the count (found by this fuzzer in CI).
// Any other disagreement traps with both readings.
// Where only Foundation accepts, nothing is checked: we refuse on purpose what it takes
// (duplicate members, trailing commas, a BOM, nesting past our limit, UTF-16 documents).
@_spi(Fuzzing) import CallbackTokens
import Foundation
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFoundation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let ours = JSONFuzzing.read(bytes) else { return 0 }
    guard let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
        check(hasNumberPastDouble(ours), "Foundation refuses a document we accept: \(String(decoding: bytes, as: UTF8.self))")
        return 0
    }
    check(equal(ours, theirs), "Foundation reads another value: ours \(ours), theirs \(theirs)")
    return 0
}

func hasNumberPastDouble(_ value: JSONFuzzing.Value) -> Bool {
    switch value {
    case .number(let text, _): return !(Double(text)?.isFinite ?? false)
    case .array(let elements): return elements.contains(where: hasNumberPastDouble)
    case .object(let members): return members.contains { hasNumberPastDouble($0.value) }
    default: return false
    }
}

func equal(_ ours: JSONFuzzing.Value, _ theirs: Any) -> Bool {
    switch ours {
    case .null:
        return theirs is NSNull
    case .bool(let flag):
        return (theirs as? Bool) == flag
    case .number(let text, let exact):
        guard let other = theirs as? NSNumber else { return false }
        if let exact { return other.int64Value == exact }
        return other.doubleValue == Double(text) || (theirs is NSDecimalNumber)
    case .string(let text):
        return sameString(text, theirs as? String)
    case .array(let elements):
        guard let others = theirs as? [Any], others.count == elements.count else { return false }
        return zip(elements, others).allSatisfy { equal($0, $1) }
    case .object(let members):
        guard let others = theirs as? [String: Any] else { return false }
        guard others.count == members.count else { return membersMergedByBOM(members, others) }
        // A name of ours may be a key of theirs only once a dropped U+FEFF is removed, and
        // then another key may share its BOM-free spelling: any of those with an equal value.
        return members.allSatisfy { member in
            if let other = others[member.name], equal(member.value, other) { return true }
            return others.contains { withoutBOM($0.key) == withoutBOM(member.name) && equal(member.value, $0.value) }
        }
    }
}

/// Class `foundation-drops-bom`, for member names: two names that differ only by a dropped
/// U+FEFF (`"\u{FEFF}a"` and `"a"`) are distinct members for us and one for Foundation, which
/// keeps one of their values. Allowed only when that explains the difference in count: both
/// sides hold the same names once every U+FEFF is removed, a name of ours holds one, and each
/// of Foundation's values is the value of one of our members with that name.
func membersMergedByBOM(_ members: [(name: String, value: JSONFuzzing.Value)], _ others: [String: Any]) -> Bool {
    guard others.count < members.count, members.contains(where: { $0.name.unicodeScalars.contains("\u{FEFF}") }) else {
        return false
    }
    let ourNames = Set(members.map { withoutBOM($0.name) })
    guard ourNames == Set(others.keys.map(withoutBOM)) else { return false }
    return others.allSatisfy { key, value in
        members.contains { withoutBOM($0.name) == withoutBOM(key) && equal($0.value, value) }
    }
}

/// Class `foundation-drops-bom`: equal, or equal once every U+FEFF is removed from both.
func sameString(_ ours: String, _ theirs: String?) -> Bool {
    guard let theirs else { return false }
    return ours.unicodeScalars.elementsEqual(theirs.unicodeScalars)
        || withoutBOM(ours).unicodeScalars.elementsEqual(withoutBOM(theirs).unicodeScalars)
}

func withoutBOM(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: text.unicodeScalars.filter { $0 != "\u{FEFF}" })
    return String(scalars)
}
