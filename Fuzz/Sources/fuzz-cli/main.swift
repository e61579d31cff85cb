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

// fuzz-cli: `callback-router parse` and `inspect`, in process (CallbackRouterTool.run with
// CapturedOutput), over fuzzed argument lists and fuzzed callback URLs.
//
// Three shapes of input (byte 0 chooses):
// - raw: the rest split at NUL bytes into arguments after `parse` or `inspect`, or (bit
//   0x40) into arguments whose first stands in the command position, or (bit 0x20, without
//   0x40) into arguments after `login --device`, run where no curl can be found (PATH names
//   no directory) and stdin is /dev/null, so every run ends before any request or wait;
// - structured: a URL built from the fuzz bytes (a redirect URI from a table, then
//   name=value pairs whose values are fuzz bytes, percent-encoded), and options from
//   tables (dialect, policy, response mode, --redirect-uri, --state and --issuer taken
//   from the URL or a table, --require-issuer, limits). Bytes after the pairs may put a
//   fuzzed word or callback URL in the command position, fuzzed --dialect / --policy /
//   --response-mode values, or an unknown option.
//
// Checked on every run (a violation traps; libFuzzer keeps the reproducer):
// - the exit code is one the command documents (0, 1, 64, 65) and says the same as the
//   output: stdout is empty (usage error: a message on stderr) or exactly one line holding
//   one well-formed JSON object; a rejection (`"outcome":"rejected"`) has a reason from
//   `ReasonCode.allCases` and exits 65 (64 for `invalid_configuration`); `inspect` exits 0
//   exactly when `CallbackURL(parsing:)` accepts the URL, `parse` agrees with
//   `CallbackValidator` on outcome or reason;
// - secrets stay out of stderr and out of rejection details: the structured run is
//   repeated with every value (and the expected state and issuer) replaced by another of
//   the same length and byte class, written with the same number of bytes; whenever both
//   runs exit alike, their stderr is identical, and so is a rejection's JSON. Fuzzed
//   words in the command position, fuzzed option values and unknown options are blinded
//   too, unless they are names the tool knows;
// - `login --device` ends 64 (a usage error: nothing on stdout, a message on stderr) or with
//   one rejection object whose reason is known: 69 `transport_unavailable` (no curl), 64
//   `invalid_configuration` (an issuer or endpoint refused before any request); never a
//   wait, never a trap, whatever the options (a code flow's option is a usage error);
// - a first argument that is not a command word exits 64 with nothing on stdout, and its
//   stderr is the same as for its blind twin, unless one of them is a typo of a command
//   word ("did you mean refresh?"; found by this fuzzer: `\xDAqefresh`).
import CallbackRouterCLI
import CallbackRouter
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

/// Whether `word` or its blind twin is a typo of one of `names`: the error then names the
/// name meant ("did you mean …?"), so the two errors may differ by design.
func isTypo(_ word: [UInt8], of names: [String]) -> Bool {
    CallbackRouterTool.isTypo(String(decoding: word, as: UTF8.self), ofOneOf: names)
        || CallbackRouterTool.isTypo(String(decoding: word.map(blind), as: UTF8.self), ofOneOf: names)
}

let context = { (output: CapturedOutput) in
    CommandContext(output: output, environment: ["PATH": "/usr/bin:/bin"], executablePath: "/usr/local/bin/callback-router")
}

struct Run {
    let exit: Int32
    let stdout: String
    let stderr: String
}

func run(_ arguments: [String]) -> Run {
    let output = CapturedOutput()
    let exit = CallbackRouterTool.run(arguments, context: context(output))
    return Run(exit: exit, stdout: output.stdout, stderr: output.stderr)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if bytes[0] & 0x80 != 0 {
        rawArguments(bytes)
    } else {
        structured(bytes)
    }
    return 0
}

// MARK: Raw arguments

func rawArguments(_ bytes: [UInt8]) {
    if bytes[0] & 0x40 != 0 { return commandPosition(bytes) }
    if bytes[0] & 0x20 != 0 { return deviceLogin(bytes) }
    let command = bytes[0] & 1 == 0 ? "parse" : "inspect"
    let arguments = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let result = run([command] + arguments)
    checkContract(result, command: command)
    // A lone URL argument (no option, not `-`-led): the command must agree with the library.
    if arguments.count == 1, let only = arguments.first, !only.hasPrefix("-") {
        checkAgreement(result, command: command, url: only, validator: try? CallbackValidator())
    }
}

/// Arguments whose first stands where the command should. A command word runs that
/// command (skipped: `loopback` would bind and wait); any other word is refused with 64,
/// an empty stdout and a stderr that does not depend on the word's bytes.
func commandPosition(_ bytes: [UInt8]) {
    let parts = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
    guard let first = parts.first else { return }
    let word = String(decoding: first, as: UTF8.self)
    guard !CallbackRouterTool.commandWords.contains(word) else { return }
    let rest = parts.dropFirst().map { String(decoding: $0, as: UTF8.self) }
    let result = run([word] + rest)
    check(result.exit == 64 && result.stdout.isEmpty, "an unknown command exited \(result.exit): \(result.stdout)")
    check(!result.stderr.isEmpty, "an unknown command without a message")
    // A typo of a command word (or its twin that is one) is told the command meant, by
    // design (issue 27): only the other words must leave stderr independent of their bytes.
    guard !isTypo(first, of: CallbackRouterTool.commandWords) else { return }
    let twin = run([String(decoding: first.map(blind), as: UTF8.self)] + rest)
    check(twin.stderr == result.stderr, "stderr depends on the command position:\n\(result.stderr)\n\(twin.stderr)")
}

// MARK: login --device, before the network

/// Where stdin reads for `login --device`: nothing (`--client-secret-from-stdin` gets an
/// empty input at once instead of waiting on the fuzzer's own stdin).
let emptyInput = open("/dev/null", O_RDONLY)

/// `login --device` with fuzzed arguments, in a PATH without curl: usage errors and the
/// refusals made before any request, each in the command's contract.
func deviceLogin(_ bytes: [UInt8]) {
    let arguments = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let output = CapturedOutput()
    let context = CommandContext(
        output: output, environment: ["PATH": "/nonexistent/callback-router-fuzz", "HOME": "/nonexistent/callback-router-fuzz"],
        executablePath: "/usr/local/bin/callback-router", standardInput: emptyInput)
    let exit = CallbackRouterTool.run(["login", "--device"] + arguments, context: context)
    let (stdout, stderr) = (output.stdout, output.stderr)
    if stdout.hasPrefix("OVERVIEW:") { return check(exit == 0, "login --device --help exited \(exit)") }
    if stdout.isEmpty {
        check(exit == 64, "login --device exited \(exit) with nothing on stdout: \(stderr)")
        check(!stderr.isEmpty, "a usage error of login --device without a message")
        return
    }
    check(stdout.hasSuffix("\n") && stdout.utf8.filter { $0 == 0x0A }.count == 1, "login --device: stdout is not one line")
    var json = JSONChecker(Array(stdout.utf8.dropLast()))
    check(json.isOneObject(), "login --device: stdout is not one JSON object: \(stdout)")
    guard let reason = rejectionReason(stdout) else { return check(false, "login --device printed \(stdout)") }
    // transport_unavailable is the helper's own code (curl missing), beside the library's.
    let code = ReasonCode(rawValue: reason)
    let expected: [ReasonCode: Int32] = [ReasonCode(rawValue: "transport_unavailable"): 69, .invalidConfiguration: 64]
    check(expected[code] == exit, "login --device: \(code) exited \(exit): \(stdout)")
    check(!stderr.isEmpty, "login --device refused without a line on stderr")
}

// MARK: The contract every run keeps

func checkContract(_ result: Run, command: String) {
    check([0, 1, 64, 65].contains(result.exit), "\(command) exited \(result.exit)")
    if result.stdout.isEmpty {
        check(result.exit == 64 || result.exit == 0, "\(command) exited \(result.exit) with nothing on stdout")
        check(!result.stderr.isEmpty || result.exit == 0, "a usage error without a message")
        return
    }
    if result.stdout.hasPrefix("OVERVIEW:") { check(result.exit == 0, "help exited \(result.exit)"); return }
    check(
        result.stdout.hasSuffix("\n") && result.stdout.utf8.filter { $0 == 0x0A }.count == 1,
        "stdout is not exactly one line")
    var json = JSONChecker(Array(result.stdout.utf8.dropLast()))
    check(json.isOneObject(), "stdout is not one JSON object: \(result.stdout)")
    if let reason = rejectionReason(result.stdout) {
        let code = ReasonCode(rawValue: reason)
        check(ReasonCode.allCases.contains(code), "unknown reason \(code)")
        check(result.exit == (code == .invalidConfiguration ? 64 : 65), "rejection \(code) exited \(result.exit)")
    } else if command == "parse" {
        check(result.stdout.hasPrefix("{\"outcome\":\"") && (result.exit == 0 || result.exit == 1), "parse printed \(result.stdout)")
        let isFailure =
            result.stdout.hasPrefix("{\"outcome\":\"authorization_error\"") || result.stdout.hasPrefix("{\"outcome\":\"login_failure\"")
            || result.stdout.hasPrefix("{\"outcome\":\"clerk_failure\"")
        check(isFailure == (result.exit == 1), "a provider failure must exit 1, and only it")
    } else {
        check(result.stdout.hasPrefix("{\"scheme\":\"") && result.exit == 0, "inspect printed \(result.stdout)")
    }
}

/// The reason of a rejection object (`{"outcome":"rejected","reason":"…",…}`), or nil.
func rejectionReason(_ stdout: String) -> String? {
    let prefix = "{\"outcome\":\"rejected\",\"reason\":\""
    guard stdout.hasPrefix(prefix) else { return nil }
    return String(decoding: stdout.utf8.dropFirst(prefix.utf8.count).prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
}

func checkAgreement(_ result: Run, command: String, url: String, validator: CallbackValidator?) {
    if command == "inspect" {
        let parses = (try? CallbackURL(parsing: url)) != nil
        check(parses == (result.exit == 0), "inspect exit \(result.exit), the parser says \(parses)")
        return
    }
    guard let validator else { return }
    switch Result(catching: { () throws(CallbackError) in try validator.validate(url) }) {
    case .success(let outcome):
        check(result.stdout.hasPrefix("{\"outcome\":\"\(outcome.kind.rawValue)\""), "parse and the validator disagree on the outcome")
    case .failure(let error):
        check(
            result.stdout.hasPrefix("{\"outcome\":\"rejected\",\"reason\":\"\(error.reason.rawValue)\""),
            "parse and the validator disagree: \(error.reason) vs \(result.stdout)")
    }
}

extension Result where Failure == CallbackError {
    init(catching body: () throws(CallbackError) -> Success) {
        do { self = .success(try body()) } catch { self = .failure(error) }
    }
}

// MARK: Structured runs and their value-blind twins

let bases = [
    "com.example.app:/oauth2redirect", "myapp://oauth-callback", "http://127.0.0.1:49152/callback",
    "http://[::1]/cb", "https://app.example.com/cb?tenant=acme", "com.example.app://example.us.auth0.com/ios/com.example.app/callback",
    "http://localhost:8080/cb", "com.example.zephr://login",
]
let names = [
    "code", "state", "iss", "error", "error_description", "error_uri", "challenge_token", "status", "session_id",
    "tracking_id", "state_key", "identifier", "message", "rotating_token_nonce", "created_session_id", "action",
    "access_token", "tenant", "x", "",
]
let redirectChoices = [
    "com.example.app:/oauth2redirect", "myapp://oauth-callback", "http://127.0.0.1/callback", "https://app.example.com/cb?tenant=acme",
    "javascript:alert(1)", "http://evil.example/cb", "com.example.app:/oauth2redirect#frag", "http://localhost/cb",
]
let dialects = ["auto", "oauth2", "prelude", "ory", "zephr", "clerk", "bogus"]

/// Same length, same byte class for every rule, different wherever a visible ASCII character is.
func blind(_ byte: UInt8) -> UInt8 { blindByte(byte) }

/// Letters and digits raw, every other byte `%XX`: the written length depends only on
/// which bytes are alphanumeric, so a value and its blind twin take the same room.
func encode(_ value: [UInt8], like original: [UInt8]) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for (byte, model) in zip(value, original) {
        let isAlnum = (model >= 0x30 && model <= 0x39) || ((model | 0x20) >= 0x61 && (model | 0x20) <= 0x7A)
        if isAlnum { out.append(byte) } else { out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] }
    }
    return String(decoding: out, as: UTF8.self)
}

struct Plan {
    var command = "parse"
    var base = ""
    var pairs: [(name: String, value: [UInt8])] = []
    var inFragment = false
    var options: [String] = []
    var stateChoice: UInt8 = 0
    var issuerChoice: UInt8 = 0
    /// Fuzzed words, each blinded in the twin unless `keep` says it is a known name.
    var commandWord: Fuzzed?
    var optionValues: [(option: String, value: Fuzzed)] = []
    var unknownOption: Fuzzed?

    struct Fuzzed {
        let bytes: [UInt8]
        let keep: Bool
        func text(blinded: Bool) -> String {
            String(decoding: blinded && !keep ? bytes.map(blind) : bytes, as: UTF8.self)
        }
    }

    func arguments(blinded: Bool) -> [String] {
        let encoded = pairs.map { pair -> String in
            let kept = pair.name == "status" || pair.name == "error" || !blinded
            let value = kept ? pair.value : pair.value.map(blind)
            return pair.name + "=" + encode(value, like: pair.value)
        }.joined(separator: "&")
        let url = base + (inFragment ? "#" : (base.contains("?") ? "&" : "?")) + encoded
        var arguments = [commandWord?.text(blinded: blinded) ?? command] + options
        for (option, value) in optionValues { arguments += ["--" + option, value.text(blinded: blinded)] }
        if let unknownOption { arguments.append("--x-" + unknownOption.text(blinded: blinded)) }
        if command == "parse" {
            if let state = expected("state", choice: stateChoice, table: ["af0ifjsldkj", "xyz"], blinded: blinded) {
                arguments += ["--state", state]
            }
            if let issuer = expected("iss", choice: issuerChoice, table: ["https://issuer.example"], blinded: blinded) {
                arguments += ["--issuer=" + issuer]
            }
        }
        return arguments + ["--", url]
    }

    /// The URL's own value of `name` (so that state and issuer can match), or a table entry.
    func expected(_ name: String, choice: UInt8, table: [String], blinded: Bool) -> String? {
        switch choice % 4 {
        case 0: return nil
        case 1:
            guard let value = pairs.first(where: { $0.name == name })?.value, !value.isEmpty,
                let text = String(validating: blinded ? value.map(blind) : value, as: UTF8.self)
            else { return nil }
            return text
        default:
            let text = table[Int(choice) % table.count]
            return blinded ? String(decoding: text.utf8.map(blind), as: UTF8.self) : text
        }
    }
}

func structured(_ bytes: [UInt8]) {
    var reader = Reader(bytes: bytes, from: 1) // byte 0 chose the mode
    var plan = Plan()
    plan.command = bytes[0] & 0x40 == 0 ? "parse" : "inspect"
    plan.base = bases[Int(reader.next()) % bases.count]
    let flags = reader.next()
    plan.inFragment = flags & 0x01 != 0
    if plan.command == "parse" {
        plan.options += ["--dialect", dialects[Int(reader.next()) % dialects.count]]
        if flags & 0x02 != 0 { plan.options += ["--policy", flags & 0x04 != 0 ? "custom-scheme-only" : "native"] }
        if flags & 0x08 != 0 { plan.options += ["--response-mode", plan.inFragment ? "fragment" : "query"] }
        if flags & 0x10 != 0 { plan.options.append("--require-issuer") }
        if flags & 0x20 != 0 { plan.options += ["--redirect-uri", redirectChoices[Int(reader.next()) % redirectChoices.count]] }
        if flags & 0x40 != 0 { plan.options.append("--allow-localhost") }
        plan.stateChoice = reader.next()
        plan.issuerChoice = reader.next()
    }
    if flags & 0x80 != 0 { plan.options += ["--max-value-length", String(reader.next())] }
    let count = Int(reader.next() % 8)
    for _ in 0 ..< count {
        let name = names[Int(reader.next()) % names.count]
        plan.pairs.append((name, reader.take(Int(reader.next() % 48))))
    }

    // After the pairs, so that older seeds keep their meaning (past the end, zeros: none).
    let extras = reader.next()
    if extras & 0x03 == 1 || extras & 0x03 == 2 {
        // A fuzzed word, or a callback URL with a fuzzed code, where the command should be.
        let fuzzed = reader.take(Int(reader.next() % 32))
        let word = extras & 0x03 == 1 ? fuzzed : Array((plan.base + "?code=").utf8) + fuzzed
        let known =
            CallbackRouterTool.commandWords.contains(String(decoding: word, as: UTF8.self))
            || isTypo(word, of: CallbackRouterTool.commandWords.filter { !$0.hasPrefix("-") })
        if !known { plan.commandWord = Plan.Fuzzed(bytes: word, keep: false) }
    }
    if plan.command == "parse" && extras & 0x04 != 0 {
        let option = ["dialect", "policy", "response-mode"][Int(reader.next()) % 3]
        let value = reader.take(Int(reader.next() % 24))
        let names = dialects + ["native", "custom-scheme-only", "query", "fragment"]
        let known = names.contains(String(decoding: value, as: UTF8.self)) || isTypo(value, of: names)
        plan.optionValues.append((option, Plan.Fuzzed(bytes: value, keep: known)))
        // The fuzzed value replaces the table's, which would make it "given more than once".
        if let index = plan.options.firstIndex(of: "--" + option) { plan.options.removeSubrange(index ... index + 1) }
    }
    if extras & 0x08 != 0 {
        let option = reader.take(Int(reader.next() % 24))
        // "--x-state" is a typo of --state: its error names both, unlike its blind twin's.
        let names = CallbackRouterTool.optionNames(of: plan.command)
        let typo =
            isTypo(Array("x-".utf8) + option, of: names)
            || isTypo(Array("x-".utf8) + option.prefix { $0 != UInt8(ascii: "=") }, of: names)
            || isTypo(Array("x-".utf8) + option.map(blind).prefix { $0 != UInt8(ascii: "=") }, of: names)
        plan.unknownOption = Plan.Fuzzed(bytes: option, keep: typo)
    }

    let original = run(plan.arguments(blinded: false))
    checkContract(original, command: plan.command)
    let twin = run(plan.arguments(blinded: true))
    checkContract(twin, command: plan.command)
    guard original.exit == twin.exit else { return }
    // An issuer_mismatch's detail names both issuers (public, RFC 9207), and so does the human
    // line on stderr that says what the server said: blinding changes both, by design.
    let bothIssuerMismatches = rejectionReason(original.stdout) == "issuer_mismatch" && rejectionReason(twin.stdout) == "issuer_mismatch"
    if !bothIssuerMismatches {
        check(original.stderr == twin.stderr, "stderr depends on parameter values:\n\(original.stderr)\n\(twin.stderr)")
    }
    if let reason = rejectionReason(original.stdout), reason == rejectionReason(twin.stdout), reason != "issuer_mismatch" {
        check(original.stdout == twin.stdout, "a rejection depends on parameter values:\n\(original.stdout)\(twin.stdout)")
    }
}

// MARK: A strict JSON well-formedness check (RFC 8259), enough for one object

struct JSONChecker {
    let bytes: [UInt8]
    var i = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func isOneObject() -> Bool {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{"), value() else { return false }
        return i == bytes.count
    }

    mutating func eat(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    mutating func literal(_ text: String) -> Bool { text.utf8.allSatisfy { eat($0) } }

    mutating func value() -> Bool {
        guard i < bytes.count else { return false }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            if eat(UInt8(ascii: "}")) { return true }
            repeat {
                guard string(), eat(UInt8(ascii: ":")), value() else { return false }
            } while eat(UInt8(ascii: ","))
            return eat(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            i += 1
            if eat(UInt8(ascii: "]")) { return true }
            repeat { guard value() else { return false } } while eat(UInt8(ascii: ","))
            return eat(UInt8(ascii: "]"))
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            let start = i
            _ = eat(UInt8(ascii: "-"))
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i > start && bytes[start ..< i] != [UInt8(ascii: "-")]
        }
    }

    mutating func string() -> Bool {
        guard eat(UInt8(ascii: "\"")) else { return false }
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case 0x00 ... 0x1F: return false
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { return false }
                let escape = bytes[i]
                i += 1
                if escape == UInt8(ascii: "u") {
                    guard i + 4 <= bytes.count,
                        bytes[i ..< i + 4].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) })
                    else { return false }
                    i += 4
                } else if !"\"\\/bfnrt".utf8.contains(escape) {
                    return false
                }
            default: continue
            }
        }
        return false
    }
}
