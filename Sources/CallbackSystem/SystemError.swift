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

/// A failed system call: which operation, on what (a path, never a secret), and errno.
package struct SystemError: Error, CustomStringConvertible {
    package let operation: String
    package let path: String?
    package let code: Int32

    package init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The system's sentence for ``code`` (`strerror`), e.g. "Bad file descriptor".
    package var reason: String { String(cString: strerror(code)) }

    package var description: String {
        if let path { return "\(operation) '\(path)': \(reason)" }
        return "\(operation): \(reason)"
    }
}

extension SystemError {
    /// The `errno` values the modules above the system layer tell apart, by name, so that
    /// they compare ``SystemError/code`` without the C library's constants.
    package enum Code {
        /// `EADDRINUSE`: the address or port is taken.
        package static let addressInUse = EADDRINUSE
        /// `EADDRNOTAVAIL`: no such local address (no IPv6 loopback address here).
        package static let addressNotAvailable = EADDRNOTAVAIL
        /// `EAFNOSUPPORT`: the address family is not supported (no IPv6 here).
        package static let addressFamilyNotSupported = EAFNOSUPPORT
        /// `EACCES`: permission denied.
        package static let accessDenied = EACCES
        /// `EPERM`: the operation is not permitted.
        package static let notPermitted = EPERM
        /// `ENOENT`: no such file.
        package static let noSuchFile = ENOENT
        /// `ECONNREFUSED`: nobody accepts on the socket.
        package static let connectionRefused = ECONNREFUSED
        /// `ETIMEDOUT`: a deadline passed.
        package static let timedOut = ETIMEDOUT
        /// `EFBIG`: more than the limit (``Descriptor/readAll(limit:)``).
        package static let tooLarge = EFBIG
    }
}

/// Retries a system call interrupted by a signal.
@inline(__always)
package func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
