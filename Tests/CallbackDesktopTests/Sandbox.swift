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
import CallbackDesktop
import CallbackRouter
import CallbackSystem
import Testing

/// A private temporary tree: HOME, XDG dirs and a 0700 runtime directory.
final class Sandbox {
    let root: String
    let environment: [String: String]

    init() {
        var template = Array("/tmp/callback-desktop-test-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let runtime = root + "/run"
        mkdir(runtime, 0o700)
        environment = [
            "HOME": root, "XDG_DATA_HOME": root + "/data", "XDG_CONFIG_HOME": root + "/config",
            "XDG_RUNTIME_DIR": runtime, "PATH": "/nonexistent",
        ]
    }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        return text
    }

    /// The sockets of receivers waiting now, for every scheme.
    func listenerSockets() -> Int {
        var count = 0
        guard let top = opendir(root + "/run/callback-router/listeners") else { return 0 }
        defer { closedir(top) }
        while let entry = readdir(top) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix(".") else { continue }
            guard let sub = opendir(root + "/run/callback-router/listeners/" + name) else { continue }
            while let inner = readdir(sub) {
                let file = withUnsafeBytes(of: inner.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if file.hasSuffix(".sock") { count += 1 }
            }
            closedir(sub)
        }
        return count
    }

    deinit {
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("rm"), strdup("-rf"), strdup(root), nil]
        var pid: pid_t = 0
        if posix_spawnp(&pid, "rm", nil, nil, &argv, nil) == 0 { var status: Int32 = 0; waitpid(pid, &status, 0) }
        for pointer in argv { free(pointer) }
    }
}

/// `open`'s side on a thread of its own: it blocks (up to 3 s per offer), and must not hold
/// one of the cooperative pool's few threads that the receiver's task needs to start.
func deliverOnThread(_ url: String, environment: [String: String]) async throws -> CallbackHandoff.Receipt {
    let result: Result<CallbackHandoff.Receipt, DesktopError> = await withCheckedContinuation { continuation in
        let started = DetachedThread.start {
            continuation.resume(returning: Result { () throws(DesktopError) in try CallbackHandoff.deliver(url, environment: environment) })
        }
        if !started { continuation.resume(returning: .failure(DesktopError(.unavailable, message: "no thread"))) }
    }
    return try result.get()
}
