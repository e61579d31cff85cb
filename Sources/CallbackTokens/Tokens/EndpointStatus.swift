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

/// The HTTP status of an endpoint's answer, read before its body (docs/tokens.md, "The
/// status comes first"): what a 3xx, a 4xx without an error response, a 5xx or another
/// unexpected status means, in words a person can act on. Every refusal here is
/// `unknown_status`; its detail names the status and never quotes the body.
package enum EndpointStatus {
    /// The reason phrase of the statuses an endpoint commonly answers, else nil.
    package static func phrase(_ status: Int) -> String? {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }

    /// `HTTP 503 (Service Unavailable)`, or `HTTP 599` for a status without a known phrase.
    package static func named(_ status: Int) -> String {
        phrase(status).map { "HTTP \(status) (\($0))" } ?? "HTTP \(status)"
    }

    /// The `unknown_status` refusal of an answer whose status is not the expected 200 and
    /// that carries no error response the caller reads. `endpoint` names what answered
    /// ("the token endpoint", "the discovery document").
    package static func refusal(_ status: Int, from endpoint: String) -> CallbackError {
        let shown = named(status)
        let detail: String
        switch status {
        case 300 ... 399:
            detail =
                "\(endpoint) answered \(shown), a redirect, which is never followed (a request goes to one URL only): "
                + "check the URL (a missing path segment, a trailing slash, http for https) or what sits in front of the server"
        case 500 ... 599:
            detail =
                "\(endpoint) failed with \(shown), a server error: the server could not answer; "
                + "try again later, and if it persists tell the provider's operator"
        case 401, 403:
            detail =
                "\(endpoint) answered \(shown) without an OAuth error response (RFC 6749 §5.2): "
                + "check the client id and its credentials, and that this client may use the endpoint"
        case 400 ... 499:
            detail =
                "\(endpoint) answered \(shown) without an OAuth error response (RFC 6749 §5.2: a JSON object with error): "
                + "check the endpoint's URL and the request's parameters"
        case 200 ... 299:
            detail = "\(endpoint) answered \(shown), not 200 (OK) with a JSON body: check the endpoint's URL"
        default:
            detail = "\(endpoint) answered \(shown), which is not a final HTTP status: check the endpoint's URL and any proxy"
        }
        return CallbackError(.unknownStatus, detail)
    }

    /// An OAuth endpoint's answer read as RFC 6749 §5 reads the token endpoint's: the status
    /// first (a 3xx, 5xx, 2xx other than 200 or any other status is `unknown_status`, its
    /// body unread), at most `maxBodyBytes` (`too_long`) of strict JSON; a 4xx is the error
    /// response its body carries (else `unknown_status`); a 200 is a JSON object without an
    /// `error` member (one with it is `ambiguous_response`, never read as `readingAs`).
    ///
    /// - Parameters:
    ///   - endpoint: what answered, for the details ("the token endpoint").
    ///   - answer: what the body is, for the details ("the token response").
    ///   - readingAs: what a 200 is read as ("tokens").
    /// - Returns: the object of a 200, or the error response of a 4xx.
    package static func read(
        status: Int, body: some Collection<UInt8>, maxBodyBytes: Int, endpoint: String, answer: String, readingAs: String
    ) throws(CallbackError) -> Result<JSONObject, TokenError> {
        // The status comes first: a redirect's or a server error's body (often HTML) is
        // never read, so it cannot surface as a JSON refusal or pass for an answer.
        guard status == 200 || (400 ... 499).contains(status) else {
            throw refusal(status, from: endpoint)
        }
        guard body.count <= maxBodyBytes else {
            throw CallbackError(.tooLong, at: maxBodyBytes, "\(answer) is \(body.count) bytes long; at most \(maxBodyBytes) are read")
        }
        if status != 200 {
            // A 4xx: the error response its JSON body carries, else the status in words.
            guard let document = try? JSONReader.parse(body, limits: JSONLimits(maxBytes: maxBodyBytes)), let object = document.object,
                object["error"] != nil
            else {
                throw refusal(status, from: endpoint)
            }
            return .failure(try TokenError(object, status: status))
        }
        let document = try JSONReader.parse(body, limits: JSONLimits(maxBytes: maxBodyBytes))
        guard let object = document.object else {
            throw CallbackError(.invalidParameter, at: 0, "\(answer) is a JSON \(document.typeName), not an object")
        }
        if let error = object["error"] {
            let code = error.string.map { "(\(ParameterName.shown($0)))" } ?? "(a JSON \(error.typeName))"
            throw CallbackError(
                .ambiguousResponse,
                "\(endpoint) answered HTTP 200 (OK), success, with an error member \(code): refused, not read as \(readingAs); "
                    + "the server contradicts itself, so tell the provider's operator")
        }
        return .success(object)
    }
}
