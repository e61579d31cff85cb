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

/// The JSON reader's invariants, for the fuzzer (`Fuzz/Sources/fuzz-json`). Not API.
@_spi(Fuzzing) public enum JSONFuzzing {
    /// The reasons a refusal may carry; any other is a bug.
    static let allowedReasons: Set<ReasonCode> = [
        .emptyInput, .invalidCharacter, .invalidUTF8, .duplicateParameter, .tooLong, .tooManyParameters,
    ]

    /// Reads `bytes` with the default limits and with tight ones (depth 4, 16-byte strings,
    /// 4 members), and traps unless: a refusal carries one of the reader's reasons and an
    /// offset inside the document; a value read prints to JSON that reads back to the same
    /// value and prints identically; a non-contiguous copy of the input reads the same; and
    /// the token response, discovery and ID token readers over the same bytes refuse only
    /// with their own reasons.
    public static func check(_ bytes: [UInt8]) {
        for limits in [JSONLimits.default, JSONLimits(maxBytes: 4096, maxDepth: 4, maxStringBytes: 16, maxMembers: 4)] {
            let result = Result { () throws(CallbackError) -> JSONValue in try JSONReader.parse(bytes, limits: limits) }
            let again = Result { () throws(CallbackError) -> JSONValue in try JSONReader.parse(bytes.lazy.map { $0 }, limits: limits) }
            switch (result, again) {
            case (.success(let value), .success(let other)):
                precondition(value == other, "a non-contiguous input reads differently")
                let printed = value.serialized
                let reread: JSONValue
                do {
                    reread = try JSONReader.parse(
                        printed,
                        limits: JSONLimits(
                            maxBytes: Int.max, maxDepth: limits.maxDepth, maxStringBytes: limits.maxStringBytes,
                            maxMembers: limits.maxMembers))
                } catch {
                    preconditionFailure("the serialization of a value does not read back: \(error)")
                }
                precondition(reread == value, "the serialization reads back to another value")
                precondition(reread.serialized == printed, "the serialization is not stable")
            case (.failure(let error), .failure(let other)):
                precondition(error == other, "a non-contiguous input is refused differently: \(error) vs \(other)")
                precondition(allowedReasons.contains(error.reason), "unexpected reason \(error.reason)")
                precondition(
                    (error.offset ?? -1) >= 0 && (error.offset ?? -1) <= max(bytes.count, limits.maxBytes),
                    "offset out of the document: \(error)")
            default:
                preconditionFailure("a non-contiguous input is read differently")
            }
        }
        checkDocuments(bytes)
    }

    /// The reasons the token response, discovery and ID token readers may refuse with.
    static let documentReasons: Set<ReasonCode> = allowedReasons.union([
        .invalidParameter, .missingParameter, .unknownStatus, .ambiguousResponse, .unsupportedTokenType, .issuerMissing, .issuerMismatch,
        .schemeNotAllowed, .audienceMismatch, .tokenExpired, .nonceMismatch, .tokenHashMismatch, .unsupportedAlgorithm,
        .subjectMismatch, .authTimeMismatch,
    ])

    /// The same bytes as a token response (HTTP 200, 302, 400 and 503), a discovery document (an
    /// OpenID provider's and an RFC 8414 one), and an ID token's payload and JOSE header: each is read or refused with one of ``documentReasons``, never
    /// a trap; what is read shows no token in its description.
    static func checkDocuments(_ bytes: [UInt8]) {
        func expectRefusal(_ body: () throws(CallbackError) -> Void) {
            do {
                try body()
            } catch {
                precondition(documentReasons.contains(error.reason), "unexpected reason \(error.reason): \(error)")
            }
        }
        for status in [200, 302, 400, 503] {
            expectRefusal { () throws(CallbackError) in
                let response = try TokenResponse(status: status, body: bytes)
                if case .tokens(let tokens) = response, tokens.accessToken.utf8.count >= 24 {
                    precondition(!tokens.description.contains(tokens.accessToken), "the access token shows in a description")
                }
            }
        }
        for style in [ProviderMetadata.DiscoveryStyle.openIDConnect, .oauthAuthorizationServer] {
            expectRefusal { () throws(CallbackError) in
                _ = try ProviderMetadata(parsing: bytes, expectedIssuer: "https://op.example.com", style: style)
            }
        }
        let idToken = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)) + "." + Base64URL.encode(bytes) + ".c2ln"
        let payload =
            #"{"iss":"https://op.example.com","sub":"u","aud":"client-1","exp":1767226200,"iat":1767225600,"nonce":"n-0S6_WzA2Mj"}"#
        let headerFuzzed = Base64URL.encode(bytes) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2ln"
        let settings = IDTokenCheck.Settings(
            signingAlgorithms: ["RS256", "ES256"], maxClockSkew: .seconds(30), maxIssuedAtAge: .seconds(600))
        for token in [idToken, headerFuzzed] {
            expectRefusal { () throws(CallbackError) in
                _ = try IDTokenCheck.check(
                    token, accessToken: "access-token", code: "code", nonce: .required("n-0S6_WzA2Mj"), clientID: "client-1",
                    issuer: "https://op.example.com", settings: settings, now: 1_767_225_600)
            }
        }
        expectRefusal { () throws(CallbackError) in
            _ = try IDTokenCheck.previous(idToken, clientID: "client-1", issuer: "https://op.example.com")
        }
    }
}

extension JSONFuzzing {
    /// A value as the reader read it, for a harness outside the package (the differential
    /// against Foundation's `JSONSerialization` in `Fuzz/Sources/fuzz-json-foundation`).
    public indirect enum Value {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number's text as written, and its exact `Int64` when it is an integer in range.
        case number(String, Int64?)
        /// A decoded string.
        case string(String)
        /// An array's elements.
        case array([Value])
        /// An object's members, in document order.
        case object([(name: String, value: Value)])
    }

    /// `bytes` read with the default limits, or nil when they are refused.
    public static func read(_ bytes: [UInt8]) -> Value? {
        guard let value = try? JSONReader.parse(bytes) else { return nil }
        return mirror(value)
    }

    static func mirror(_ value: JSONValue) -> Value {
        switch value.storage {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number.text, number.int64)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(mirror))
        case .object(let members): .object(members.map { ($0.0, mirror($0.1)) })
        }
    }
}
