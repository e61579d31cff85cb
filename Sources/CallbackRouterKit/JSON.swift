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

import CallbackTokens

/// The JSON the helper prints: the package's one JSON value and its one serializer
/// (`CallbackTokens.JSONValue`; its `serialized` is what every command writes).
public typealias JSONValue = CallbackTokens.JSONValue

#endif
