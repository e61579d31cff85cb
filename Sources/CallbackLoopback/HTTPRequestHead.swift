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

/// The head of one HTTP/1.x request (RFC 9112 §2–5), parsed strictly from bytes.
///
/// Strict means: CRLF line ends only (a bare LF is refused, not guessed at), no line
/// folding, no whitespace between a field name and its colon, no control characters in
/// values, the target in origin-form (`/path?query`) or `*`, and HTTP/1.0 or 1.1. Anything
/// else is a 400 (or 505 for another version): the receiver only has to understand browsers.
struct HTTPRequestHead: Sendable {
    var method: String
    /// The request target exactly as sent (`/callback?code=…`); printable ASCII only.
    var target: String
    /// `1` for HTTP/1.1, `0` for HTTP/1.0.
    var minorVersion: Int
    /// Field names lowercased, values without surrounding whitespace, in order.
    var fields: [(name: String, value: String)]

    /// Every value of the field `name` (lowercase).
    func values(of name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// The target's path: everything before the first `?`.
    var path: Substring { target[..<(target.firstIndex(of: "?") ?? target.endIndex)] }

    static let maxFields = 100

    /// Parses a complete head: the bytes up to and including the blank line's CRLF.
    static func parse(_ head: ArraySlice<UInt8>) -> Result<HTTPRequestHead, HTTPStatus> {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 0x0A {
                guard index > start, head[index - 1] == 0x0D else { return .failure(.badRequest) }
                lines.append(head[start ..< index - 1])
                start = index + 1
            }
            index += 1
        }
        // The last line is the empty one that ends the head.
        guard start == head.endIndex, let last = lines.last, last.isEmpty, lines.count >= 2 else {
            return .failure(.badRequest)
        }
        guard lines.count - 2 <= maxFields else { return .failure(.headersTooLarge) }

        let requestLine: (String, String, Int)
        switch parseRequestLine(lines[0]) {
        case .success(let parsed): requestLine = parsed
        case .failure(let status): return .failure(status)
        }
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(lines.count - 2)
        for line in lines[1 ..< lines.count - 1] {
            guard let field = parseField(line) else { return .failure(.badRequest) }
            fields.append(field)
        }
        return .success(HTTPRequestHead(method: requestLine.0, target: requestLine.1, minorVersion: requestLine.2, fields: fields))
    }

    /// `method SP request-target SP HTTP-version`, single spaces, nothing else.
    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<(String, String, Int), HTTPStatus> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.badRequest) }
        let method = parts[0], target = parts[1], version = parts[2]
        guard !method.isEmpty, method.allSatisfy(isTokenByte) else { return .failure(.badRequest) }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(.badRequest) }
        guard target.first == UInt8(ascii: "/") || (target.count == 1 && target.first == UInt8(ascii: "*")) else {
            // Absolute-form is for proxies, authority-form for CONNECT: no browser sends
            // either to an origin server, and accepting them would mean a second Host.
            return .failure(.badRequest)
        }
        let versionText = Array(version)
        guard versionText.count == 8, versionText.starts(with: Array("HTTP/".utf8)), versionText[6] == UInt8(ascii: "."),
            isDigit(versionText[5]), isDigit(versionText[7])
        else {
            return .failure(.badRequest)
        }
        guard versionText[5] == UInt8(ascii: "1"), versionText[7] == UInt8(ascii: "0") || versionText[7] == UInt8(ascii: "1") else {
            return .failure(.versionNotSupported)
        }
        return .success(
            (
                String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self),
                Int(versionText[7] - UInt8(ascii: "0"))
            ))
    }

    /// `field-name ":" OWS field-value OWS`; obs-fold (a line starting with space) refused.
    private static func parseField(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = line[line.startIndex ..< colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return nil }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value.removeFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value.removeLast() }
        guard value.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        let lowered = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return (String(decoding: lowered, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// RFC 9110 §5.6.2 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
