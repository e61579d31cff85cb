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

// fuzz-json: arbitrary bytes go to the strict JSON reader (the token endpoint's, the ID
// token's and discovery's documents stand on it), with the default limits and with tight
// ones, contiguous and not.
//
// Checked on every input (a violation traps; libFuzzer keeps the reproducer), in
// `JSONFuzzing.check`:
// - no crash, no trap, no stack overflow (nesting is bounded before recursion);
// - a refusal carries one of empty_input, invalid_character, invalid_utf8,
//   duplicate_parameter, too_long, too_many_parameters, and an offset inside the input;
// - printer/parser: a value read prints to JSON that reads back to the same value and
//   prints to the same bytes again;
// - the same bytes as a non-contiguous collection read to the same value or refusal.
@_spi(Fuzzing) import CallbackTokens
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    JSONFuzzing.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
