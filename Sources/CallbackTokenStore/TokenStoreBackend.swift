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

import CallbackSystem

/// Where a ``TokenStore`` keeps its entries.
public enum TokenStoreBackend: Sendable, Equatable {
    /// One file of mode 0600 in a 0700 directory, replaced atomically under the store's lock.
    case file(path: String)
    /// The desktop keyring through the Secret Service, by `secret-tool` (libsecret-tools),
    /// found at this path; every secret goes on its stdin, never its argv or environment.
    case secretService(secretTool: String)

    /// `file` or `secret-service`: the name the CLI's JSON gives it.
    public var name: String {
        switch self {
        case .file: "file"
        case .secretService: "secret-service"
        }
    }

    /// The file's path, or nil for the keyring.
    public var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }
}
