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

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Reading what a `--…-from-stdin` option promises: one line, within a deadline.
enum StandardInput {
    enum LineProblem: Error, Equatable, CustomStringConvertible {
        case timedOut
        case empty
        case tooLong
        case notUTF8
        case unreadable(Int32)

        var description: String { description(of: "state") }

        /// The problem, naming what the line should have held (`state`, `verifier`).
        func description(of what: String) -> String {
            switch self {
            case .timedOut: return "no \(what) arrived in time"
            case .empty: return "stdin ended before a \(what) was written"
            case .tooLong: return "the \(what) line is longer than 4096 bytes"
            case .notUTF8: return "the \(what) is not valid UTF-8"
            case .unreadable(let code): return "cannot read stdin: \(String(cString: strerror(code)))"
            }
        }
    }

    /// Reads one line (a state, a verifier) from `fd`, waiting at most until `deadline`: the
    /// one reader of every `--…-from-stdin`. The line ends at LF (an optional CR before it is
    /// dropped) or at end of input. Any valid UTF-8 is kept as written; invalid UTF-8 is
    /// refused rather than repaired, so what is compared or sent is exactly what was written.
    /// What a verifier must look like is PKCE's to say, after this.
    static func readLine(from fd: Int32, until deadline: ContinuousClock.Instant) -> Result<String, LineProblem> {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        reading: while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, pollMilliseconds(until: deadline))
            if ready < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno))
            }
            if ready == 0 { return .failure(.timedOut) }
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(.unreadable(errno))
            }
            if count == 0 { break }
            for byte in chunk[..<count] {
                if byte == 0x0A { break reading }
                line.append(byte)
            }
            if line.count > 4096 { return .failure(.tooLong) }
        }
        if line.last == 0x0D { line.removeLast() }
        guard line.count <= 4096 else { return .failure(.tooLong) }
        guard !line.isEmpty else { return .failure(.empty) }
        let text = String(decoding: line, as: UTF8.self)
        // Decoding replaces bad sequences with U+FFFD: then the bytes differ.
        guard text.utf8.elementsEqual(line) else { return .failure(.notUTF8) }
        return .success(text)
    }

    /// Milliseconds from now to `instant`, rounded up, for `poll`.
    static func pollMilliseconds(until instant: ContinuousClock.Instant) -> Int32 {
        let now = ContinuousClock.now
        guard instant > now else { return 0 }
        let (seconds, attoseconds) = now.duration(to: instant).components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }

}
