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

/// What a valid callback means: the provider's answer, its fields, and every other
/// parameter it carried.
///
/// Values are reached only through explicit accessors (``code``, ``value(_:)``…).
/// `description`, `debugDescription` and `dump` show names and lengths, never a value
/// (only the `error` code, which is not a secret):
/// `CallbackOutcome(authorization_code, dialect: oauth2, code: <redacted, 43 bytes>, …)`.
public struct CallbackOutcome: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    struct Field: Sendable, Hashable {
        let name: String
        let value: String
    }

    /// What the callback means.
    public var kind: OutcomeKind { OutcomeKind.allCases[Int(kindIndex)] }
    /// The dialect that decided: the one ``Dialect/auto`` picked, never `auto` itself.
    public var dialect: Dialect { Dialect.allCases[Int(dialectTag)] }

    /// ``kind`` and ``dialect`` as their places in `allCases` (every outcome's kind and
    /// dialect are among them): an outcome holds one reference on its common path (the URL's
    /// string), so that copying and destroying it is cheap.
    private let kindIndex: UInt8
    private let dialectTag: UInt8

    /// The fields as strings (the full path, and outcomes with extras), or nil: then
    /// ``located`` says where their values stand in the callback's URL, each made into a
    /// string when it is read (the classifier's common path: most outcomes are read once, in
    /// part).
    final class Strings: Sendable {
        let known: [Field]
        let extra: [Field]
        /// ``withheldFields``: only the full path withholds, and its outcomes have this box, so
        /// the common path's outcome has one reference fewer to copy and release.
        let withheld: [String]

        init(known: [Field], extra: [Field], withheld: [String]) {
            self.known = known
            self.extra = extra
            self.withheld = withheld
        }
    }

    let strings: Strings?
    let located: Located

    /// Where the values of up to ``capacity`` known fields stand in the URL's text: no copy of
    /// the URL's parameter table, no string until a field is read.
    struct Located: Sendable {
        static let capacity = 8
        /// The URL's text (one reference).
        let source: String
        /// The fields present (``CallbackClassifier/FieldID`` bits); the n-th set bit's value
        /// is in slot n.
        let mask: UInt32
        /// Where the values stand.
        let slots: Slots

        /// Slot n: its value's start at 2n, its end at 2n + 1, bit 31 of the end set when the
        /// value holds `%XX` or `+`.
        struct Slots {
            var bounds = SIMD16<UInt32>()

            /// Written and read through memory: a vector lane chosen at run time made Swift
            /// load, shuffle and store all 64 bytes (or spill them twice to read one lane).
            @inline(__always)
            mutating func set(_ slot: Int, _ start: UInt32, _ end: UInt32, needsDecoding: Bool) {
                withUnsafeMutableBytes(of: &bounds) { raw in
                    raw.storeBytes(of: start, toByteOffset: 8 &* slot, as: UInt32.self)
                    raw.storeBytes(of: end | (needsDecoding ? 1 << 31 : 0), toByteOffset: 8 &* slot &+ 4, as: UInt32.self)
                }
            }

            /// Slot `slot`'s start and end (bit 31 of the end: needs decoding). Slot 0 (the
            /// first field present: `code` in an authorization code) is read as two fixed lanes;
            /// a lane chosen at run time needs the vector copied to the stack first.
            @inline(__always)
            func bounds(_ slot: Int) -> (start: UInt32, end: UInt32) {
                if slot == 0 { return (bounds[0], bounds[1]) }
                return withUnsafeBytes(of: bounds) { raw in
                    (
                        raw.load(fromByteOffset: 8 &* slot, as: UInt32.self),
                        raw.load(fromByteOffset: 8 &* slot &+ 4, as: UInt32.self)
                    )
                }
            }
        }

        /// The decoded value of field `id`, nil when absent.
        func value(_ id: Int) -> String? {
            guard id < 32 else { return nil }
            let bit: UInt32 = 1 << UInt32(id)
            guard mask & bit != 0 else { return nil }
            // The slot is the number of fields before this one; `code`, `state` and `iss` (IDs
            // 0-2, the fields most read) count at most two bits without a population count
            // (a dozen instructions where the target has no such instruction, x86_64's baseline).
            let below = mask & (bit &- 1)
            let slot = id < 3 ? Int(below & 1) &+ Int(below >> 1) : below.nonzeroBitCount
            guard slot < Located.capacity else { return nil }
            let (first, end) = slots.bounds(slot)
            let start = Int(first)
            let count = Int(end & ~(1 << 31)) &- start
            guard end & 1 << 31 == 0 else {
                return CallbackURL.formValue(in: source, start, start &+ count, needsDecoding: true)
            }
            // As written: the URL's own bytes (valid UTF-8: the URL parsed).
            if let value = source.utf8.withContiguousStorageIfAvailable({
                String(decoding: UnsafeBufferPointer(rebasing: $0[start ..< start &+ count]), as: UTF8.self)
            }) {
                return value
            }
            return CallbackURL.formValue(in: source, start, start &+ count, needsDecoding: false)
        }
    }

    /// The known fields, in the order docs/dialects.md lists them.
    var knownFields: [Field] {
        if let strings { return strings.known }
        var fields: [Field] = []
        fields.reserveCapacity(located.mask.nonzeroBitCount)
        var remaining = located.mask
        while remaining != 0 {
            let id = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            fields.append(Field(name: CallbackClassifier.FieldID.names[id], value: located.value(id) ?? ""))
        }
        return fields
    }

    /// The parameters the dialect does not interpret, in URL order.
    var extraFields: [Field] {
        strings?.extra ?? []
    }
    /// Names of human-text fields whose value broke its syntax and was withheld.
    public var withheldFields: [String] { strings?.withheld ?? [] }
    /// Whether this outcome is *unbound*: it carries neither the app's `state` nor a secret,
    /// so it cannot be tied to a login and anyone can forge one. Show it, ask the provider,
    /// never let it end an attempt (the router reports it and leaves the attempt pending).
    ///
    /// - an ``OutcomeKind/authorizationError`` without `state` (or arrived where only a
    ///   ``ProviderProfile`` lets an error arrive) under ``ProviderProfile/supabase`` or
    ///   ``ProviderProfile/cognito`` (without them such a callback is refused), or on the
    ///   ``Dialect/clerk`` dialect;
    /// - Clerk's ``OutcomeKind/clerkFailure``, ``OutcomeKind/accountTransfer`` and
    ///   ``OutcomeKind/bareCallback``, always;
    /// - a ``OutcomeKind/logoutComplete`` without `state`.
    public let isUnbound: Bool

    init(
        kind: OutcomeKind, dialect: Dialect, fields: [Field], extra: [Field], withheld: [String],
        isUnbound: Bool = false
    ) {
        self.isUnbound = isUnbound
        self.kindIndex = CallbackOutcome.index(of: kind)
        self.dialectTag = dialect.tag
        self.strings = Strings(
            known: fields.sorted { KnownField.rank($0.name) < KnownField.rank($1.name) }, extra: extra,
            withheld: withheld.sorted { KnownField.rank($0) < KnownField.rank($1) })
        self.located = Located(source: "", mask: 0, slots: Located.Slots())
    }

    /// `kind`'s place in ``OutcomeKind/allCases``; every kind an outcome is made with is there.
    private static func index(of kind: OutcomeKind) -> UInt8 {
        guard let index = OutcomeKind.allCases.firstIndex(of: kind) else {
            preconditionFailure("an outcome of a kind that OutcomeKind.allCases does not list")
        }
        return UInt8(index)
    }

    /// An outcome that reads its known fields from the callback's URL when asked, and has
    /// no extras and nothing withheld (the classifier's common path).
    init(kindIndex: UInt8, dialect: UInt8, located: Located) {
        self.isUnbound = false
        self.kindIndex = kindIndex
        self.dialectTag = dialect
        self.strings = nil
        self.located = located
    }

    /// Whether two outcomes say the same: kind, dialect, fields, extras, withheld, unbound.
    func isSame(as other: CallbackOutcome) -> Bool {
        kind == other.kind && dialect == other.dialect && knownFields == other.knownFields
            && extraFields == other.extraFields && withheldFields == other.withheldFields && isUnbound == other.isUnbound
    }

    /// The known wire fields present (`code`, `state`, `iss`, `session_id`…), in the order
    /// docs/dialects.md lists them. Withheld fields are not here (see ``withheldFields``).
    public var fields: [(name: String, value: String)] { knownFields.map { ($0.name, $0.value) } }

    /// Every other decoded parameter, in the order of the URL (the dialect does not
    /// interpret them and does not check their syntax).
    public var extra: [(name: String, value: String)] { extraFields.map { ($0.name, $0.value) } }

    /// The same outcome, marked unbound.
    func unbound() -> CallbackOutcome {
        CallbackOutcome(
            kind: kind, dialect: dialect, fields: knownFields, extra: extraFields, withheld: withheldFields,
            isUnbound: true)
    }

    /// The value of a known field by its wire name (`value("code")`), or nil. Extra
    /// parameters are in ``extra``.
    public func value(_ field: String) -> String? {
        if let strings { return strings.known.first { $0.name == field }?.value }
        return located.value(CallbackClassifier.FieldID.of(field))
    }

    /// ``value(_:)`` by ``CallbackClassifier/FieldID``: the typed accessors need no name lookup.
    private func value(id: Int) -> String? {
        if let strings {
            let name = CallbackClassifier.FieldID.names[id]
            return strings.known.first { $0.name == name }?.value
        }
        return located.value(id)
    }

    /// The value of an extra parameter, or nil.
    public func extraValue(_ name: String) -> String? {
        extraFields.first { $0.name == name }?.value
    }

    // MARK: Typed accessors

    /// The callback's `state`, if any (already compared with the expected one when given).
    public var state: String? { value(id: CallbackClassifier.FieldID.state) }
    /// `iss` (RFC 9207), if any.
    public var issuer: String? { value(id: CallbackClassifier.FieldID.iss) }
    /// `code`: the OAuth authorization code, or Ory's session token exchange code half.
    public var code: String? { value(id: CallbackClassifier.FieldID.code) }
    /// Prelude's `challenge_token`.
    public var challengeToken: String? { value(id: CallbackClassifier.FieldID.challengeToken) }
    /// Zephr's `session_id`.
    public var sessionID: String? { value(id: CallbackClassifier.FieldID.sessionID) }
    /// Zephr's `tracking_id`.
    public var trackingID: String? { value(id: CallbackClassifier.FieldID.trackingID) }
    /// Zephr's `state_key` (partial registration).
    public var stateKey: String? { value(id: CallbackClassifier.FieldID.stateKey) }
    /// Zephr's `identifier` (partial registration), unless withheld.
    public var identifier: String? { value(id: CallbackClassifier.FieldID.identifier) }
    /// Zephr's `message`, unless withheld.
    public var message: String? { value(id: CallbackClassifier.FieldID.message) }
    /// Clerk's `rotating_token_nonce`.
    public var rotatingTokenNonce: String? { value(id: CallbackClassifier.FieldID.rotatingTokenNonce) }
    /// Clerk's `created_session_id`.
    public var createdSessionID: String? { value(id: CallbackClassifier.FieldID.createdSessionID) }
    /// Ory's `flow`: the flow id a failed registration's redirect carries, or (an
    /// ``OutcomeKind/continueLoginFlow``) the login flow to continue. A lowercase UUID.
    public var flow: String? { value("flow") }
    /// Clerk's magic link `flow_id`.
    public var flowID: String? { value("flow_id") }
    /// Clerk's magic link `approval_token`: a single-use secret.
    public var approvalToken: String? { value("approval_token") }
    /// Clerk's `__clerk_status` (`failed`) on a ``OutcomeKind/clerkFailure`` or
    /// ``OutcomeKind/accountTransfer``.
    public var clerkStatus: String? { value("__clerk_status") }
    /// Clerk's `__clerk_error_code`, normalised: `oauth_access_denied`, `oauth_callback_failed`,
    /// or (an ``OutcomeKind/accountTransfer``) `external_account_not_found` / `external_account_exists`.
    public var clerkErrorCode: String? { value("__clerk_error_code") }
    /// The `error` of an ``OutcomeKind/authorizationError``.
    public var error: AuthorizationErrorCode? { value(id: CallbackClassifier.FieldID.error).map(AuthorizationErrorCode.init(rawValue:)) }
    /// `error_description`, unless withheld for breaking RFC 6749's syntax.
    public var errorDescription: String? { value(id: CallbackClassifier.FieldID.errorDescription) }
    /// `error_uri`, unless withheld.
    public var errorURI: String? { value(id: CallbackClassifier.FieldID.errorURI) }

    // MARK: Redacted printing

    /// The kind, the dialect and each field by name, every secret value replaced by
    /// `<redacted, N bytes>` (only `error` codes are shown: they are not secrets).
    public var description: String {
        var parts = [kind.rawValue, "dialect: " + dialect.rawValue]
        if isUnbound { parts.append("unbound") }
        for field in knownFields {
            let shown = CallbackOutcome.shownFields.contains(field.name) ? field.value : redacted(field.value)
            parts.append(field.name + ": " + shown)
        }
        for name in withheldFields { parts.append(name + ": <withheld>") }
        if !extraFields.isEmpty {
            parts.append(
                "extra: ["
                    + extraFields.map { ParameterName.shown($0.name, value: $0.value) + ": " + redacted($0.value) }
                    .joined(separator: ", ") + "]")
        }
        return "CallbackOutcome(" + parts.joined(separator: ", ") + ")"
    }

    /// Fields whose values are codes from a fixed set, never secrets: shown in descriptions.
    /// (Clerk's `__clerk_error_code` is normalised to one of a few codes before it is kept.)
    private static let shownFields = ["error", "__clerk_status", "__clerk_error_code"]

    /// The same redacted text as ``description``: debuggers and `print` never show a secret.
    public var debugDescription: String { description }

    /// `dump()` shows the kind, the dialect and the redacted description, never a value.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["kind": kind.rawValue, "dialect": dialect.rawValue, "outcome": description],
            displayStyle: .struct)
    }
}

/// `<redacted, 43 bytes>`.
func redacted(_ value: String) -> String { "<redacted, \(value.utf8.count) bytes>" }

extension KnownField {
    static func rank(_ name: String) -> Int { order.firstIndex(of: name) ?? order.count }
}
