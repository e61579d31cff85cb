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

/// A sealed record, read and checked by its own byte parser (no Foundation): every byte
/// is accounted for, and anything that is not exactly what ``LoginAttempt/sealed()``
/// writes is `invalid_record` (or `too_long`), never a guess.
struct SealedRecord {
    let purpose: AttemptPurpose
    let route: RouteID
    let redirectURI: String
    let dialect: Dialect
    let issuer: String?
    let state: String
    let pkce: PKCE
    let nonce: String
    /// Nanoseconds since the Unix epoch.
    let expires: Int64
    /// Nanoseconds, > 0.
    let lifetime: Int64
    /// The Clerk magic-link flow id, when the record has the optional `flow-id` line.
    let flowID: String?

    init(parsing text: String, key: [UInt8]?) throws(CallbackError) {
        let bytes = Array(text.utf8)
        let lines = try Self.lines(of: bytes)
        try Self.checkIntegrity(bytes, lines, key: key)
        try self.init(lines: lines)
    }

    /// The record's lines, each without its LF, once its length, its version and its number
    /// of lines are those of a record this library writes.
    private static func lines(of bytes: [UInt8]) throws(CallbackError) -> [ArraySlice<UInt8>] {
        guard bytes.count <= SealedAttempt.maximumLength else {
            throw CallbackError(.tooLong, "the sealed record is \(bytes.count) bytes long; at most \(SealedAttempt.maximumLength) are read")
        }
        guard !bytes.isEmpty else { throw CallbackError(.invalidRecord, "the sealed record is empty") }

        // Lines: each ends with LF, the last one too (a record cut anywhere loses that).
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(bytes[start ..< index])
            start = index + 1
        }
        if start != bytes.count {
            throw Self.invalid("it does not end with a newline (truncated?)")
        }

        // The version comes first, so that a future version says so instead of "malformed".
        let magic = Array((SealedAttempt.magic + " ").utf8)
        guard let first = lines.first, first.starts(with: magic) else {
            throw Self.invalid("it does not start with '\(SealedAttempt.magic)': it is not a sealed attempt")
        }
        let version = first.dropFirst(magic.count)
        guard Array(version) == Array(String(SealedAttempt.version).utf8) else {
            let shown =
                version.count <= 8 && version.allSatisfy { (0x30 ... 0x39).contains($0) }
                ? String(decoding: version, as: UTF8.self) : "<\(version.count) bytes>"
            throw Self.invalid("its version is \(shown); this library reads version \(SealedAttempt.version)")
        }
        // The fixed lines and the check, and perhaps the optional flow-id line before the check.
        guard lines.count == expectedLineCount || lines.count == expectedLineCount + 1 else {
            throw Self.invalid(
                "it has \(lines.count) lines; version \(SealedAttempt.version) has \(expectedLineCount), or \(expectedLineCount + 1) with a flow id (truncated or extended)"
            )
        }
        return lines
    }

    /// The version line, the fields and the check.
    private static let expectedLineCount = 2 + SealedAttempt.fieldNames.count

    /// Integrity before meaning: the last line (a keyed HMAC, or the check without a key)
    /// covers every byte before it.
    private static func checkIntegrity(_ bytes: [UInt8], _ lines: [ArraySlice<UInt8>], key: [UInt8]?) throws(CallbackError) {
        let covered = Array(bytes[..<(bytes.count - lines[lines.count - 1].count - 1)])
        let last = lines[lines.count - 1]
        if key != nil {
            let code = try Self.value(
                of: last, named: SealedAttempt.hmacName, orInstead: SealedAttempt.checkName,
                wrongName: "it carries no HMAC, and a key was given: a keyed record was expected")
            guard let given = Base64URL.decode(code), constantTimeEquals(given, HMACSHA256.authenticationCode(for: covered, key: key ?? []))
            else {
                throw Self.invalid("its HMAC does not match: it was changed, or sealed with another key")
            }
        } else {
            let code = try Self.value(
                of: last, named: SealedAttempt.checkName, orInstead: SealedAttempt.hmacName,
                wrongName: "it is sealed with a key (HMAC); restore it with that key")
            guard let given = Base64URL.decode(code), given.count == 16,
                constantTimeEquals(given, SHA256.hash(covered).prefix(16))
            else {
                throw Self.invalid("its check does not match its content: it was changed or damaged")
            }
        }
    }

    /// The fields of lines whose integrity is checked, each decoded and checked.
    private init(lines: [ArraySlice<UInt8>]) throws(CallbackError) {
        var values: [String] = []
        for (offset, name) in SealedAttempt.fieldNames.enumerated() {
            values.append(try Self.value(of: lines[1 + offset], named: name))
        }
        guard let purpose = AttemptPurpose(rawValue: values[0]) else { throw Self.invalid("its purpose is unknown") }
        self.purpose = purpose
        route = RouteID(rawValue: try Self.decodeText(values[1], field: "route"))
        redirectURI = try Self.decodeText(values[2], field: "redirect-uri")
        guard let dialect = Dialect(rawValue: values[3]), dialect != .auto else { throw Self.invalid("its dialect is unknown") }
        self.dialect = dialect
        issuer = values[4] == "-" ? nil : try Self.decodeText(values[4], field: "issuer")
        state = try Self.decodeText(values[5], field: "state")
        let verifier = try Self.decodeText(values[6], field: "code-verifier")
        nonce = try Self.decodeText(values[7], field: "nonce")
        do {
            try AttemptSecrets.checkState(state)
            try AttemptSecrets.checkToken(nonce, name: "nonce")
            pkce = try PKCE(verifier: verifier)
        } catch {
            throw Self.invalid(error.detail)
        }
        expires = try Self.decodeInteger(values[8], field: "expires")
        lifetime = try Self.decodeInteger(values[9], field: "lifetime")
        guard lifetime > 0, lifetime <= SealedAttempt.maximumLifetime.nanosecondsSaturated else {
            throw Self.invalid("its lifetime is zero or longer than 30 days")
        }
        if lines.count == Self.expectedLineCount + 1 {
            let flowID = try Self.decodeText(
                try Self.value(of: lines[1 + SealedAttempt.fieldNames.count], named: SealedAttempt.flowIDName), field: "flow-id")
            do { try LoginAttempt.checkFlowID(flowID) } catch { throw Self.invalid("its flow id is not one: " + error.detail) }
            guard dialect == .clerk, purpose == .login else { throw Self.invalid("it has a flow id but is not a Clerk login") }
            self.flowID = flowID
        } else {
            flowID = nil
        }
    }

    private static func invalid(_ why: String) -> CallbackError {
        CallbackError(.invalidRecord, "the sealed record is not valid: " + why)
    }

    /// The value of a `name value` line; `other` names the line that may stand there
    /// instead (check or HMAC), reported as `wrongName`.
    private static func value(
        of line: ArraySlice<UInt8>, named name: String, orInstead other: String? = nil,
        wrongName: String = ""
    ) throws(CallbackError) -> String {
        let prefix = Array((name + " ").utf8)
        guard line.starts(with: prefix) else {
            if let other, line.starts(with: Array((other + " ").utf8)) { throw invalid(wrongName) }
            throw invalid("the line for '\(name)' is missing or out of order")
        }
        let value = line.dropFirst(prefix.count)
        // Every value is printable ASCII without spaces: base64url, a name, digits or '-'.
        guard value.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw invalid("the value of '\(name)' has a byte that no sealed record writes")
        }
        return String(decoding: value, as: UTF8.self)
    }

    private static func decodeText(_ value: String, field: String) throws(CallbackError) -> String {
        guard let bytes = Base64URL.decode(value) else {
            throw invalid("the value of '\(field)' is not canonical unpadded base64url")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { throw invalid("the value of '\(field)' is not UTF-8") }
        return text
    }

    /// Decimal digits, no sign, no leading zero, within Int64.
    private static func decodeInteger(_ value: String, field: String) throws(CallbackError) -> Int64 {
        let digits = Array(value.utf8)
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ (0x30 ... 0x39).contains($0) }),
            digits.count == 1 || digits[0] != 0x30
        else {
            throw invalid("the value of '\(field)' is not a whole number")
        }
        var result: Int64 = 0
        for digit in digits {
            let (times, overflow) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(digit - 0x30))
            guard !overflow, !overflow2 else { throw invalid("the value of '\(field)' is out of range") }
            result = sum
        }
        return result
    }
}
