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

/// Thin, throwing wrappers over the file calls the helper needs. Paths are Strings (UTF-8).
package enum FileSystem {
    /// `lstat`: nil when the path does not exist, throws on any other failure.
    package static func status(_ path: String) throws(SystemError) -> FileStatus? {
        var info = stat()
        if lstat(path, &info) == 0 { return FileStatus(info) }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw SystemError("lstat", path: path)
    }

    /// `stat`, following symbolic links: nil when the path is absent or cannot be examined.
    package static func status(followingLinks path: String) -> FileStatus? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStatus(info) : nil
    }

    /// `mkdir` with `mode`; true when it was created, false when something already exists.
    @discardableResult
    package static func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) -> Bool {
        if mkdir(path, mode) == 0 {
            // The umask may have removed bits; set exactly what was asked.
            _ = chmod(path, mode)
            return true
        }
        if errno == EEXIST { return false }
        throw SystemError("mkdir", path: path)
    }

    /// Opens an existing file for reading without following a final symbolic link.
    package static func openForReading(_ path: String) throws(SystemError) -> Descriptor {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw SystemError("open", path: path) }
        return Descriptor(fd)
    }

    /// Opens `path` for reading and writing, created with `mode` when missing; never through
    /// a final symbolic link.
    package static func openOrCreate(_ path: String, mode: mode_t) throws(SystemError) -> Descriptor {
        let fd = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError("open", path: path) }
        return Descriptor(fd)
    }

    /// Creates a new file (never an existing one, never through a symbolic link).
    package static func createExclusive(_ path: String, mode: mode_t) throws(SystemError) -> Descriptor {
        let fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError("create", path: path) }
        // The umask may have removed bits; set exactly what was asked.
        _ = fchmod(fd, mode)
        return Descriptor(fd)
    }

    /// A regular file's bytes, at most `limit` (nil when absent).
    package static func readFile(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8]? {
        let descriptor: Descriptor
        do {
            descriptor = try openForReading(path)
        } catch {
            if error.code == ENOENT { return nil }
            throw error
        }
        guard try descriptor.status().kind == .regular else { throw SystemError("read", path: path, code: EINVAL) }
        return try descriptor.readAll(limit: limit)
    }

    /// Replaces `path` with `contents` atomically: a new file beside it (created with exactly
    /// `mode`, whatever the umask), flushed to disk, then `rename`d over `path`. Readers see
    /// the old file or the new one, never half of one, and a final symbolic link is replaced,
    /// never written through.
    ///
    /// `privately` (a file of secrets): refuses a `path` that is a symbolic link, not a
    /// regular file, or another user's file (not the effective uid's), and a directory that
    /// others could rename it out of (writable by group or others without the sticky bit,
    /// or owned by someone else than the user or root). Refusals throw errors naming the check.
    package static func writeAtomically(
        _ path: String, _ contents: [UInt8], mode: mode_t, privately: Bool = false
    ) throws(SystemError) {
        if privately { try checkReplaceable(path, owner: geteuid()) }
        let temporary = path + ".tmp-" + RandomName.hex(bytes: 6)
        let descriptor = try createExclusive(temporary, mode: mode)
        do throws(SystemError) {
            try descriptor.writeAll(contents)
            guard fsync(descriptor.rawValue) == 0 else { throw SystemError("fsync", path: temporary) }
            descriptor.close()
            try rename(temporary, to: path)
        } catch {
            descriptor.close()
            _ = unlink(temporary)
            throw error
        }
    }

    /// The checks of ``writeAtomically(_:_:mode:privately:)`` for a private file.
    private static func checkReplaceable(_ path: String, owner: uid_t) throws(SystemError) {
        if let existing = try status(path) {
            guard existing.kind != .symbolicLink else { throw SystemError("refuse a symbolic link", path: path, code: ELOOP) }
            guard existing.kind == .regular else { throw SystemError("refuse a file that is not a regular file", path: path, code: EINVAL) }
            guard existing.owner == owner else { throw SystemError("refuse another user's file", path: path, code: EPERM) }
        }
        let directory = parentDirectory(path)
        guard let parent = try status(directory) else { throw SystemError("stat", path: directory, code: ENOENT) }
        let othersMayRename = parent.permissions & 0o022 != 0 && parent.permissions & 0o1000 == 0
        guard parent.kind == .directory, parent.owner == owner || parent.owner == 0, !othersMayRename else {
            throw SystemError("refuse a directory other users can change", path: directory, code: EPERM)
        }
    }

    package static func rename(_ from: String, to: String) throws(SystemError) {
        guard systemRename(from, to) == 0 else { throw SystemError("rename", path: from) }
    }

    /// `unlink`; false when the file was already gone.
    @discardableResult
    package static func remove(_ path: String) throws(SystemError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw SystemError("unlink", path: path)
    }

    /// The names in a directory, without `.` and `..` (empty when it does not exist).
    package static func entries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw SystemError("opendir", path: path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The canonical absolute path (symbolic links resolved), nil when it does not exist.
    package static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
}

/// Joins path components with one `/`.
package func joinPath(_ base: String, _ components: String...) -> String { joinPath(base, components) }

/// Joins path components with one `/`.
package func joinPath(_ base: String, _ components: [String]) -> String {
    var result = base
    for component in components {
        if !result.hasSuffix("/") { result += "/" }
        result += component
    }
    return result
}

/// The directory part of a path (`/a/b` → `/a`, `/a` → `/`).
package func parentDirectory(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let parent = String(path[..<slash])
    return parent.isEmpty ? "/" : parent
}
