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

// A stand-in for Apple's AuthenticationServices, for scripts/check-samples.py on Linux (no
// Apple SDK here): the declarations the documentation's samples use, with Apple's signatures
// (iOS 12 / macOS 10.15 API), so that those samples are type-checked. Never shipped.
import Foundation

public protocol ASWebAuthenticationPresentationContextProviding: AnyObject {}

@MainActor
public final class ASWebAuthenticationSession {
    public typealias CompletionHandler = @Sendable (URL?, (any Error)?) -> Void

    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    public weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    public var prefersEphemeralWebBrowserSession = false

    @discardableResult
    public func start() -> Bool { true }
    public func cancel() {}
}

public struct ASWebAuthenticationSessionError: Error {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        case presentationContextNotProvided
        case presentationContextInvalid
    }
    public var code: Code
}
