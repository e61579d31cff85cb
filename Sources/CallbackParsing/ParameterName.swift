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

/// How every diagnostic of the package shows a parameter name (descriptions, error details,
/// the CLI's stderr): the one place that decides whether a name may be printed. A name is a
/// secret as often as a value is: a bare `?SECRET` puts the secret in the name.
package enum ParameterName {
    /// The name as is when it looks like a parameter name (1–32 bytes of letters, digits,
    /// `_`, `-`, `.`), else `<redacted name, N bytes>`.
    package static func shown(_ name: String) -> String {
        let looksLikeName =
            !name.isEmpty && name.utf8.count <= 32
            && name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        return looksLikeName ? name : "<redacted name, \(name.utf8.count) bytes>"
    }

    /// As ``shown(_:)``, and redacted whatever it looks like when the value is empty: a bare
    /// `?SECRET` (or `?SECRET=`) is a secret however name-like.
    package static func shown(_ name: String, value: String) -> String {
        value.isEmpty ? "<redacted name, \(name.utf8.count) bytes>" : shown(name)
    }
}
