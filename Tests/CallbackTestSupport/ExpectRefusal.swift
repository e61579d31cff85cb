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

import CallbackParsing
import Testing

/// Expects `body` to be refused with `reason`. A rejection test names its reason: a check
/// of the error's type alone passes for any refusal, the wrong one included.
@discardableResult
public func expectRefusal<Value>(
    _ reason: ReasonCode, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Value
) -> (any ReasonCarrying)? {
    let note = comment.map { ": \($0)" } ?? ""
    do {
        _ = try body()
        Issue.record("expected a refusal with \(reason.rawValue), got none\(note)", sourceLocation: sourceLocation)
        return nil
    } catch let error as any ReasonCarrying {
        #expect(error.reason == reason, "\(error)\(note)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a refusal with \(reason.rawValue), got \(error)\(note)", sourceLocation: sourceLocation)
        return nil
    }
}
