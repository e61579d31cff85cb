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

/// The parameters of a query or a fragment, decoded on access, in order, duplicates kept.
///
/// The parser keeps duplicates; callers decide. ``value(named:)`` refuses a duplicated name
/// with `duplicate_parameter` instead of silently picking the first or the last
/// (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once").
/// Names are compared after decoding, so `st%61te` and `state` are the same name.
public struct Parameters: RandomAccessCollection, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    let source: String
    let storage: ParameterStorage
    /// Which of `storage`'s parameters are this list's (the query's come first).
    let positions: Range<Int>

    /// Positions count from 0 in both lists: `fragmentParameters[0]` is the fragment's
    /// first parameter even when the query has some (the storage is shared).
    public var startIndex: Int { 0 }
    /// One past the last parameter: `count`, since parameters are indexed from zero.
    public var endIndex: Int { positions.count }

    /// The decoded parameter at `position`; a position outside `0 ..< count` traps, like
    /// any `Collection`.
    public subscript(position: Int) -> Parameter {
        let item = raw(position)
        return Parameter(name: decode(item.nameRange), value: decode(item.valueRange))
    }

    /// The pair at `position`; traps past the end like any `Collection` (the shared storage
    /// would otherwise answer with the fragment's first pair, or an empty inline slot).
    private func raw(_ position: Int) -> RawParameter {
        precondition(position >= 0 && position < positions.count, "Parameters index out of range")
        return storage[positions.lowerBound + position]
    }

    /// The raw parameters, in order (no decoding, no allocation).
    private var raws: LazyMapSequence<Range<Int>, RawParameter> { positions.lazy.map { storage[$0] } }

    /// Calls `body` with each parameter's name and value, decoded, as UTF-8 bytes, without
    /// allocating: what needs no decoding is passed straight from the URL's storage, and
    /// what holds `%XX` or `+` is decoded into a scratch buffer on the stack. The buffers
    /// are valid only during the call.
    ///
    /// The fastest way to read every parameter (the decoded bytes are valid UTF-8: the
    /// parser checked). ``subscript(_:)`` makes `String`s instead.
    public func forEachDecodedUTF8(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        guard !positions.isEmpty else { return }
        try withSourceUTF8 { bytes in
            try Self.forEachDecodedUTF8(bytes, storage, positions, body)
        }
    }

    /// The loop behind ``forEachDecodedUTF8(_:)``, over the URL's bytes, shared with
    /// ``CallbackURL/forEachQueryParameterUTF8(_:)``.
    static func forEachDecodedUTF8(
        _ bytes: UnsafeBufferPointer<UInt8>, _ storage: borrowing ParameterStorage, _ positions: Range<Int>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let scratchSize = Int(storage.longestEscapedPair)
        guard scratchSize > 0 else {
            // Nothing needs decoding: every name and value is the URL's own bytes.
            return try storage.forEach(in: positions) { item in
                try body(
                    UnsafeBufferPointer(rebasing: bytes[item.nameRange]),
                    UnsafeBufferPointer(rebasing: bytes[item.valueRange]))
            }
        }
        // What holds `%XX` or `+` is decoded into one stack buffer as long as the
        // longest such pair; the rest is still handed out from the URL.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { scratch in
            try storage.forEach(in: positions) { item in
                let name = UnsafeBufferPointer(rebasing: bytes[item.nameRange])
                let value = UnsafeBufferPointer(rebasing: bytes[item.valueRange])
                guard item.needsDecoding else { return try body(name, value) }
                // Decoding never lengthens: the name's bytes, then the value's, fit.
                let decodedName = item.nameNeedsDecoding ? decode(name, into: scratch, at: 0) : name
                let valueStart = item.nameNeedsDecoding ? decodedName.count : 0
                let decodedValue = item.valueNeedsDecoding ? decode(value, into: scratch, at: valueStart) : value
                try body(decodedName, decodedValue)
            }
        }
    }

    /// The URL's UTF-8 without copying the string (it was made contiguous when parsed).
    @inline(__always)
    private func withSourceUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withContiguousUTF8(source, body)
    }

    /// Decodes `raw` into `scratch` from `start`: one pass, no closure per byte.
    private static func decode(
        _ raw: UnsafeBufferPointer<UInt8>, into scratch: UnsafeMutableBufferPointer<UInt8>,
        at start: Int
    ) -> UnsafeBufferPointer<UInt8> {
        let count = PercentDecoding.decode(raw, into: scratch.baseAddress.unsafelyUnwrapped + start)
        return UnsafeBufferPointer(start: scratch.baseAddress.unsafelyUnwrapped + start, count: count)
    }

    /// The names, decoded, in order.
    public var names: [String] { raws.map { decode($0.nameRange) } }

    /// How many parameters have this (decoded) name.
    public func count(named name: String) -> Int {
        raws.reduce(0) { $0 + (nameEquals($1, name) ? 1 : 0) }
    }

    /// Whether a parameter has this name.
    public func contains(named name: String) -> Bool {
        raws.contains { nameEquals($0, name) }
    }

    /// The value of the one parameter with this name; nil when absent.
    /// Throws `duplicate_parameter` (with the offset of the second one) when it occurs twice.
    public func value(named name: String) throws(ParseError) -> String? {
        var found: RawParameter?
        for item in raws where nameEquals(item, name) {
            if found != nil {
                throw ParseError(
                    .duplicateParameter, at: Int(item.start),
                    "the parameter '\(ParameterName.shown(name))' occurs more than once")
            }
            found = item
        }
        return found.map { decode($0.valueRange) }
    }

    /// Every value given for this name, in order (empty when absent).
    public func values(named name: String) -> [String] {
        raws.filter { nameEquals($0, name) }.map { decode($0.valueRange) }
    }

    /// The first name that occurs more than once, with the offset of its second occurrence.
    public func firstDuplicate() -> (name: String, offset: Int)? {
        // Up to 16 parameters, compare pairs of names in place (no allocation); past that a
        // set keeps it linear.
        if count <= 16 {
            for later in 1 ..< Swift.max(1, count) {
                let item = raw(later)
                for earlier in 0 ..< later where namesEqual(raw(earlier), item) {
                    return (decode(item.nameRange), Int(item.start))
                }
            }
            return nil
        }
        var seen = Set<String>()
        for item in raws {
            let name = decode(item.nameRange)
            if !seen.insert(name).inserted { return (name, Int(item.start)) }
        }
        return nil
    }

    /// Where the parameter at `position` starts in the URL (its name's first byte).
    public func offset(at position: Int) -> Int { Int(raw(position).start) }

    /// Where the value of the parameter at `position` starts in the URL.
    public func valueOffset(at position: Int) -> Int { raw(position).valueRange.lowerBound }

    /// Where the value of the first parameter with this name starts in the URL.
    public func valueOffset(named name: String) -> Int? {
        raws.first { nameEquals($0, name) }.map { $0.valueRange.lowerBound }
    }

    /// `[code: <redacted, 10 bytes>, state: <redacted, 43 bytes>]`.
    public var description: String { redactedSummary }

    /// The same redacted text as `description`: names and lengths, never a value.
    public var debugDescription: String { redactedSummary }

    /// `dump()` shows the redacted parameters, never the stored input.
    public var customMirror: Mirror {
        Mirror(self, children: map { (label: String?.none, value: $0 as Any) }, displayStyle: .collection)
    }

    var redactedSummary: String {
        "[" + map(\.description).joined(separator: ", ") + "]"
    }

    private func decode(_ range: Range<Int>) -> String {
        withSourceUTF8 { bytes in
            PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[range]), plusIsSpace: true)
        }
    }

    /// Compares two decoded names without allocating when neither needs decoding.
    private func namesEqual(_ a: RawParameter, _ b: RawParameter) -> Bool {
        withSourceUTF8 { bytes in
            let x = UnsafeBufferPointer(rebasing: bytes[a.nameRange])
            let y = UnsafeBufferPointer(rebasing: bytes[b.nameRange])
            if !a.nameNeedsDecoding && !b.nameNeedsDecoding { return x.elementsEqual(y) }
            var left: [UInt8] = [], right: [UInt8] = []
            PercentDecoding.forEachDecodedByte(x, plusIsSpace: true) { left.append($0) }
            PercentDecoding.forEachDecodedByte(y, plusIsSpace: true) { right.append($0) }
            return left == right
        }
    }

    /// Compares the decoded name with `name` without allocating.
    private func nameEquals(_ item: RawParameter, _ name: String) -> Bool {
        withSourceUTF8 { bytes in
            withContiguousUTF8(name) { expected in
                let raw = UnsafeBufferPointer(rebasing: bytes[item.nameRange])
                // The parser recorded whether the name holds an escape or a `+`.
                if !item.nameNeedsDecoding { return raw.elementsEqual(expected) }
                var index = 0
                var equal = true
                PercentDecoding.forEachDecodedByte(raw, plusIsSpace: true) { byte in
                    if index < expected.count && expected[index] == byte { index += 1 } else { equal = false }
                }
                return equal && index == expected.count
            }
        }
    }
}

/// A string's UTF-8 without copying the string when it is contiguous (native or literal:
/// a copy to call `withUTF8` would cost a retain and a release, atomic on a heap string).
@inline(__always)
func withContiguousUTF8<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    if let result = try string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return try copy.withUTF8(body)
}
