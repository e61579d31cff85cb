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

/// How the receiver listens and how long it waits.
struct LoopbackConfiguration: Sendable {
    var address: LoopbackAddress = .ipv4
    /// 0: a port the kernel picks (the default; RFC 8252 §7.3).
    var port: Int = 0
    /// The callback path, starting with `/`.
    var path: String = "/callback"
    /// How long to wait for a callback that ends the wait.
    var timeout: Duration = .seconds(300)
    /// How long one connection may take to send its request head and take the answer.
    var connectionTimeout: Duration = .seconds(10)
    /// How long to wait for the browser to close after the last answer, before exiting.
    var lingerTimeout: Duration = .seconds(1)
    /// The largest request head (request line and fields) accepted.
    var maxHeadBytes = 16 * 1024
    /// Connections still sending their request beyond this close the oldest of them (never
    /// the newest). Answered connections (lingering until the peer closes) do not count:
    /// they have their own bound, ``maxAnsweredConnections``.
    var maxConnections = 64
    /// Answered connections beyond this (a peer that keeps every answered socket open)
    /// close the oldest answered one.
    var maxAnsweredConnections: Int { maxConnections * 4 }
    /// `false` (the default): on Linux, a connection from a process of another user is
    /// answered 403 before its request is read. `true`: the check is off.
    var allowOtherUsers = false
    /// The uid whose connections are answered; nil: ours (`geteuid()`). Tests set another.
    var acceptedUser: UInt32?
    /// Where the browser goes (303) after an accepted callback, instead of the built-in page.
    var successURL: String?
    /// Where the browser goes (303) after a provider error or a refused callback of this login.
    var failureURL: String?
    /// `false`: the callback is a GET with a query. `true` (OIDC Form Post Response Mode):
    /// a POST with an `application/x-www-form-urlencoded` body; a GET does not end the wait.
    var formPost = false
    /// The largest form_post body accepted; larger is 413, never a partial parse.
    var maxBodyBytes = 16 * 1024
    /// A descriptor (the terminal) from which pasted callback URLs are read, one per line,
    /// and judged exactly as a request's; nil: none.
    var pasteDescriptor: Int32?
    /// What the built-in pages say about the app (its name, where the person returns).
    var pages = LoopbackPages()
    /// `false`: a start link alone (``LoopbackStartLink``): the callback path is 404 like any
    /// other, so nothing here is ever judged as a callback.
    var servesCallbacks = true
}
