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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

/// The helper's exit codes (sysexits.h), as docs/cli.md documents them.
public enum ExitCode {
    /// A success outcome.
    public static let success: Int32 = 0
    /// The provider reported a failure (`authorization_error`, `login_failure`).
    public static let providerFailure: Int32 = 1
    /// Bad usage (EX_USAGE), including a bad `--redirect-uri` (`invalid_configuration`).
    public static let usage: Int32 = 64
    /// Rejected input (EX_DATAERR).
    public static let rejected: Int32 = 65
    /// Nobody to deliver to (EX_UNAVAILABLE).
    public static let unavailable: Int32 = 69
    /// The result could not be written (EX_IOERR): stdout full, closed or gone, or the
    /// `--output` file refused. Never 0 for a result nobody received.
    public static let ioError: Int32 = 74
    /// Timed out or conflict: try again (EX_TEMPFAIL).
    public static let tryAgain: Int32 = 75
    /// Permission: wrong peer, bad modes (EX_NOPERM).
    public static let permission: Int32 = 77
    /// A waiting command ended by SIGINT (Ctrl-C): 128 + 2, as a shell reports it.
    public static let interrupted: Int32 = 130
    /// A waiting command ended by SIGTERM: 128 + 15.
    public static let terminated: Int32 = 143
}

#endif
