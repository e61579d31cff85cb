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

// A stand-in for Apple's SwiftUI, for scripts/check-samples.py on Linux (no Apple SDK here):
// only what the documentation's samples use (`View`, `Text`, `onOpenURL`), with Apple's
// signatures, so that those samples are type-checked. Never shipped.
import Foundation

@MainActor
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { fatalError("a stand-in has no body") }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

public struct Text: View {
    public init(_ content: String) {}
    public var body: Never { fatalError("a stand-in has no body") }
}

public struct OpenURLModifier<Content: View>: View {
    let content: Content
    let action: (URL) -> Void
    public var body: Never { fatalError("a stand-in has no body") }
}

extension View {
    /// Apple: `func onOpenURL(perform action: @escaping (URL) -> ()) -> some View` (iOS 14).
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View {
        OpenURLModifier(content: self, action: action)
    }
}
