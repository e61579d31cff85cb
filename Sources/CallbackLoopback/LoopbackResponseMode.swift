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

/// How the provider sends the callback to the receiver.
public struct LoopbackResponseMode: Hashable, Sendable, CustomStringConvertible {
    let isFormPost: Bool

    /// A GET with the parameters in the query: the authorization code flow's default.
    public static let query = LoopbackResponseMode(isFormPost: false)
    /// OpenID Connect Form Post Response Mode (Apple, Entra): the provider's page POSTs an
    /// `application/x-www-form-urlencoded` form. The body is read by the same parser with
    /// the same limits as a query; a body over ``LoopbackReceiver/Configuration/maxBodyBytes``
    /// is refused (413) before it is read; a GET never ends the wait. Send
    /// `response_mode=form_post` in the authorization request.
    public static let formPost = LoopbackResponseMode(isFormPost: true)

    /// `query` or `form_post`, the `response_mode` value.
    public var description: String { isFormPost ? "form_post" : "query" }
}
