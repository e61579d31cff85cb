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

/// The package's own files, read as text: what the architecture tests check the rules of
/// docs/architecture.md against.
enum PackageSources {
    /// The package root, found from this file's path (Tests/ArchitectureTests/PackageSources.swift).
    static var root: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    static func read(_ relativePath: String) -> String {
        guard let file = fopen(root + "/" + relativePath, "rb") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0 ..< count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The names in a directory (relative to the root), without hidden ones, sorted.
    static func entries(_ relativePath: String) -> [String] {
        guard let handle = opendir(root + "/" + relativePath) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    static func isDirectory(_ relativePath: String) -> Bool {
        guard let handle = opendir(root + "/" + relativePath) else { return false }
        closedir(handle)
        return true
    }

    /// Every `.swift` file under a directory, recursively, as paths relative to the root.
    /// DocC catalogs hold no Swift; they are skipped.
    static func swiftFiles(under relativePath: String) -> [String] {
        var files: [String] = []
        for name in entries(relativePath) {
            let path = relativePath + "/" + name
            if name.hasSuffix(".swift") {
                files.append(path)
            } else if !name.hasSuffix(".docc"), isDirectory(path) {
                files += swiftFiles(under: path)
            }
        }
        return files
    }

    /// The folders under Sources/: one per module.
    static var modules: [String] {
        entries("Sources").filter { isDirectory("Sources/" + $0) }
    }

    /// A line without its `//` comment (string literals holding `//` are rare enough in these
    /// sources not to matter: a URL literal only shortens what is scanned).
    static func code(_ line: Substring) -> Substring {
        line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    static func words(_ text: Substring) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
