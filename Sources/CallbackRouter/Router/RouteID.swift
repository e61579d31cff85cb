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

/// Names a route within a router (given at registration, unique).
public struct RouteID: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The route's name as the app wrote it.
    public let rawValue: String
    /// Names a route.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Names a route with a literal: `router.beginLogin(on: "google")`.
    public init(stringLiteral value: String) { rawValue = value }
    /// The route's name.
    public var description: String { rawValue }
}
