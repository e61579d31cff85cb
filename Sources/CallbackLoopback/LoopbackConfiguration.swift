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

/// How the server listens and how long it waits: the receiver's configuration (what the app
/// asked for: host, path, limits, pages…), read through as if its fields were this type's,
/// and what only the server decides (one port, the wait's timeout, whether it judges callbacks).
@dynamicMemberLookup
struct LoopbackConfiguration: Sendable {
    /// What the app asked for; its timeouts already bounded (``LoopbackReceiver/bounded(_:)``).
    var receiver = LoopbackReceiver.Configuration()
    /// The one port to bind; 0: a port the kernel picks (the default; RFC 8252 §7.3).
    var port: Int = 0
    /// How long to wait for a callback that ends the wait.
    var timeout: Duration = .seconds(300)
    /// `false`: a start link alone (``LoopbackStartLink``): the callback path is 404 like any
    /// other, so nothing here is ever judged as a callback.
    var servesCallbacks = true

    subscript<Value>(dynamicMember field: WritableKeyPath<LoopbackReceiver.Configuration, Value>) -> Value {
        get { receiver[keyPath: field] }
        set { receiver[keyPath: field] = newValue }
    }

    /// `false`: the callback is a GET with a query. `true` (OIDC Form Post Response Mode):
    /// a POST with an `application/x-www-form-urlencoded` body; a GET does not end the wait.
    var formPost: Bool { receiver.responseMode.isFormPost }

    /// Answered connections beyond this (a peer that keeps every answered socket open)
    /// close the oldest answered one. Connections still sending their request are bounded
    /// apart, by ``LoopbackReceiver/Configuration/maxConnections``.
    var maxAnsweredConnections: Int { receiver.maxConnections * 4 }
}
