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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackSystem

// The system layer moved to CallbackSystem (issue 26). The helper's CLI still names these
// through CallbackDesktop; they forward until it imports CallbackSystem itself, then go.
// The functions are disfavoured so that a file importing both modules gets CallbackSystem's
// (the type aliases name the same types, so they are never ambiguous).

package typealias Clock = SystemClock
package typealias Deadline = CallbackSystem.Deadline
package typealias FileSystem = CallbackSystem.FileSystem
package typealias PeerCredentials = CallbackSystem.PeerCredentials
package typealias Subprocess = CallbackSystem.Subprocess
package typealias UnixSocket = CallbackSystem.UnixSocket

/// Joins path components with one `/` (``CallbackSystem/joinPath(_:_:)``).
@_disfavoredOverload
package func joinPath(_ base: String, _ components: String...) -> String { CallbackSystem.joinPath(base, components) }

/// The directory part of a path (``CallbackSystem/parentDirectory(_:)``).
@_disfavoredOverload
package func parentDirectory(_ path: String) -> String { CallbackSystem.parentDirectory(path) }

#endif
