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

/// The process's environment and own path, read without Foundation.
package enum Environment {
    /// The environment variables of this process, read from `environ`.
    package static func current() -> [String: String] {
        var result: [String: String] = [:]
        #if canImport(Darwin)
        // A library cannot use `environ` on Darwin (environ(7)): _NSGetEnviron is the way.
        guard var pointer = _NSGetEnviron().pointee else { return result }
        #else
        var pointer = environ
        #endif
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The absolute path of the running executable (`/proc/self/exe` on Linux,
    /// `_NSGetExecutablePath` then `realpath` on Darwin), nil when the system does not say.
    package static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var size = UInt32(4096)
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
        #else
        return nil
        #endif
    }
}
