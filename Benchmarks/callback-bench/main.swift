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

// callback-bench: ours against Foundation, in the same process run, release mode.
//   swift run -c release callback-bench [--quick]
// Prints one line per row:
//   BENCH <name> ours_ns=<n> foundation_ns=<n> speedup=<x> allocs=<n> [bytes_per_s=<n>]
// Times are medians over repetitions, in nanoseconds per operation.
import CallbackRouter
import Foundation
import MallocCounter

let quick = CommandLine.arguments.contains("--quick")
let repetitions = quick ? 5 : 15
/// `--only NAME`: run just the rows whose name starts with NAME (for profiling one row).
let only: String? = CommandLine.arguments.firstIndex(of: "--only").flatMap {
    $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}
func selected(_ name: String) -> Bool { only.map { name.hasPrefix($0) } ?? true }

/// Keeps results alive so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume(_ value: Int) { sink &+= value }

func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// How many calls of `body` take about `target` nanoseconds (at least one).
func calibrate(_ target: UInt64, _ body: () -> Void) -> Int {
    body() // warm up
    var iterations = 1
    while true {
        let start = nanoseconds()
        for _ in 0 ..< iterations { body() }
        if nanoseconds() - start >= target || iterations >= 1 << 20 { return iterations }
        iterations *= 2
    }
}

/// Median ns per operation of `body`, which performs `operations` operations per call.
func measure(operations: Int, minimumNanoseconds: UInt64 = 20_000_000, _ body: () -> Void) -> Double {
    let iterations = calibrate(minimumNanoseconds / UInt64(repetitions), body)
    var samples: [Double] = []
    for _ in 0 ..< repetitions {
        let start = nanoseconds()
        for _ in 0 ..< iterations { body() }
        samples.append(Double(nanoseconds() - start) / Double(iterations * operations))
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Medians for ours and Foundation, measured in turns (ours, theirs, theirs, ours, …):
/// on a shared machine whose speed drifts, both sides see the same drift, so their ratio
/// holds even when the absolute times move.
func measurePair(
    operations: Int, minimumNanoseconds: UInt64 = 20_000_000,
    ours: () -> Void, theirs: () -> Void
) -> (ours: Double, theirs: Double) {
    let target = minimumNanoseconds / UInt64(repetitions)
    let oursIterations = calibrate(target, ours)
    let theirIterations = calibrate(target, theirs)
    func sample(_ iterations: Int, _ body: () -> Void) -> Double {
        let start = nanoseconds()
        for _ in 0 ..< iterations { body() }
        return Double(nanoseconds() - start) / Double(iterations * operations)
    }
    var oursSamples: [Double] = [], theirSamples: [Double] = []
    for repetition in 0 ..< repetitions {
        if repetition % 2 == 0 {
            oursSamples.append(sample(oursIterations, ours))
            theirSamples.append(sample(theirIterations, theirs))
        } else {
            theirSamples.append(sample(theirIterations, theirs))
            oursSamples.append(sample(oursIterations, ours))
        }
    }
    oursSamples.sort()
    theirSamples.sort()
    return (oursSamples[repetitions / 2], theirSamples[repetitions / 2])
}

/// Heap allocations per operation of `body`.
func allocations(operations: Int, _ body: () -> Void) -> Double {
    body()
    let before = malloc_counter_allocations()
    body()
    return Double(malloc_counter_allocations() - before) / Double(operations)
}

func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

func report(_ name: String, ours: Double, foundation: Double?, allocs: Double, bytes: Int? = nil, note: String = "") {
    var line = "BENCH \(name) ours_ns=\(format(ours))"
    if let foundation {
        line += " foundation_ns=\(format(foundation)) speedup=\(format(foundation / ours))x"
    } else {
        line += " foundation_ns=- speedup=-"
    }
    // Allocations are counted by interposing glibc's malloc (Benchmarks/MallocCounter): Linux only.
    line += malloc_counter_is_counting() != 0 ? " allocs=\(format(allocs))" : " allocs=unmeasured"
    if let bytes { line += " bytes_per_s=\(Int(Double(bytes) / ours * 1e9))" }
    if !note.isEmpty { line += " # \(note)" }
    print(line)
}

// MARK: The operations

/// Ours: the parse (every component checked and located) and every decoded query
/// parameter, as UTF-8 bytes (`forEachQueryParameterUTF8`: no copy of what needs no
/// decoding, a stack buffer for what does). Like the Foundation side, it consumes the lengths of the
/// decoded names and values: the decoding happens inside the library (not inlinable
/// here), so the optimizer cannot skip it.
@inline(never)
func oursParse(_ inputs: [String]) {
    for input in inputs {
        guard let url = try? CallbackURL(parsing: input) else { consume(1); continue }
        var total = 0
        url.forEachQueryParameterUTF8 { name, value in total &+= name.count &+ value.count }
        consume(total)
    }
}

/// As `oursParse`, and the path read too (`pathSlice`, no copy).
@inline(never)
func oursParseWithPath(_ inputs: [String]) {
    for input in inputs {
        guard let url = try? CallbackURL(parsing: input) else { consume(1); continue }
        var total = url.pathSlice.utf8.count
        url.forEachQueryParameterUTF8 { name, value in total &+= name.count &+ value.count }
        consume(total)
    }
}

/// Ours, materializing every name and value as a `String` (what `Parameter` gives).
@inline(never)
func oursParseStrings(_ inputs: [String]) {
    for input in inputs {
        guard let url = try? CallbackURL(parsing: input) else { consume(1); continue }
        var total = 0
        for parameter in url.queryParameters { total &+= parameter.name.utf8.count &+ parameter.value.utf8.count }
        consume(total)
    }
}

/// Ours, validation only: is it well-formed, what are its components (no decoding).
@inline(never)
func oursValidate(_ inputs: [String]) {
    for input in inputs {
        guard let url = try? CallbackURL(parsing: input) else { consume(1); continue }
        consume(url.queryParameters.count)
    }
}

/// Foundation: URLComponents(string:) + queryItems, the usual way (the baseline).
@inline(never)
func foundationParse(_ inputs: [String]) {
    for input in inputs {
        guard let components = URLComponents(string: input) else { consume(1); continue }
        var total = 0
        for item in components.queryItems ?? [] { total &+= item.name.utf8.count &+ (item.value?.utf8.count ?? 0) }
        consume(total)
    }
}

/// As `foundationParse`, and the path read too (`components.path`).
@inline(never)
func foundationParseWithPath(_ inputs: [String]) {
    for input in inputs {
        guard let components = URLComponents(string: input) else { consume(1); continue }
        var total = components.path.utf8.count
        for item in components.queryItems ?? [] { total &+= item.name.utf8.count &+ (item.value?.utf8.count ?? 0) }
        consume(total)
    }
}

// MARK: Rows

/// One row: `ours` against `theirs` on `inputs`, in turns; bytes per second when asked.
func parseRow(
    _ name: String, _ inputs: [String], ours: ([String]) -> Void = oursParse,
    theirs: ([String]) -> Void = foundationParse, bytesPerSecond: Bool = true, note: String = ""
) {
    guard selected(name) else { return }
    let bytes = inputs.reduce(0) { $0 + $1.utf8.count }
    let (oursNs, theirNs) = measurePair(operations: inputs.count, ours: { ours(inputs) }, theirs: { theirs(inputs) })
    let allocs = allocations(operations: inputs.count) { ours(inputs) }
    report(
        name, ours: oursNs, foundation: theirNs, allocs: allocs, bytes: bytesPerSecond ? bytes / inputs.count : nil,
        note: note)
}

/// `--profile N [--url URL | --realistic | --long] [--foundation | --strings | --classify [--dialect D] | --route | --route-begin]`: parse
/// the typical callback (or URL, or the realistic set) N times and exit, for callgrind
/// (instructions per parse = total / N after subtracting a `--profile 0` run). The modes:
/// Foundation's side, ours making `String`s (`parse_strings`), the whole `parse` command.
/// `--long`: the captured long redirects (LongRows.swift), ours or `--foundation`; `--only K`:
/// the K-th of them alone; `--parse-only`: ours without decoding.
if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count,
    let count = Int(CommandLine.arguments[index + 1])
{
    let url = CommandLine.arguments.firstIndex(of: "--url").flatMap {
        $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
    }
    let long = CommandLine.arguments.contains("--long")
    let only = CommandLine.arguments.firstIndex(of: "--only").flatMap {
        $0 + 1 < CommandLine.arguments.count ? Int(CommandLine.arguments[$0 + 1]) : nil
    }
    if let only, !Corpus.long.indices.contains(only) {
        print("callback-bench: --only takes 0 to \(Corpus.long.count - 1)")
        exit(64)
    }
    let inputs =
        long
        ? (only.map { [Corpus.long[$0]] } ?? Corpus.long)
        : CommandLine.arguments.contains("--realistic") ? Corpus.realistic : [url ?? Corpus.typical]
    if CommandLine.arguments.contains("--route") || CommandLine.arguments.contains("--route-begin") {
        // `router.handle(url)` with the attempt pending: each operation begins an attempt and
        // makes its callback URL (`--route-begin` stops there), then handles it (`--route`).
        // instructions.sh subtracts the first from the second.
        var builder = RouterBuilder()
        builder.add(Route("app", redirectURI: try! RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
        let router = try! builder.build(maxPendingAttempts: count + 10)
        let handle = CommandLine.arguments.contains("--route")
        for _ in 0 ..< count {
            let attempt = try! router.beginLogin(on: "app")
            let url = "com.example.app:/oauth2redirect?code=c0de&state=" + attempt.state
            if handle { consume((try? router.handle(url)) == nil ? 0 : 1) } else { consume(url.utf8.count) }
        }
    } else if CommandLine.arguments.contains("--classify") {
        // `--dialect NAME`: that dialect's typical callback (DialectRows.swift) classified as
        // its row does, without reading a field; without it, the oauth2 callback and `code`.
        if let name = CommandLine.arguments.firstIndex(of: "--dialect").flatMap({
            $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
        }) {
            guard let test = BenchDialects.cases.first(where: { $0.name == name }) else {
                print("callback-bench: no dialect row '\(name)'")
                exit(64)
            }
            for _ in 0 ..< count { BenchDialects.classifyOnce(test) }
        } else {
            let input = Corpus.typical, redirect = BenchRouter.redirect, expectations = BenchRouter.expectations
            for _ in 0 ..< count { BenchRouter.classifyOnce(input, redirect, expectations) }
        }
    } else if CommandLine.arguments.contains("--strings") {
        for _ in 0 ..< count { oursParseStrings(inputs) }
    } else if CommandLine.arguments.contains("--foundation") {
        for _ in 0 ..< count { long ? foundationParseLong(inputs) : foundationParse(inputs) }
    } else if long && CommandLine.arguments.contains("--parse-only") {
        for _ in 0 ..< count { oursParseLongOnly(inputs) }
    } else if long {
        for _ in 0 ..< count { oursParseLong(inputs) }
    } else {
        for _ in 0 ..< count { oursParse(inputs) }
    }
    exit(0)
}

/// `--dialect-url NAME`: the URL of a dialect's classify row (for instructions.sh).
if let index = CommandLine.arguments.firstIndex(of: "--dialect-url"), index + 1 < CommandLine.arguments.count {
    guard let test = BenchDialects.cases.first(where: { $0.name == CommandLine.arguments[index + 1] }) else { exit(64) }
    print(test.url)
    exit(0)
}

/// `--realistic-count`: how many callbacks the realistic set holds (for instructions.sh).
if CommandLine.arguments.contains("--realistic-count") {
    print(Corpus.realistic.count)
    exit(0)
}

/// `--long-size`: how many long redirects there are, and their bytes in all (for instructions.sh).
if CommandLine.arguments.contains("--long-size") {
    print(Corpus.long.count, Corpus.long.reduce(0) { $0 + $1.utf8.count })
    exit(0)
}

print("# callback-bench: \(repetitions) repetitions, medians, ns per URL")
parseRow("parse", Corpus.realistic, note: "\(Corpus.realistic.count) realistic callbacks, components + decoded parameters")
// The same callbacks as strings made at run time, as an app receives them (a literal is
// immortal: its reference counting costs nothing; a heap string's is atomic).
parseRow(
    "parse_runtime_strings", Corpus.realistic.map { String(decoding: Array($0.utf8), as: UTF8.self) },
    note: "as parse, the strings made at run time (heap, reference-counted)")
parseRow("parse_typical_120B", [Corpus.typical], note: "\(Corpus.typical.utf8.count)-byte OAuth callback")
parseRow(
    "parse_long", Corpus.long, ours: oursParseLong, theirs: foundationParseLong,
    note:
        "\(Corpus.long.count) long real-server redirects (hybrid-flow ID tokens, long states), \(Corpus.long.reduce(0) { $0 + $1.utf8.count } / Corpus.long.count) bytes each on average"
)
parseRow(
    "parse_with_path", Corpus.realistic, ours: oursParseWithPath, theirs: foundationParseWithPath,
    bytesPerSecond: false, note: "as parse, and the path read: pathSlice against components.path")
parseRow(
    "parse_strings", Corpus.realistic, ours: oursParseStrings, bytesPerSecond: false,
    note: "as parse, every name and value copied into a String")
if CommandLine.arguments.contains("--allocations-per-url") {
    for input in Corpus.realistic + Corpus.hostile {
        let one = [input]
        let validation = allocations(operations: 1) { oursValidate(one) }
        let decoding = allocations(operations: 1) { oursParse(one) }
        if validation > 0 || decoding > 0 {
            print("ALLOCS validate=\(format(validation)) parse=\(format(decoding)) \(input.prefix(100))")
        }
    }
    exit(0)
}
if CommandLine.arguments.contains("--per-url") {
    // Each realistic callback on its own: where the mix's time goes.
    for input in Corpus.realistic {
        let one = [input]
        let (ours, theirs) = measurePair(
            operations: 1, minimumNanoseconds: 5_000_000, ours: { oursParse(one) },
            theirs: { foundationParse(one) })
        print(
            "URL ours_ns=\(format(ours)) foundation_ns=\(format(theirs)) speedup=\(format(theirs / ours))x bytes=\(input.utf8.count) \(input.prefix(70))"
        )
    }
    exit(0)
}
if selected("validate_only") {
    let inputs = Corpus.realistic
    let (ours, theirs) = measurePair(
        operations: inputs.count, ours: { oursValidate(inputs) },
        theirs: {
            for input in inputs { consume(URLComponents(string: input) == nil ? 0 : 1) }
        })
    let allocs = allocations(operations: inputs.count) { oursValidate(inputs) }
    report("validate_only", ours: ours, foundation: theirs, allocs: allocs, note: "parse without decoding values")
}
parseRow("parse_hostile", Corpus.hostile, note: "\(Corpus.hostile.count) hostile inputs, most refused")
for size in [1024, 4096, 16 * 1024 - 64] {
    parseRow("parse_\(size / 1024)KiB", [Corpus.sized(size)], note: "\(Corpus.sized(size).utf8.count) bytes")
}
for count in [1, 8, 32, 64] {
    parseRow("parse_\(count)_parameters", [Corpus.withParameters(count)])
}
BenchRouter.run()
BenchDialects.run()
