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

@_spi(Fuzzing) import CallbackTokens
import FuzzSupport

/// The reasons the device flow's readers may refuse with: the JSON reader's, and the
/// documents' own (docs/tokens.md, "Reason codes"); any other is a bug.
let deviceReasons: Set<ReasonCode> = [
    .emptyInput, .invalidCharacter, .invalidUTF8, .duplicateParameter, .tooLong, .tooManyParameters, .invalidParameter,
    .missingParameter, .unknownStatus, .ambiguousResponse, .schemeNotAllowed, .unsupportedTokenType,
]

/// The same bytes as the device flow's answers: the device authorization response (RFC 8628
/// §3.2) at HTTP 200, 400, 401, 302 and 503, with and without loopback http, and a token
/// response read as a poll's answer (§3.5). Each reads or refuses with one of
/// `deviceReasons`, never traps; codes read have the documented bounds, never show in a
/// description, and make a device code request that shows no code either; a poll's next
/// interval is the same after `authorization_pending`, 5 seconds longer after `slow_down`,
/// and none after an answer that ends the polling.
func checkDeviceAnswers(_ bytes: [UInt8]) {
    for status in [200, 400, 401, 302, 503] {
        for loopback in [false, true] {
            let read: DeviceAuthorizationResponse
            do {
                read = try DeviceAuthorizationResponse(status: status, body: bytes, allowingLoopbackHTTP: loopback)
            } catch {
                precondition(deviceReasons.contains(error.reason), "unexpected reason \(error.reason): \(error)")
                continue
            }
            guard case .authorization(let codes) = read else { continue }
            precondition(status == 200, "codes read from HTTP \(status)")
            precondition(codes.expiresIn > 0 && codes.interval >= 0, "a lifetime or an interval out of bounds")
            precondition(codes.pollingInterval >= .seconds(1), "a polling interval under one second")
            precondition(codes.userCode.utf8.count <= DeviceAuthorization.maxUserCodeBytes, "a user code over the limit")
            for text in [codes.description, String(reflecting: codes), String(describing: read)] where codes.deviceCode.utf8.count >= 8 {
                precondition(!text.contains(codes.deviceCode), "the device code shows in a description")
            }
            do {
                let request = try TokenRequest.deviceCode(codes, tokenEndpoint: "https://op.example.com/token", clientID: "client-1")
                if codes.deviceCode.utf8.count >= 8 {
                    precondition(!request.description.contains(codes.deviceCode), "the device code shows in a request's description")
                }
            } catch {
                preconditionFailure("codes read make no device code request: \(error)")
            }
        }
    }
    for status in [200, 400] {
        guard let response = try? TokenResponse(status: status, body: bytes) else { continue }
        let poll = DevicePoll(response)
        let next = poll.nextInterval(after: .seconds(5))
        switch poll {
        case .authorizationPending: precondition(next == .seconds(5), "authorization_pending changed the interval")
        case .slowDown: precondition(next == .seconds(10), "slow_down did not add 5 seconds")
        case .tokens(let tokens):
            precondition(next == nil, "polling goes on after the tokens")
            if tokens.accessToken.utf8.count >= 24 {
                precondition(!poll.description.contains(tokens.accessToken), "the access token shows in a poll's description")
            }
        case .accessDenied, .expiredToken, .error: precondition(next == nil, "polling goes on after an error that ends it")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    JSONFuzzing.check(bytes)
    checkDeviceAnswers(bytes)
    return 0
}
