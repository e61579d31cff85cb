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

/// The common callback in one pass: a response in the query, nothing in the fragment, no
/// provider profile. It reads each parameter's decoded bytes in
/// place (no intermediate arrays of strings), checks every rule the full path checks, and
/// makes strings only for the outcome it returns.
///
/// It never decides a refusal: whenever anything is off (a refusal, a withheld text, a
/// non-ASCII human text, a repeated name, tokens, a fragment), it returns nil and the full
/// path (``CallbackClassifier/classify(_:dialect:expecting:)``'s steps) runs from the start
/// and reports exactly what it always did. So an outcome from here is one the full path
/// would return too; debug builds check that on every call.
extension CallbackClassifier {
    /// What one pass over the query learned.
    struct QueryScan {
        /// Known fields present.
        var present: UInt32 = 0
        /// Known fields whose value follows their syntax.
        var wellFormed: UInt32 = 0
        /// Whether a parameter the library does not know is present (an extra).
        var hasExtras = false
        /// Whether a known name repeats.
        var repeatsKnownName = false
        /// Whether the scan stopped before the end (an escape with no scratch buffer, which the
        /// parser's longest escaped length rules out): the full path decides.
        var undecided = false
        /// Whether the state equals the expected one (compared in constant time), when one is expected.
        var stateMatches = false
        /// Whether `iss` equals the expected issuer, when one is expected.
        var issuerMatches = false
        /// The `status`, decoded: one of ``StatusValue``.
        var status = StatusValue.unknown
        /// Where each known field is in the query, by ID (valid where ``present`` says so).
        var positions = SIMD32<UInt8>()

        func has(_ id: Int) -> Bool { present & FieldID.bit(id) != 0 }

        /// ``positions``' lane `id`, read from memory (a lane chosen at run time spilled the
        /// whole vector to the stack on every read).
        @inline(__always)
        func position(_ id: Int) -> Int { withUnsafeBytes(of: positions) { Int($0[id & 31]) } }
    }

    /// The values of `status` a dialect read ``Dialect/Rules/Common/byStatus(success:partial:failure:)`` defines.
    enum StatusValue {
        static let unknown: UInt8 = 0, success: UInt8 = 1, partial: UInt8 = 2, failure: UInt8 = 3

        static func of(_ value: UnsafeBufferPointer<UInt8>) -> UInt8 {
            func equals(_ expected: StaticString) -> Bool {
                let bytes = expected.utf8Start
                for i in 0 ..< value.count where value[i] != bytes[i] { return false }
                return true
            }
            guard value.count == 7 else { return unknown }
            return equals("success") ? success : equals("partial") ? partial : equals("failure") ? failure : unknown
        }
    }

    /// What the common path decided: plain values only, so that it leaves the closures over
    /// the URL's bytes without reference counting; the outcome is made from it afterwards.
    struct CommonReading {
        /// The outcome's kind: its place in ``OutcomeKind/allCases`` plus one, 0 for none.
        var kind: UInt8 = 0
        /// The dialect that decided (``Dialect/Tag``).
        var dialect: UInt8 = 0
        /// The outcome's known fields.
        var fields: UInt32 = 0
        /// The fields a dialect of this outcome reads (the rest are extras).
        var known: UInt32 = 0
        /// Whether the outcome has extras (made as strings, outside the closures).
        var hasExtras = false
        /// Where each field's value stands, in ID order (``CallbackOutcome/Located``'s slots).
        var located = CallbackOutcome.Located.Slots()
    }

    /// Reads the common callback into `reading`; false (the reading left of kind 0) for the
    /// full path to decide. The outcome is made by the caller straight into its result
    /// (``outcome(_:_:)``): returning a `CallbackOutcome?` from here copied its ~120 bytes
    /// three times through the optional.
    static func readCommon(
        _ url: CallbackURL, _ source: String, dialect: Dialect, expectations: CallbackExpectations,
        into reading: inout CommonReading
    ) -> Bool {
        guard expectations.profiles.isEmpty, expectations.responseMode == .query else { return false }
        // Only an absent or empty fragment; Facebook's `#_=_` goes the full way.
        if let fragment = url.fragmentUTF8Count, fragment != 0 { return false }
        let count = url.queryParameterCount
        if count > Int(UInt8.max) { return false }

        withUnsafeTemporaryAllocation(of: LocatedParameter.self, capacity: Swift.max(count, 1)) { located in
            let base = located.baseAddress.unsafelyUnwrapped
            let parameters = UnsafeBufferPointer(start: base, count: url.locateQueryParameters(into: base))
            withContiguousBytes(of: source) { bytes in
                read(url, bytes, parameters, dialect: dialect.tag, expectations: expectations, into: &reading)
            }
        }
        return reading.kind != 0
    }

    /// The outcome of a common callback that ``readCommon(_:_:dialect:expectations:into:)``
    /// read; `source` is `url`'s ``CallbackURL/sourceText`` (read once: a call into the parsing
    /// module each time).
    @inline(__always)
    static func outcome(_ url: CallbackURL, _ source: String, _ reading: inout CommonReading) -> CallbackOutcome {
        if !reading.hasExtras {
            return CallbackOutcome(
                kindIndex: reading.kind &- 1, dialect: reading.dialect,
                located: CallbackOutcome.Located(source: source, mask: reading.fields, slots: reading.located))
        }
        return outcomeWithExtras(url, reading.kind, reading.dialect, reading.known)
    }

    /// Extras: strings now, known fields in ID order (the documented order, docs/dialects.md), extras in URL order.
    @inline(never)
    private static func outcomeWithExtras(_ url: CallbackURL, _ kind: UInt8, _ dialect: UInt8, _ known: UInt32) -> CallbackOutcome {
        let query = url.queryParameters
        var knownFields: [CallbackOutcome.Field] = []
        var extra: [CallbackOutcome.Field] = []
        for index in query.indices {
            let parameter = query[index]
            let id = FieldID.names.firstIndex(of: parameter.name) ?? FieldID.unknown
            if id == FieldID.unknown || FieldID.bit(id) & known == 0 {
                extra.append(.init(name: parameter.name, value: parameter.value))
            } else {
                knownFields.append(.init(name: parameter.name, value: parameter.value))
            }
        }
        return CallbackOutcome(
            kind: OutcomeKind.allCases[Int(kind &- 1)], dialect: Dialect.allCases[Int(dialect)],
            fields: knownFields, extra: extra, withheld: [])
    }

    /// The outcome of the common callback, or nil for the full path to decide.
    static func classifyCommon(_ url: CallbackURL, dialect: Dialect, expectations: CallbackExpectations) -> CallbackOutcome? {
        var reading = CommonReading()
        let source = url.sourceText
        guard readCommon(url, source, dialect: dialect, expectations: expectations, into: &reading) else { return nil }
        return outcome(url, source, &reading)
    }

    /// The markers of the dialects ``Dialect/auto`` can pick, as a mask.
    private static let autoMarkers: UInt32 = Dialect.commonTable.reduce(0) { $0 | $1.marker }

    /// The dialect (its tag) whose marker is `marker`, one bit of ``autoMarkers``.
    private static func markerDialect(_ marker: UInt32) -> UInt8 {
        UInt8(Dialect.commonTable.firstIndex { $0.marker == marker } ?? 0)
    }

    /// An error response, whatever the dialect (``errorFields``).
    private static let errorShape = Dialect.CommonRules.Shape(
        kind: UInt8(OutcomeKind.allCases.firstIndex(of: .authorizationError).unsafelyUnwrapped &+ 1),
        required: Int8(FieldID.error), known: Dialect.Rules.mask(errorFields))

    /// The decisions of ``read(_:dialect:)`` and the checks of state and issuer, over one
    /// scan of the located parameters, into `reading` (left of kind 0: the full path decides).
    private static func read(
        _ url: CallbackURL, _ bytes: UnsafeBufferPointer<UInt8>, _ parameters: UnsafeBufferPointer<LocatedParameter>,
        dialect: UInt8, expectations: CallbackExpectations, into reading: inout CommonReading
    ) {
        let scan = scanQuery(url, bytes, parameters, expectations)
        if scan.repeatsKnownName || scan.undecided { return }
        if scan.has(FieldID.accessToken) || scan.has(FieldID.idToken) { return }
        if scan.hasExtras, url.queryParameters.firstDuplicate() != nil { return }

        let hasError = scan.has(FieldID.error)
        var rules = Dialect.commonTable[Int(dialect)]
        if hasError && scan.present & rules.credentials != 0 { return }

        var decided = dialect
        if dialect == Dialect.autoTag {
            let markers = scan.present & autoMarkers
            if markers.nonzeroBitCount > 1 { return }
            if markers != 0 {
                decided = markerDialect(markers)
            } else if hasError {
                decided = Dialect.oauth2.tag
            } else {
                return
            }
            rules = Dialect.commonTable[Int(decided)]
        }

        // A dialect that reads names this path does not number (Clerk's `__clerk_status`,
        // `flow_id`, Ory's `flow`…), which it would count as extras: any unknown name there
        // goes the full way, and so does an error without a state where errors are unbound.
        if rules.unnumberedNamesGoFullWay && scan.hasExtras { return }
        if rules.errorsAreUnbound && hasError && !scan.has(FieldID.state) { return }

        // The outcome's kind, the fields it reads, and the one it requires.
        let shape = self.shape(scan, rules, hasError: hasError)
        if shape.kind == 0 { return }
        let kind = shape.kind, known = shape.known, required = Int(shape.required)
        // A compact JWS (Prelude's token) is checked as written (an escaped one goes the full way).
        if shape.requiresCompactJWS && scan.has(required) {
            let token = parameters[scan.position(required)]
            guard !token.valueNeedsDecoding,
                ParameterSyntax.isCompactJWS(UnsafeBufferPointer(rebasing: bytes[Int(token.valueStart) ..< Int(token.valueEnd)]))
            else { return }
        }

        let fields = scan.present & known
        // A field of this outcome that breaks its syntax is refused or withheld: full path.
        if fields & ~scan.wellFormed != 0 { return }
        if required >= 0 && !scan.has(required) { return }
        if expectations.state != nil && !(scan.has(FieldID.state) && scan.stateMatches) { return }
        if scan.has(FieldID.iss) {
            if expectations.issuer != nil && !scan.issuerMatches { return }
        } else if expectations.requiresIssuer {
            return
        }

        reading.kind = kind
        reading.dialect = decided
        reading.fields = fields
        reading.known = known
        // Extras: strings, made by the caller.
        if scan.present & ~known != 0 || scan.hasExtras {
            reading.hasExtras = true
            return
        }
        locate(fields, scan, parameters, into: &reading)
    }

    /// The shape of the outcome the common path reads: the error response's, the dialect's
    /// one, or the one its `status` names; a shape of kind 0 (an unknown status, or an
    /// outcome only the full path reads) for the full path to decide.
    @inline(__always)
    private static func shape(_ scan: QueryScan, _ rules: Dialect.CommonRules, hasError: Bool) -> Dialect.CommonRules.Shape {
        if hasError { return errorShape }
        if !rules.byStatus { return rules.shapes.0 }
        switch scan.status {
        case StatusValue.success: return rules.shapes.0
        case StatusValue.partial: return rules.shapes.1
        case StatusValue.failure: return rules.shapes.2
        default: return Dialect.CommonRules.Shape()
        }
    }

    /// Where the values of `fields` stand in the URL, into `reading`'s slots: the outcome
    /// makes a string only for the field that is read; more fields than it keeps in place
    /// make strings too (counted here, not with a population count beforehand).
    @inline(__always)
    private static func locate(
        _ fields: UInt32, _ scan: QueryScan, _ parameters: UnsafeBufferPointer<LocatedParameter>,
        into reading: inout CommonReading
    ) {
        var remaining = fields
        var slot = 0
        while remaining != 0 {
            guard slot < CallbackOutcome.Located.capacity else {
                reading.hasExtras = true
                return
            }
            let id = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            let parameter = parameters[scan.position(id)]
            reading.located.set(slot, parameter.valueStart, parameter.valueEnd, needsDecoding: parameter.valueNeedsDecoding)
            slot &+= 1
        }
    }

    /// One pass over the query: which known names are present, once or more, with a
    /// well-formed value, and whether state and issuer are the expected ones. Names and
    /// values are read where they stand in the URL; only those holding `%XX` or `+` are
    /// decoded (into one stack buffer) before they are judged.
    private static func scanQuery(
        _ url: CallbackURL, _ bytes: UnsafeBufferPointer<UInt8>, _ parameters: UnsafeBufferPointer<LocatedParameter>,
        _ expectations: CallbackExpectations
    ) -> QueryScan {
        var scan = QueryScan()
        guard let base = bytes.baseAddress, !parameters.isEmpty else { return scan }
        let scratchSize = url.longestEscapedParameterLength
        // No `%XX` or `+` anywhere (the usual callback): nothing to decode, no scratch buffer
        // (a run-time sized stack allocation, ~15 instructions).
        if scratchSize == 0 {
            scanParameters(base, parameters, expectations, scratch: nil, into: &scan)
        } else {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { scratch in
                scanParameters(base, parameters, expectations, scratch: scratch.baseAddress, into: &scan)
            }
        }
        return scan
    }

    /// ``scanQuery(_:_:_:_:)``'s loop; `scratch` holds the longest escaped parameter, nil when
    /// none is escaped.
    private static func scanParameters(
        _ base: UnsafePointer<UInt8>, _ parameters: UnsafeBufferPointer<LocatedParameter>,
        _ expectations: CallbackExpectations, scratch: UnsafeMutablePointer<UInt8>?, into scan: inout QueryScan
    ) {
        for position in parameters.indices {
            let parameter = parameters[position]
            guard
                let name = bytes(
                    base, parameter.nameStart, parameter.nameEnd, decoding: parameter.nameNeedsDecoding, into: scratch)
            else {
                scan.undecided = true
                return
            }
            let id = FieldID.of(name)
            guard id != FieldID.unknown else {
                scan.hasExtras = true
                continue
            }
            scan.positions[id] = UInt8(truncatingIfNeeded: position)
            let bit = FieldID.bit(id)
            if scan.present & bit != 0 { scan.repeatsKnownName = true }
            scan.present |= bit
            guard
                let value = bytes(
                    base, parameter.valueStart, parameter.valueEnd, decoding: parameter.valueNeedsDecoding, into: scratch)
            else {
                scan.undecided = true
                return
            }
            if parameter.valueNeedsDecoding {
                if FieldID.accepts(id, value) { scan.wellFormed |= bit }
            } else if id < FieldID.identifier ? !value.isEmpty : FieldID.acceptsAsWritten(id, value) {
                // Tokens, state, iss, action, status (IDs below `identifier`): only emptiness to
                // check here (Prelude's token shape is checked where Prelude is decided).
                scan.wellFormed |= bit
            }
            if id == FieldID.state, let expected = expectations.state {
                scan.stateMatches = withContiguousBytes(of: expected) { constantTimeEquals(value, $0) }
            } else if id == FieldID.iss, let expected = expectations.issuer {
                // RFC 9207 §2.4: simple string comparison.
                scan.issuerMatches = withContiguousBytes(of: expected) { value.count == $0.count && value.elementsEqual($0) }
            } else if id == FieldID.status {
                scan.status = StatusValue.of(value)
            }
        }
    }

    /// The bytes `start ..< end` of the URL at `base`: as written, or decoded into `scratch`
    /// when they hold `%XX` or `+` (nil then if there is no scratch buffer).
    @inline(__always)
    private static func bytes(
        _ base: UnsafePointer<UInt8>, _ start: UInt32, _ end: UInt32, decoding: Bool, into scratch: UnsafeMutablePointer<UInt8>?
    ) -> UnsafeBufferPointer<UInt8>? {
        let written = UnsafeBufferPointer(start: base + Int(start), count: Int(end &- start))
        guard decoding else { return written }
        guard let scratch else { return nil }
        return UnsafeBufferPointer(start: scratch, count: CallbackURL.decodeFormBytes(written, into: scratch))
    }

    /// A string's UTF-8 without copying it when it is contiguous (native or literal).
    @inline(__always)
    private static func withContiguousBytes<R>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = string
        return copy.withUTF8(body)
    }
}

extension CallbackClassifier {
    /// Every step in order, without the common path: the fuzzer checks that
    /// ``classify(_:dialect:expecting:)`` answers exactly as this does, in release builds.
    @_spi(Testing)
    public static func classifyWithoutCommonPath(
        _ url: CallbackURL, dialect: Dialect,
        expecting expectations: CallbackExpectations
    ) throws(CallbackError)
        -> CallbackOutcome
    {
        try classifyFully(url, dialect: dialect, expecting: expectations)
    }
}
