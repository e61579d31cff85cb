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

// The token step follows a router's (or a validator's) delivery: `import CallbackTokens`
// brings `Delivery`, `LoginAttempt`, `CallbackError` and the parser's types too.
@_exported import CallbackRouter
