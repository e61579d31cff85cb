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

/// Where the provider puts its response parameters (OAuth 2.0 Multiple Response Type
/// Encoding Practices, `response_mode`).
public enum ResponseMode: String, Sendable, Hashable, CaseIterable {
    /// In the query (`?code=…`): the default for the authorization code flow.
    case query
    /// In the fragment (`#code=…`).
    case fragment
}
