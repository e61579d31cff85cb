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

/// Finds where a request head ends in a growing buffer without rescanning it: a peer
/// that sends one byte at a time costs linear work, not quadratic.
struct HTTPHeadScanner {
    /// The largest head accepted, request line included (16 KiB: the URL limit's default,
    /// so that every callback the parser would accept fits).
    let limit: Int
    private var scanned = 0
    private var sawLineEnd = false

    init(limit: Int) { self.limit = limit }

    enum State: Equatable {
        case incomplete
        /// The head is `buffer[..<length]`.
        case complete(length: Int)
        case refused(HTTPStatus)
    }

    mutating func scan(_ buffer: [UInt8]) -> State {
        var index = scanned
        while index < buffer.count {
            // The request line is printable ASCII and starts with a method: anything else
            // (a TLS handshake, binary junk) is answered 400 at its first byte rather than
            // left to time out.
            if !sawLineEnd, !Self.mayAppearInRequestLine(buffer[index], first: index == 0) {
                return .refused(.badRequest)
            }
            if buffer[index] == 0x0A {
                guard index > 0, buffer[index - 1] == 0x0D else { return .refused(.badRequest) }
                sawLineEnd = true
                if index >= 3, buffer[index - 2] == 0x0A, buffer[index - 3] == 0x0D {
                    return index + 1 <= limit ? .complete(length: index + 1) : .refused(.headersTooLarge)
                }
            }
            index += 1
            if index > limit {
                return .refused(sawLineEnd ? .headersTooLarge : .uriTooLong)
            }
        }
        scanned = index
        return .incomplete
    }

    /// A byte of a request line: a method's token byte first, then printable ASCII, the
    /// space, and the CR LF that ends it.
    static func mayAppearInRequestLine(_ byte: UInt8, first: Bool) -> Bool {
        if first { return HTTPRequestHead.isTokenByte(byte) }
        return (0x20 ..< 0x7F).contains(byte) || byte == 0x0D || byte == 0x0A
    }
}
