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

/// Where the XDG Base Directory spec puts a user's data and configuration.
struct XDGDirectories {
    let dataHome: String
    let configHome: String

    /// `$XDG_DATA_HOME` / `$XDG_CONFIG_HOME` when absolute (the spec ignores relative
    /// ones), else `$HOME/.local/share` / `$HOME/.config`.
    init(environment: [String: String]) throws(DesktopError) {
        func home() throws(DesktopError) -> String {
            guard let home = environment["HOME"], home.hasPrefix("/") else {
                throw .usage("HOME is not set to an absolute path, and XDG_DATA_HOME / XDG_CONFIG_HOME do not say where to write")
            }
            return home
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            dataHome = data
        } else {
            dataHome = joinPath(try home(), ".local/share")
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            configHome = config
        } else {
            configHome = joinPath(try home(), ".config")
        }
    }

    var applicationsDirectory: String { joinPath(dataHome, "applications") }
    var mimeAppsList: String { joinPath(configHome, "mimeapps.list") }
}

#endif
