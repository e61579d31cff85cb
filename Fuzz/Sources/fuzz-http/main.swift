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

// fuzz-http: the loopback receiver's request pipeline on its own, without sockets: the
// head scanner (all at once and one byte at a time must agree), the strict HTTP/1.x head
// parser, the form_post body plan and limit, and the decision (LoopbackFuzzing.check).
//
// Byte 0 chooses the receiver: bit 0 set is form_post (a POSTed
// application/x-www-form-urlencoded body read by the same URL parser), else query mode.
// With bit 1 set, the rest is a form body behind a well-formed form_post head, so that
// the fuzzer spends its time in the body path; otherwise the rest is a raw request.
//
// Checked on every run (a violation traps): the scanners agree; a parsed head has a token
// method, a printable origin-form target and lowercase token field names; a body over the
// limit is never read; only a request carrying the expected state on the callback path,
// by the mode's method, ends the wait; no page reflects the state or the code.
@_spi(Fuzzing) import CallbackLoopback

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let formPost = bytes[0] & 1 != 0
    var request = Array(bytes.dropFirst())
    if formPost && bytes[0] & 2 != 0 {
        let body = request
        let head =
            "POST /callback HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n\r\n"
        request = Array(head.utf8) + body
    }
    LoopbackFuzzing.check(request: request, formPost: formPost)
    return 0
}
