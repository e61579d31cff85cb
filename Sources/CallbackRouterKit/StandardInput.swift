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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackSystem

/// Reading what a `--…-from-stdin` option promises (a state, a verifier, a client secret,
/// a refresh token): lines within a deadline. The one stdin line reader of the CLI, over
/// `LineReader` of the system layer (a byte at a time: nothing after the lines wanted is
/// consumed; a terminal works on macOS too).
package enum StandardInput {
    /// The longest line accepted, in bytes (a CR LF not counted): the largest value the
    /// library takes from one of these lines, an ID token (`EndSessionRequest`'s
    /// `maximumIDTokenHintLength`, 8192), so that a login's ID token is never refused here
    /// for a length the request would accept. Was 4096, which refused ID tokens with many
    /// claims (groups, roles) that the library takes.
    static let maxLineBytes = 8192

    package enum LineProblem: Error, Equatable, CustomStringConvertible {
        case timedOut
        case empty
        case tooLong
        case notUTF8
        case unreadable(Int32)

        package var description: String { description(of: "state") }

        /// The problem, naming what the line should have held (`state`, `verifier`).
        package func description(of what: String) -> String {
            switch self {
            case .timedOut: return "no \(what) arrived in time"
            case .empty: return "stdin ended before a \(what) was written"
            case .tooLong: return "the \(what) line is longer than \(StandardInput.maxLineBytes) bytes"
            case .notUTF8: return "the \(what) is not valid UTF-8"
            case .unreadable(let code): return "cannot read stdin: \(SystemError("read", code: code).reason)"
            }
        }
    }

    /// Reads one line (a state, a verifier) from `fd`, waiting at most until `deadline`. The
    /// line ends at LF (an optional CR before it is dropped) or at end of input. Any valid
    /// UTF-8 is kept as written; invalid UTF-8 is refused rather than repaired, so what is
    /// compared or sent is exactly what was written. What a verifier must look like is
    /// PKCE's to say, after this.
    package static func readLine(from fd: Int32, until deadline: ContinuousClock.Instant) -> Result<String, LineProblem> {
        readLines(1, from: fd, until: deadline).map { $0[0] }
    }

    /// Reads `count` lines as ``readLine(from:until:)`` reads one, all within `deadline`:
    /// input that ends before the last one is `empty`.
    package static func readLines(_ count: Int, from fd: Int32, until deadline: ContinuousClock.Instant) -> Result<[String], LineProblem> {
        let systemDeadline = Deadline.after(milliseconds: milliseconds(until: deadline))
        var lines: [String] = []
        while lines.count < count {
            let line: LineReader.Line
            do {
                line = try LineReader.readLine(from: fd, maxBytes: maxLineBytes, until: systemDeadline)
            } catch {
                switch error.code {
                case LineReader.timedOutCode: return .failure(.timedOut)
                case LineReader.tooLongCode: return .failure(.tooLong)
                default: return .failure(.unreadable(error.code))
                }
            }
            guard !line.bytes.isEmpty else { return .failure(.empty) }
            let text = String(decoding: line.bytes, as: UTF8.self)
            // Decoding replaces bad sequences with U+FFFD: then the bytes differ.
            guard text.utf8.elementsEqual(line.bytes) else { return .failure(.notUTF8) }
            lines.append(text)
            if line.endedByEndOfInput && lines.count < count { return .failure(.empty) }
        }
        return .success(lines)
    }

    /// Milliseconds from now to `instant`, rounded up.
    static func milliseconds(until instant: ContinuousClock.Instant) -> Int64 {
        let now = ContinuousClock.now
        guard instant > now else { return 0 }
        let (seconds, attoseconds) = now.duration(to: instant).components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}

#endif
