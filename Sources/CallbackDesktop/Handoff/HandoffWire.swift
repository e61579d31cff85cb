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

/// The bytes `open` and `listen` exchange over the listener's socket.
///
/// ```
/// open → listen   "CRH1"                                   magic and version, once
///                 'O' len:u32be  has_state:u8 scheme_len:u16be scheme state
///                                                          the offer (no URL yet); has_state 2:
///                                                          no state, the bytes are a flow_id
/// listen → open   'E' | 'W' | 'N'                          exact, candidate, not mine
///                 'P'                                      refused: not the same uid
/// open → listen   'D' len:u32be url                        deliver it to you
///               | 'X' len=0                                conflict: delivered to none
///               | 'A' len=0 (or a closed socket)           not for you after all
/// listen → open   'K'                                      taken: it is yours now
///               | 'N'                                      not mine after all (its redirect URI…)
/// ```
/// Every length is checked against ``maxPayload`` before anything is allocated; a frame of
/// an unknown type or a bad length ends the connection.
enum HandoffWire {
    static let magic: [UInt8] = Array("CRH1".utf8)
    /// The URL limit (16 KiB) plus room for an offer's header.
    static let maxPayload = 16 * 1024 + 512

    enum FrameType: UInt8 {
        case offer = 0x4F // "O"
        case deliver = 0x44 // "D"
        case conflict = 0x58 // "X"
        case abort = 0x41 // "A"
    }

    enum Reply: UInt8 {
        case exact = 0x45 // "E"
        case candidate = 0x57 // "W"
        case notMine = 0x4E // "N"
        case peerRefused = 0x50 // "P"
        case taken = 0x4B // "K"

        init(_ answer: HandoffMatch.Answer) {
            switch answer {
            case .exact: self = .exact
            case .candidate: self = .candidate
            case .notMine: self = .notMine
            }
        }

        var answer: HandoffMatch.Answer? {
            switch self {
            case .exact: .exact
            case .candidate: .candidate
            case .notMine: .notMine
            case .peerRefused, .taken: nil
            }
        }
    }

    struct Frame: Equatable {
        let type: FrameType
        let payload: [UInt8]
    }

    static func encode(_ type: FrameType, _ payload: [UInt8] = []) -> [UInt8] {
        let length = UInt32(payload.count)
        return [type.rawValue, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }

    static func offer(_ route: CallbackRoute) -> [UInt8] {
        let scheme = Array(route.scheme.name.utf8)
        let kind: UInt8 = route.state != nil ? 1 : route.flowID != nil ? 2 : 0
        var payload: [UInt8] = [kind, UInt8(scheme.count >> 8), UInt8(scheme.count & 0xFF)]
        payload += scheme
        if let key = route.state ?? route.flowID { payload += key.utf8 }
        return encode(.offer, payload)
    }

    /// Reads an offer's payload back; nil when it is malformed.
    static func decodeOffer(_ payload: [UInt8]) -> CallbackRoute? {
        guard payload.count >= 3, payload[0] <= 2 else { return nil }
        let schemeLength = Int(payload[1]) << 8 | Int(payload[2])
        guard payload.count >= 3 + schemeLength else { return nil }
        let schemeBytes = payload[3 ..< 3 + schemeLength]
        guard let scheme = try? CallbackScheme(validating: String(decoding: schemeBytes, as: UTF8.self)),
            scheme.name.utf8.elementsEqual(schemeBytes)
        else { return nil }
        let stateBytes = payload[(3 + schemeLength)...]
        if payload[0] == 0 { return stateBytes.isEmpty ? CallbackRoute(scheme: scheme, state: nil) : nil }
        // States are VSCHAR after decoding in valid callbacks, but routing only needs bytes
        // that survive as a String; refuse ones that do not.
        let state = String(decoding: stateBytes, as: UTF8.self)
        guard state.utf8.elementsEqual(stateBytes) else { return nil }
        if payload[0] == 2 { return state.isEmpty ? nil : CallbackRoute(scheme: scheme, state: nil, flowID: state) }
        return CallbackRoute(scheme: scheme, state: state)
    }

    /// Reads one frame: its header, a length check, then its payload.
    static func readFrame(_ connection: Descriptor, deadline: Deadline) throws(SystemError) -> Frame? {
        let header = try UnixSocket.receive(connection, count: 5, deadline: deadline)
        guard let type = FrameType(rawValue: header[0]) else { return nil }
        let length = Int(header[1]) << 24 | Int(header[2]) << 16 | Int(header[3]) << 8 | Int(header[4])
        guard length <= maxPayload else { return nil }
        let payload = length == 0 ? [] : try UnixSocket.receive(connection, count: length, deadline: deadline)
        return Frame(type: type, payload: payload)
    }

    static func readReply(_ connection: Descriptor, deadline: Deadline) throws(SystemError) -> Reply? {
        Reply(rawValue: try UnixSocket.receive(connection, count: 1, deadline: deadline)[0])
    }
}

#endif
