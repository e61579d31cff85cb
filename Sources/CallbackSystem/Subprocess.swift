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

// posix_spawn is unavailable on tvOS and watchOS: no subprocess there (docs/platforms.md).
#if !os(tvOS) && !os(watchOS)

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs another program (update-desktop-database, xdg-mime) without a shell and without
/// Foundation: found on the given environment's PATH, spawned with that environment.
package enum Subprocess {
    package struct Result {
        package let status: Int32
        package let standardOutput: String
    }

    /// The absolute path of `program` on `environment["PATH"]`, or nil.
    package static func find(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return FileSystem.isExecutableFile(program) ? program : nil }
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = joinPath(String(directory), program)
            if FileSystem.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Runs `path` with `arguments`, stdin and stderr on /dev/null, stdout captured (at most
    /// 64 KiB). Returns nil when it could not be started.
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String],
        timeoutMilliseconds: Int64 = 10_000
    ) -> Result? {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let reader = Descriptor(pipeEnds[0])
        let writer = Descriptor(pipeEnds[1])
        // pipe2 is hidden behind _GNU_SOURCE; the child gets the write end through dup2 only.
        _ = fcntl(reader.rawValue, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writer.rawValue, F_SETFD, FD_CLOEXEC)

        let spawned = spawn(path, arguments, environment: environment, standardOutput: writer.rawValue)
        writer.close()
        guard let pid = spawned else { return nil }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Deadline.after(milliseconds: timeoutMilliseconds)
        reading: while !deadline.hasPassed {
            var entry = pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { break }
            let count = chunk.withUnsafeMutableBytes { read(reader.rawValue, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break reading }
            if output.count < 64 * 1024 { output += chunk[..<count] }
        }
        if deadline.hasPassed { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, standardOutput: String(decoding: output, as: UTF8.self))
    }

    /// posix_spawn of `path` (no shell) with `environment`; stdout on `standardOutput`,
    /// stdin on `standardInput` and stderr on `standardError` (each nil: /dev/null). The
    /// child's pid, or nil when it could not be started. The caller waits for it, or leaves
    /// it to init (a browser).
    package static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], standardOutput: Int32?,
        standardInput: Int32? = nil, standardError: Int32? = nil
    ) -> pid_t? {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil // an opaque pointer on Darwin
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let standardError {
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }

        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup($0.key + "=" + $0.value) }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // A caller that blocks signals to take them with sigwait (the CLI blocks SIGINT and
        // SIGTERM) must not pass that mask on: the child starts with none blocked and with
        // SIGINT and SIGTERM at their default action.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGINT)
        sigaddset(&defaultSignals, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        return spawned == 0 ? pid : nil
    }
}

#endif
