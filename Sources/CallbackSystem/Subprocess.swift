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
    /// 64 KiB kept; the rest is read and dropped). Returns nil when it could not be started.
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String],
        timeoutMilliseconds: Int64 = 10_000
    ) -> Result? {
        guard let output = try? Descriptor.makePipe() else { return nil }
        let spawned = spawn(path, arguments, environment: environment, standardOutput: output.write.rawValue)
        output.write.close()
        guard let pid = spawned else { return nil }
        var streams = [Capture(output.read, limit: 64 * 1024, stopsAtLimit: false)]
        let ended = drain(&streams, until: .after(milliseconds: timeoutMilliseconds))
        if !ended { kill(pid, SIGKILL) }
        return Result(status: waitForExit(pid), standardOutput: String(decoding: streams[0].bytes, as: UTF8.self))
    }

    /// What ``exchange(_:_:environment:input:outputLimit:errorLimit:until:)`` got from a program.
    package struct Exchange {
        /// How the reading ended before the program closed its output, if it did.
        package enum Stop: Equatable {
            /// The deadline passed: the program was killed.
            case timedOut
            /// Its stdout passed the limit: the program was killed.
            case outputOverLimit
        }
        /// The exit status (128 + the signal for a killed program).
        package let status: Int32
        package let standardOutput: [UInt8]
        /// At most the limit given (the rest was read and dropped).
        package let standardError: [UInt8]
        package let stop: Stop?
    }

    /// Runs `path` with `arguments` (no shell), writes `input` to its stdin and closes it,
    /// and reads its stdout and stderr until both end, its stdout passes `outputLimit`, or
    /// `deadline` passes (then it is killed); then waits for it. `input` goes through a pipe,
    /// never argv or the environment (curl's secrets: docs/tokens.md); a program that exits
    /// before reading it does not raise SIGPIPE here (its exit status says what went wrong).
    /// Throws when no pipe could be made (`pipe`) or the program could not be started
    /// (`posix_spawn`, with its path).
    package static func exchange(
        _ path: String, _ arguments: [String], environment: [String: String], input: [UInt8], outputLimit: Int,
        errorLimit: Int, until deadline: Deadline
    ) throws(SystemError) -> Exchange {
        let standardInput = try Descriptor.makePipe()
        let standardOutput = try Descriptor.makePipe()
        let standardError = try Descriptor.makePipe()
        guard
            let pid = spawn(
                path, arguments, environment: environment, standardOutput: standardOutput.write.rawValue,
                standardInput: standardInput.read.rawValue, standardError: standardError.write.rawValue)
        else { throw SystemError("posix_spawn", path: path, code: ENOEXEC) }
        standardInput.read.close()
        standardOutput.write.close()
        standardError.write.close()
        writeIgnoringBrokenPipe(input, to: standardInput.write.rawValue)
        standardInput.write.close()

        var streams = [
            Capture(standardOutput.read, limit: outputLimit, stopsAtLimit: true),
            Capture(standardError.read, limit: errorLimit, stopsAtLimit: false),
        ]
        let ended = drain(&streams, until: deadline)
        if !ended { kill(pid, SIGKILL) }
        let stop: Exchange.Stop? = ended ? nil : streams[0].overLimit ? .outputOverLimit : .timedOut
        return Exchange(status: waitForExit(pid), standardOutput: streams[0].bytes, standardError: streams[1].bytes, stop: stop)
    }

    /// The exit status of `pid` if it ends within `milliseconds` (reaped), else nil: it is
    /// left running (a browser may run for hours; init reaps it after this process).
    package static func exitStatus(of pid: pid_t, withinMilliseconds milliseconds: Int64) -> Int32? {
        let deadline = Deadline.after(milliseconds: milliseconds)
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return exitStatus(fromWaitStatus: status) }
            if result < 0 && errno != EINTR { return nil }
            if deadline.hasPassed { return nil }
            usleep(20_000)
        }
    }

    /// Waits for `pid` and returns its exit status.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return exitStatus(fromWaitStatus: status)
    }

    /// The exit status in a `waitpid` status, or 128 + the signal that killed the process
    /// (as a shell says it). WIFEXITED / WEXITSTATUS are macros Swift does not import.
    package static func exitStatus(fromWaitStatus status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// One output of a child being read: what was kept, and whether it passed its limit.
    struct Capture {
        let descriptor: Descriptor
        let limit: Int
        /// Past the limit the reading stops (and the child is killed); else the rest is dropped.
        let stopsAtLimit: Bool
        var bytes: [UInt8] = []
        var open = true
        var overLimit = false

        init(_ descriptor: Descriptor, limit: Int, stopsAtLimit: Bool) {
            self.descriptor = descriptor
            self.limit = limit
            self.stopsAtLimit = stopsAtLimit
        }
    }

    /// Reads every stream until each has ended (true), or the deadline passes or a stream
    /// that stops at its limit passes it (false).
    static func drain(_ streams: inout [Capture], until deadline: Deadline) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while streams.contains(where: \.open) && !deadline.hasPassed {
            let reading = streams.indices.filter { streams[$0].open }
            var entries = reading.map { pollfd(fd: streams[$0].descriptor.rawValue, events: Int16(POLLIN), revents: 0) }
            let ready = systemPoll(&entries, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { break }
            for (entry, index) in zip(entries, reading) where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { systemRead(entry.fd, $0.baseAddress!, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    streams[index].open = false
                } else if streams[index].stopsAtLimit {
                    streams[index].bytes += chunk[..<count]
                    if streams[index].bytes.count > streams[index].limit {
                        streams[index].overLimit = true
                        return false
                    }
                } else if streams[index].bytes.count < streams[index].limit {
                    streams[index].bytes += chunk[..<count]
                }
            }
        }
        return !streams.contains(where: \.open)
    }

    /// Writes `bytes` to a child's stdin with SIGPIPE blocked in this thread: a child that
    /// exits before reading them must not kill this process (a SIGPIPE raised meanwhile is
    /// taken before the mask is restored).
    static func writeIgnoringBrokenPipe(_ bytes: [UInt8], to fd: Int32) {
        Descriptor.withBrokenPipeSignalBlocked { _ = try? Descriptor.writeAll(bytes, to: fd) }
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
