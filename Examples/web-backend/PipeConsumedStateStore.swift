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

import CallbackRouter

/// The backend's store of consumed states, reached over this worker's pipes: the backend
/// process (Tests/Interop/web-backend/backend.py) answers each insert with one unique
/// `INSERT` into the database every instance shares. A line `consume HEX UNTIL` goes out;
/// `inserted`, `present` or `failed` comes back.
struct PipeConsumedStateStore: ConsumedStateStore {
    /// The store cannot answer: its pipe closed, or the database failed.
    struct Unavailable: Error {}

    let digestKey: [UInt8]

    func insert(_ digest: ConsumedStateDigest, keepingUntil: Int64) throws -> Bool {
        print("consume\t\(digest.hex)\t\(keepingUntil)")
        switch readLine() {
        case "inserted": return true
        case "present": return false
        default: throw Unavailable()
        }
    }
}
