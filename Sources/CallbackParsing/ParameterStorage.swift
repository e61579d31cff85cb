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

/// The positions of a URL's parameters: the first eight inline, the rest in an array, so
/// that parsing a typical callback allocates nothing.
struct ParameterStorage: Sendable {
    static let inlineCapacity = 8
    private var inline:
        (
            RawParameter, RawParameter, RawParameter, RawParameter,
            RawParameter, RawParameter, RawParameter, RawParameter
        ) = (
            RawParameter(), RawParameter(), RawParameter(), RawParameter(),
            RawParameter(), RawParameter(), RawParameter(), RawParameter()
        )
    private var overflow: [RawParameter] = []
    private(set) var count = 0
    /// The longest pair (name, `=` and value, as written) that needs decoding, 0 when none
    /// does: the scratch buffer `forEachDecodedUTF8` needs, known without a first pass.
    private(set) var longestEscapedPair: UInt32 = 0

    subscript(position: Int) -> RawParameter {
        // A switch, not a pointer into the tuple: taking the tuple's address can make
        // Swift copy all of it first.
        switch position {
        case 0: return inline.0
        case 1: return inline.1
        case 2: return inline.2
        case 3: return inline.3
        case 4: return inline.4
        case 5: return inline.5
        case 6: return inline.6
        case 7: return inline.7
        default: return overflow[position - Self.inlineCapacity]
        }
    }

    /// Calls `body` with the pair at each position of `positions`, in order, read through
    /// pointers (one copy of the inline table, none of the overflow).
    @inline(__always)
    func forEach(in positions: Range<Int>, _ body: (RawParameter) throws -> Void) rethrows {
        var table = inline
        try withUnsafePointer(to: &table) { tuple in
            try tuple.withMemoryRebound(to: RawParameter.self, capacity: Self.inlineCapacity) { first in
                let inlineEnd = Swift.min(positions.upperBound, Self.inlineCapacity)
                var position = positions.lowerBound
                while position < inlineEnd {
                    try body(first[position])
                    position += 1
                }
                guard position < positions.upperBound else { return }
                try overflow.withUnsafeBufferPointer { rest in
                    while position < positions.upperBound {
                        try body(rest[position - Self.inlineCapacity])
                        position += 1
                    }
                }
            }
        }
    }

    /// Appends through a pointer into the inline table (the storage is written in place
    /// by the parser, so nothing is copied): a `switch` on `count` here compiled to a jump
    /// table whose indirect branch was mispredicted about twice a URL.
    @inline(__always)
    mutating func append(_ parameter: RawParameter) {
        if parameter.needsDecoding {
            longestEscapedPair = Swift.max(longestEscapedPair, parameter.end &- parameter.start)
        }
        if count < Self.inlineCapacity {
            let position = count
            withUnsafeMutablePointer(to: &inline) { tuple in
                tuple.withMemoryRebound(to: RawParameter.self, capacity: Self.inlineCapacity) { $0[position] = parameter }
            }
        } else {
            if overflow.isEmpty { overflow.reserveCapacity(Self.inlineCapacity * 2) }
            overflow.append(parameter)
        }
        count += 1
    }
}
