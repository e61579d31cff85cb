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

// fuzz-store: arbitrary bytes read as the token store's document (a store file, or one
// keyring item: docs/tokens.md, "Where tokens live"), as `login`, `token` and `logout`
// read them. Checked on every input (a violation traps; libFuzzer keeps the reproducer):
// a refusal is store_corrupt or store_newer_version; what is read writes back and reads
// again to the same document; no entry's description shows its tokens.
@_spi(Fuzzing) import CallbackTokenStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    TokenStoreFuzzing.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
