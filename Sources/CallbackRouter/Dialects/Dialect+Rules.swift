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

extension Dialect {
    /// Everything the library knows about one dialect: one entry of ``Dialect/table``
    /// (Dialect+Table.swift). The dialect's tag, its place in ``Dialect/allCases``, the
    /// classifier's masks for its fields and the CLI's `--dialect` names are all derived from
    /// the entries; nothing about a dialect is written anywhere else.
    struct Rules: Sendable {
        /// One outcome of a success response: its kind, the fields it reads (the rest are
        /// extras), and the field it requires (nil: none).
        struct Shape: Sendable {
            let kind: OutcomeKind
            let known: [String]
            let required: String?
        }

        /// How the classifier's common path reads the dialect's success response.
        enum Common: Sendable {
            /// One outcome, whatever the callback carries.
            case one(Shape)
            /// The outcome the `status` parameter names: `success`, `partial` or `failure`
            /// (another status goes the full way, which refuses it).
            case byStatus(success: Shape, partial: Shape, failure: Shape)
        }

        /// Reads a success response (one without `error`) in the dialect: the full path.
        typealias Reader = @Sendable (ResponseParameters, Dialect, _ hosted: Bool) throws(CallbackError) -> CallbackOutcome

        /// The command-line and JSON name (`oauth2`).
        let name: String
        /// The parameter whose presence makes ``Dialect/auto`` pick this dialect, and its
        /// precedence (lower first) when a callback carries several markers: the first two
        /// present are named in the `ambiguous_response`. Nil: `auto` never picks it.
        let marker: (name: String, precedence: Int)?
        /// The parameters that carry a success credential: with `error` they make a response
        /// `ambiguous_response`.
        let credentials: [String]
        /// ``Dialect/isStateless``.
        let isStateless: Bool
        /// ``Dialect/impliedPolicy``.
        let impliedPolicy: RedirectURIPolicy?
        /// Whether an empty `error` is no error (it stays an extra), as Prelude's SDKs read it.
        let ignoresEmptyError: Bool
        /// Whether an error response without `state` is unbound on this dialect.
        let errorsAreUnbound: Bool
        /// Whether the dialect reads email magic links (`flow_id`): such a link may arrive in
        /// the fragment, on a redirect URI whose empty path it reads as `/` (and the reverse),
        /// and a login attempt may be bound to its flow.
        let readsMagicLinks: Bool
        /// The full path's reading of a success response; nil for ``Dialect/auto``, which
        /// picks another dialect first.
        let read: Reader?
        /// The common path's reading; nil when every callback of the dialect goes the full way.
        let common: Common?
        /// Whether a parameter the common path does not number sends the callback the full
        /// way (the dialect reads names the common path does not know, or refuses extras).
        let unnumberedNamesGoFullWay: Bool

        init(
            name: String, marker: (name: String, precedence: Int)? = nil, credentials: [String],
            isStateless: Bool = false, impliedPolicy: RedirectURIPolicy? = nil, ignoresEmptyError: Bool = false,
            errorsAreUnbound: Bool = false, readsMagicLinks: Bool = false, read: Reader?, common: Common?,
            unnumberedNamesGoFullWay: Bool = false
        ) {
            self.name = name
            self.marker = marker
            self.credentials = credentials
            self.isStateless = isStateless
            self.impliedPolicy = impliedPolicy
            self.ignoresEmptyError = ignoresEmptyError
            self.errorsAreUnbound = errorsAreUnbound
            self.readsMagicLinks = readsMagicLinks
            self.read = read
            self.common = common
            self.unnumberedNamesGoFullWay = unnumberedNamesGoFullWay
        }

        /// The reader of a dialect whose success response has one shape: its fields sorted
        /// into known ones (checked) and extras.
        static func reading(_ shape: Shape) -> Reader {
            { response, dialect, _ throws(CallbackError) in
                try CallbackClassifier.build(shape.kind, dialect, response, known: shape.known, required: shape.required.map { [$0] } ?? [])
            }
        }
    }

    /// What the classifier's common path needs of a dialect's ``Rules``, as plain numbers
    /// (``CallbackClassifier/FieldID`` masks, ``OutcomeKind/allCases`` places): copied
    /// without reference counting.
    struct CommonRules {
        /// One ``Rules/Shape``: `kind` is the place of its kind in ``OutcomeKind/allCases``
        /// plus one (0: the full path reads this outcome).
        struct Shape {
            var kind: UInt8 = 0
            /// The required field's ID, -1 for none.
            var required: Int8 = -1
            var known: UInt32 = 0
            /// Whether the required field must be a compact JWS (``ParameterSyntax/compactJWS``).
            var requiresCompactJWS = false
        }

        var credentials: UInt32 = 0
        /// The marker's bit (0: ``Dialect/auto`` never picks the dialect).
        var marker: UInt32 = 0
        /// The shape of the common success, or (``byStatus``) of `status=success`, `partial`,
        /// `failure`.
        var shapes: (Shape, Shape, Shape) = (Shape(), Shape(), Shape())
        var byStatus = false
        var unnumberedNamesGoFullWay = false
        var errorsAreUnbound = false
        var readsMagicLinks = false
    }
}

extension Dialect.Rules {
    /// The fields' ``CallbackClassifier/FieldID`` bits; a name the common path does not number adds none.
    static func mask(_ names: [String]) -> UInt32 {
        var mask: UInt32 = 0
        for name in names {
            let id = CallbackClassifier.FieldID.of(name)
            if id != CallbackClassifier.FieldID.unknown { mask |= CallbackClassifier.FieldID.bit(id) }
        }
        return mask
    }

    /// The entry as the common path reads it.
    var compiled: Dialect.CommonRules {
        func shape(_ shape: Shape) -> Dialect.CommonRules.Shape {
            guard let index = OutcomeKind.allCases.firstIndex(of: shape.kind) else {
                preconditionFailure("a dialect's outcome of a kind that OutcomeKind.allCases does not list")
            }
            let required = shape.required.map(CallbackClassifier.FieldID.of) ?? -1
            // A required field the common path does not number: every such callback goes the full way.
            if required == CallbackClassifier.FieldID.unknown { return .init() }
            return .init(
                kind: UInt8(index + 1), required: Int8(required), known: Self.mask(shape.known),
                requiresCompactJWS: shape.required.map { KnownField.syntax(of: $0) == .compactJWS } ?? false)
        }
        var rules = Dialect.CommonRules()
        rules.credentials = Self.mask(credentials)
        rules.marker = marker.map { Self.mask([$0.name]) } ?? 0
        rules.unnumberedNamesGoFullWay = unnumberedNamesGoFullWay
        rules.errorsAreUnbound = errorsAreUnbound
        rules.readsMagicLinks = readsMagicLinks
        switch common {
        case .one(let one)?:
            rules.shapes.0 = shape(one)
        case .byStatus(let success, let partial, let failure)?:
            rules.byStatus = true
            rules.shapes = (shape(success), shape(partial), shape(failure))
        case nil:
            break
        }
        return rules
    }
}
