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

/// A broken rule and a sentence about it (free of secrets).
struct RuleViolation: Error {
    let rule: RedirectURIRule
    let explanation: String

    var detail: String { "rule \(rule.rawValue): \(explanation)" }
}
