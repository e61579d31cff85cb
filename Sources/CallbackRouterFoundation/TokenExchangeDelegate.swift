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

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects one response with a ceiling, refuses redirects, and resumes its caller once.
final class TokenExchangeDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let lock = NSLock()
    // Guarded by `lock`.
    private var body: [UInt8] = []
    private var status = 0
    private var overLimit = false
    private var continuation: CheckedContinuation<(Int, [UInt8]), any Error>?

    init(limit: Int) { self.limit = limit }

    /// Sends `request` on a session of its own: `configuration` without URL cache or
    /// cookies, this delegate refusing redirects and bounding the body.
    static func send(_ request: URLRequest, configuration base: URLSessionConfiguration, limit: Int) async throws -> (Int, [UInt8]) {
        // A copy: the caller's session keeps its own configuration untouched.
        let configuration = (base.copy() as? URLSessionConfiguration) ?? .ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let delegate = TokenExchangeDelegate(limit: limit)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await delegate.run(request, on: session)
    }

    func run(_ request: URLRequest, on session: URLSession) async throws -> (Int, [UInt8]) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                self.continuation = continuation
                lock.unlock()
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // The redirect is the answer. swift-corelibs-foundation does not always pass its
        // response to `didReceive response` after a refused redirect, so its status is
        // kept here: a 302 is named as a 302, not as HTTP 0.
        lock.lock()
        status = response.statusCode
        lock.unlock()
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock()
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let announced = response.expectedContentLength
        if announced > limit { overLimit = true }
        let cancel = overLimit
        lock.unlock()
        completionHandler(cancel ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if !overLimit {
            if body.count + data.count > limit {
                overLimit = true
            } else {
                body.append(contentsOf: data)
            }
        }
        let cancel = overLimit
        lock.unlock()
        if cancel { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        let result: Result<(Int, [UInt8]), any Error>
        if overLimit {
            result = .failure(
                CallbackError(.tooLong, at: limit, "the token endpoint's response is longer than \(limit) bytes; the transfer was stopped"))
        } else if let error {
            result = .failure(error)
        } else {
            // A 3xx without Location reaches neither `didReceive response` nor the redirect
            // callback on swift-corelibs-foundation: the task's response still names it.
            let final = status != 0 ? status : (task.response as? HTTPURLResponse)?.statusCode ?? 0
            result = .success((final, body))
        }
        lock.unlock()
        continuation?.resume(with: result)
    }
}
