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

/// One query parameter as the parser located it: offsets into the URL's bytes, as written.
/// Plain stored properties, so that a reader in another module of the package reads them
/// without a call.
package struct LocatedParameter {
    /// The name is `nameStart ..< nameEnd`, the value `valueStart ..< valueEnd` (empty when
    /// the pair has no `=`). 32 bits each (``ParsingLimits`` caps a URL below 2 GiB): the
    /// whole struct comes back in registers.
    package var nameStart: UInt32
    package var nameEnd: UInt32
    package var valueStart: UInt32
    package var valueEnd: UInt32
    /// Whether the name holds `%XX` or `+` (its decoded bytes differ from the written ones).
    package var nameNeedsDecoding: Bool
    /// Whether the value holds `%XX` or `+`. A value that does not is printable ASCII
    /// without space (%x21-7E minus `#`): the parser refuses every other byte in a query.
    package var valueNeedsDecoding: Bool
}
