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

/// What `lstat`/`fstat` say about a file, in the terms the checks need.
package struct FileStatus {
    package enum Kind { case regular, directory, symbolicLink, socket, other }

    package let kind: Kind
    /// Permission bits only (`0o7777`).
    package let permissions: mode_t
    package let owner: uid_t
    package let device: UInt64
    package let inode: UInt64
    package let size: Int
    package let modifiedSeconds: Int64

    package init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        permissions = info.st_mode & 0o7777
        owner = info.st_uid
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        #endif
    }

    /// No access for group or others.
    package var isPrivate: Bool { permissions & 0o077 == 0 }
}
