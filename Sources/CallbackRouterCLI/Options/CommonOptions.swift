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

/// Options that several commands take and that shared readers read (``CallbackOptions``,
/// ``LoopbackOptions``, ``FlowIDOption``), declared once each: a command lists them (through
/// ``OptionDeclaration/described(_:)`` when it says what they mean for it), and every read
/// of them goes through these keys.
enum CommonOptions {
    static let clientID = OptionDeclaration.value("client-id", "ID", "The client id.")
    static let endpoint = OptionDeclaration.value("endpoint", "URL", "The provider's endpoint.")
    static let issuer = OptionDeclaration.value("issuer", "I", "The expected 'iss' (RFC 9207), checked when the callback has one.")
    static let requireIssuer = OptionDeclaration.flag("require-issuer", "The callback must carry iss (issuer_missing otherwise).")
    static let state = OptionDeclaration.value("state", "S", "The state the callback must carry.")
    static let stateFromStdin = OptionDeclaration.flag("state-from-stdin", "Read the state from the first line of stdin.")
    static let noState = OptionDeclaration.flag("no-state", "Expect no state.")
    static let redirectURI = OptionDeclaration.value("redirect-uri", "U", "A registered redirect URI (repeatable).", repeatable: true)
    static let allowLocalhost = OptionDeclaration.flag(
        "allow-localhost", "Accept http://localhost as a loopback redirect, and https://localhost (RFC 8252 §8.3 advises against both).")
    static let scheme = OptionDeclaration.value("scheme", "S", "The scheme.")
    static let scope = OptionDeclaration.value("scope", "S", "Space-separated scopes (default: openid).")
    static let noScope = OptionDeclaration.flag("no-scope", "Send no scope at all (the provider's default applies).")
    static let param = OptionDeclaration.value("param", "NAME=VALUE", "An extra parameter (repeatable).", repeatable: true)
    /// The token step's (`TokenStep.sharedDeclarations` lists it for login and refresh).
    static let clientSecretFromStdin = OptionDeclaration.flag(
        "client-secret-from-stdin",
        "Read the client secret of a confidential client from a line of stdin (never from argv or the environment).")
    /// The token step's (`TokenStep.sharedDeclarations` lists it for login and refresh).
    static let tokenEndpoint = OptionDeclaration.value("token-endpoint", "URL", "The token endpoint (https).")
    static let timeout = OptionDeclaration.value("timeout", "SECONDS", "How long to wait (default 300; fractions allowed).")
}

#endif
