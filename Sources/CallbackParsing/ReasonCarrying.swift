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

/// An error that carries a ``ReasonCode``: ``ParseError`` and the router's `CallbackError`.
public protocol ReasonCarrying: Error {
    /// The stable reason code of the refusal, for `catch ReasonCode.x` and for scripts.
    var reason: ReasonCode { get }
}
