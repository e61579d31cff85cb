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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackSystem

/// A directory made with mkdtemp under /tmp, removed (recursively) by `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init() {
        var template = Array("/tmp/callback-router-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else { fatalError("mkdtemp failed") }
        path = made
    }

    /// A private (0700) subdirectory, created.
    public func privateSubdirectory(_ name: String, mode: mode_t = 0o700) -> String {
        let sub = joinPath(path, name)
        mkdir(sub, mode)
        chmod(sub, mode)
        return sub
    }

    public func remove() { Self.removeTree(path) }

    public static func removeTree(_ path: String) {
        guard let status = try? FileSystem.status(path) else { return }
        if status.kind == .directory {
            chmod(path, 0o700)
            for name in (try? FileSystem.entries(path)) ?? [] { removeTree(joinPath(path, name)) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
