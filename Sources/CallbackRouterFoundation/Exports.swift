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

// The only module of the package that imports Foundation: it converts between Foundation's
// `URL` and our types. Each string is interpreted by one parser, ours; a `URL` handed out
// is built from our components and checked to mean the same thing to Foundation.
@_exported import CallbackRouter
@_exported import CallbackTokens
@_exported import CallbackLoopback
