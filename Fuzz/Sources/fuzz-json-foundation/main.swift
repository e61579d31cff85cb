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
//   its first 300,000 inputs).
// Any other disagreement traps with both readings.
// Where only Foundation accepts, nothing is checked: we refuse on purpose what it takes
// (duplicate members, trailing commas, a BOM, nesting past our limit, UTF-16 documents).
@_spi(Fuzzing) import CallbackRouter
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
        guard let others = theirs as? [String: Any], others.count == members.count else { return false }
        return members.allSatisfy { member in
            let other = others[member.name] ?? others.first { withoutBOM($0.key) == withoutBOM(member.name) }?.value
            return other.map { equal(member.value, $0) } ?? false
        }
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
