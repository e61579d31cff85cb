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

import CallbackRouter
import CallbackRouterKit
import CallbackTokens
import CallbackSystem

/// The helper's HTTPS client without Foundation: the system `curl`, run without a shell.
///
/// Every secret (the body with the code, verifier, refresh token or client secret; the
/// `Authorization` header) travels on curl's standard input as its config text
/// (`--config -`), never in its argv (readable by every user in `/proc/PID/cmdline`) or its
/// environment. The argv is fixed: `-q` first (no `~/.curlrc` may turn TLS verification
/// off or add a redirect), `--proto =https` (plus `http` only when loopback http was
/// explicitly allowed, and then the URL was checked to be a loopback IP literal), TLS 1.2
/// or newer with verification on (curl's default, which no option here changes), no
/// redirect followed (no `--location`; `--max-redirs 0`), connect and total timeouts,
/// `--max-filesize`, and the response head on stdout (`--dump-header -`) before the body.
/// What is read is limited here too, whatever curl does: past ``maxResponseBytes`` of body
/// curl is killed and the answer is `too_long`.
struct CurlTransport {
    /// One request: a token request or a discovery GET.
    struct Request {
        var url: String
        var method: String = "GET"
        var headers: [(name: String, value: String)] = []
        var body: [UInt8]? = nil
    }

    /// The final response (1xx heads and a proxy's CONNECT answer skipped).
    struct Response {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        /// The first value of the header `name` (case-insensitive), or nil.
        func header(_ name: String) -> String? {
            let wanted = CurlTransport.lowercased(name)
            return headers.first { CurlTransport.lowercased($0.name) == wanted }?.value
        }
    }

    /// Why no response: a reason code (as every refusal), a detail free of secrets, and
    /// the exit code docs/cli.md's contract gives it.
    struct Failure: Error, CustomStringConvertible {
        let reason: ReasonCode
        let detail: String
        let exitCode: Int32
        var description: String { "\(reason.rawValue): \(detail)" }
    }

    /// `curl` is not on PATH or cannot be started (exit 69).
    static let transportUnavailable = ReasonCode(rawValue: "transport_unavailable")
    /// curl ran but got no HTTP response: DNS, connection, TLS verification (exit 69).
    static let transportFailed = ReasonCode(rawValue: "transport_failed")

    /// The environment curl runs with (its PATH finds curl; proxies and CA settings apply).
    var environment: [String: String]
    /// Accept `http://` (the caller checked the URL is a loopback IP literal).
    var allowLoopbackHTTP = false
    /// Seconds for the TCP and TLS handshakes.
    var connectTimeoutSeconds = 10
    /// Seconds for the whole exchange.
    var maxTimeSeconds = 30
    /// The largest body read; more is `too_long`.
    var maxResponseBytes = TokenResponse.maxBodyBytes
    /// The largest response head read.
    static let maxHeadBytes = 16 * 1024

    /// The fixed argv after the program name. No value in it comes from a request.
    var arguments: [String] {
        [
            "-q", "--config", "-", "--silent", "--show-error", "--proto", allowLoopbackHTTP ? "=http,https" : "=https",
            "--proto-redir", "=https", "--max-redirs", "0", "--tlsv1.2", "--connect-timeout", String(connectTimeoutSeconds),
            "--max-time", String(maxTimeSeconds), "--max-filesize", String(maxResponseBytes), "--dump-header", "-",
            "--suppress-connect-headers", "--no-buffer",
        ]
    }

    /// curl's config text for `request` (curl(1) "-K, --config": `name = "value"`, in the
    /// quoted value `\\`, `\"`, `\t`, `\n`, `\r` are escapes). A value with another control
    /// byte, or a body that starts with `@` (curl would read a file), is refused.
    static func config(for request: Request) throws(Failure) -> String {
        var text = "url = " + (try quoted(request.url)) + "\n"
        if request.method != "GET" { text += "request = " + (try quoted(request.method)) + "\n" }
        for header in request.headers {
            text += "header = " + (try quoted(header.name + ": " + header.value)) + "\n"
        }
        if let body = request.body {
            guard body.first != UInt8(ascii: "@") else {
                throw Failure(reason: .invalidConfiguration, detail: "a request body may not start with @", exitCode: ExitCode.usage)
            }
            text += "data-binary = " + (try quoted(String(decoding: body, as: UTF8.self))) + "\n"
        }
        return text
    }

    static func quoted(_ value: String) throws(Failure) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                throw Failure(
                    reason: .invalidCharacter, detail: "a request value holds a control character curl's config cannot carry",
                    exitCode: ExitCode.usage)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Sends `request` and returns the final response.
    func send(_ request: Request) throws(Failure) -> Response {
        let configText = try CurlTransport.config(for: request)
        guard let curl = Subprocess.find("curl", environment: environment) else {
            throw Failure(
                reason: CurlTransport.transportUnavailable,
                detail: "curl was not found on PATH; install it (Debian: apt install curl) to use the token step",
                exitCode: ExitCode.unavailable)
        }
        let exchange: Subprocess.Exchange
        do {
            exchange = try Subprocess.exchange(
                curl, arguments, environment: environment, input: Array(configText.utf8),
                outputLimit: CurlTransport.maxHeadBytes + maxResponseBytes, errorLimit: 4096,
                until: .after(milliseconds: Int64(maxTimeSeconds + 5) * 1000))
        } catch {
            let detail = error.operation == "posix_spawn" ? "\(curl) could not be started" : "no pipe for curl"
            throw Failure(reason: CurlTransport.transportUnavailable, detail: detail, exitCode: ExitCode.unavailable)
        }
        let exitStatus = exchange.status, stdout = exchange.standardOutput, stderr = exchange.standardError
        let overLimit = exchange.stop == .outputOverLimit, timedOut = exchange.stop == .timedOut

        if overLimit || exitStatus == 63 {
            throw Failure(
                reason: .tooLong, detail: "the response is longer than \(maxResponseBytes) bytes; the transfer was stopped",
                exitCode: ExitCode.rejected)
        }
        if timedOut || exitStatus == 28 {
            throw Failure(reason: .timeout, detail: "no complete response within \(maxTimeSeconds) seconds", exitCode: ExitCode.tryAgain)
        }
        guard exitStatus == 0 else { throw CurlTransport.failure(exitStatus: exitStatus, stderr: stderr) }
        guard let response = CurlTransport.response(from: stdout) else {
            throw Failure(
                reason: CurlTransport.transportFailed, detail: "curl's output holds no HTTP response head", exitCode: ExitCode.unavailable)
        }
        guard response.body.count <= maxResponseBytes else {
            throw Failure(
                reason: .tooLong, detail: "the response is longer than \(maxResponseBytes) bytes; the transfer was stopped",
                exitCode: ExitCode.rejected)
        }
        return response
    }

    /// curl's exit status as a failure: its own message (one line, which names no secret:
    /// none is in its argv or URL) after the status.
    static func failure(exitStatus: Int32, stderr: [UInt8]) -> Failure {
        let message = String(decoding: stderr.prefix { $0 != 0x0A }, as: UTF8.self)
        let shown = message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } ? message : "(not shown)"
        let reason: ReasonCode = exitStatus == 1 ? .schemeNotAllowed : CurlTransport.transportFailed
        return Failure(reason: reason, detail: "curl failed with exit status \(exitStatus): \(shown)", exitCode: ExitCode.unavailable)
    }

    /// The final response in curl's stdout: heads (each ending with an empty line), 1xx
    /// heads skipped, then the body. nil when no head is there.
    static func response(from output: [UInt8]) -> Response? {
        var rest = output[...]
        while true {
            guard rest.starts(with: Array("HTTP/".utf8)), let end = headEnd(in: rest) else { return nil }
            let head = rest[rest.startIndex ..< end.head]
            rest = rest[end.body...]
            // Bytes, not Characters: "\r\n" is one Character and would never split at "\n".
            var lines = head.split(separator: 0x0A, omittingEmptySubsequences: true).map { line in
                String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            }
            guard !lines.isEmpty else { return nil }
            let statusLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
            guard statusLine.count >= 2, statusLine[1].utf8.count == 3, let status = Int(statusLine[1]) else { return nil }
            if (100 ... 199).contains(status) { continue }
            var headers: [(name: String, value: String)] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                var value = line[line.index(after: colon)...]
                while value.first == " " || value.first == "\t" { value = value.dropFirst() }
                while value.last == " " || value.last == "\t" { value = value.dropLast() }
                headers.append((String(line[..<colon]), String(value)))
            }
            return Response(status: status, headers: headers, body: Array(rest))
        }
    }

    /// Where a head ends: the index of its blank line, and of the first byte after it.
    static func headEnd(in bytes: ArraySlice<UInt8>) -> (head: Int, body: Int)? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                let next = bytes.index(after: index)
                if next < bytes.endIndex && bytes[next] == 0x0A { return (index, next + 1) }
                if next + 1 < bytes.endIndex && bytes[next] == 0x0D && bytes[next + 1] == 0x0A { return (index, next + 2) }
            }
            index += 1
        }
        return nil
    }

    static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

#endif
