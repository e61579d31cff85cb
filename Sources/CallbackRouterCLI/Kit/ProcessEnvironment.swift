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
import MachO // _NSGetExecutablePath is declared in <mach-o/dyld.h>, not in Darwin
#endif
import CallbackDesktop

/// The process's environment and own path, read without Foundation.
public enum ProcessEnvironment {
    /// The environment variables of this process (read as ``DesktopEnvironment/current()``
    /// reads them: one reader of `environ` for the helper and the desktop library).
    public static func current() -> [String: String] { DesktopEnvironment.current() }

    /// The absolute path of the running executable (`/proc/self/exe` on Linux,
    /// `_NSGetExecutablePath` on Darwin).
    public static func executablePath(fallback: String) -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #elseif canImport(Darwin)
        var size = UInt32(4096)
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        #endif
        return fallback
    }
}
