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

/// The parameters of the component the route expects the response in, after the rules
/// every dialect shares: no implicit-grant tokens anywhere, nothing in the other
/// component, no duplicates.
struct ResponseParameters {
    struct Item {
        let name: String
        let value: String
        /// Where the name starts in the URL.
        let offset: Int
        /// Where the value starts in the URL.
        let valueOffset: Int?
    }

    /// The response component's parameters, in order.
    private(set) var items: [Item] = []
    /// Parameters of the other component that are not response parameters (in fragment
    /// mode: the registered redirect URI's own query). They go to the outcome's extras.
    private(set) var passive: [Item] = []

    /// Whether the response was an error read from the fragment of a query route (only
    /// under ``ProviderProfile/Relaxations/errorsInFragment``): never tied to a login.
    private(set) var isErrorFromFragment = false

    init(_ url: CallbackURL, mode: ResponseMode, relaxations: ProviderProfile.Relaxations = []) throws(CallbackError) {
        let query = url.queryParameters
        let fragmentIsIgnorable =
            url.fragment == nil || url.fragment == "" || url.fragment == "_=_"
            || (relaxations.contains(.hashSlashFragment) && url.fragment == "/")
        let fragment = fragmentIsIgnorable ? nil : url.fragmentParameters

        for parameters in [query, fragment].compactMap({ $0 }) {
            for token in KnownField.implicitGrantTokens where parameters.contains(named: token) {
                // Apple's hybrid `code id_token`: the id_token rides next to the code.
                if token == "id_token", relaxations.contains(.idTokenWithCode), parameters.contains(named: "code") { continue }
                if let index = parameters.indices.first(where: { parameters[$0].name == token }) {
                    throw CallbackError(
                        .implicitGrantNotSupported, at: parameters.offset(at: index),
                        "the callback carries '\(token)': tokens in a URL (the implicit or hybrid grant) are refused; use the authorization code flow with PKCE"
                    )
                }
            }
        }

        switch mode {
        case .query:
            if let fragment, relaxations.contains(.errorsInFragment), fragment.contains(named: "error"),
                !query.contains(where: { KnownField.responseParameters.contains($0.name) })
            {
                // Supabase: the error of a query flow arrives in the fragment.
                passive = try ResponseParameters.read(query)
                items = try ResponseParameters.read(fragment)
                isErrorFromFragment = true
                return
            }
            if let fragment, relaxations.contains(.magicLinkInFragment),
                fragment.contains(named: "flow_id") || fragment.contains(named: "approval_token"),
                !query.contains(where: {
                    KnownField.responseParameters.contains($0.name) || $0.name == "flow_id" || $0.name == "approval_token"
                })
            {
                // Clerk's email magic link: clerk-android reads it from the query or the fragment.
                passive = try ResponseParameters.read(query)
                items = try ResponseParameters.read(fragment)
                try refuseClash()
                return
            }
            if let fragment, relaxations.contains(.magicLinkInFragment), fragment.count == 1,
                fragment[fragment.startIndex].name == "approval_token", query.contains(named: "flow_id"),
                !query.contains(named: "approval_token"),
                !query.contains(where: { KnownField.responseParameters.contains($0.name) })
            {
                // Clerk's magic link split across both: `flow_id` in the query, `approval_token`
                // alone in the fragment. Both SDKs read each from either component (clerk-ios
                // `URLComponents.queryParam(named:)`, clerk-android `queryOrFragmentParam`).
                items = try ResponseParameters.read(query) + ResponseParameters.read(fragment)
                return
            }
            if let fragment {
                throw CallbackError(
                    .parametersInFragment, at: fragment.isEmpty ? nil : fragment.offset(at: fragment.startIndex),
                    "the fragment carries data but this route expects its response in the query")
            }
            items = try ResponseParameters.read(query)
        case .fragment:
            if let index = query.firstIndex(where: { KnownField.responseParameters.contains($0.name) }) {
                throw CallbackError(
                    .parametersInQuery, at: query.offset(at: index),
                    "the query carries the response parameter '\(query[index].name)' but this route expects its response in the fragment")
            }
            passive = try ResponseParameters.read(query)
            items = try fragment.map(ResponseParameters.read) ?? []
            try refuseClash()
        }
    }

    /// A name in both the response component and the other one is a duplicate.
    private func refuseClash() throws(CallbackError) {
        let passiveNames = Set(passive.map(\.name))
        if let clash = items.first(where: { passiveNames.contains($0.name) }) {
            throw CallbackError(
                .duplicateParameter, at: clash.offset,
                "the parameter '\(ParameterName.shown(clash.name, value: clash.value))' is in both the query and the fragment")
        }
    }

    /// Reads a component's parameters, refusing a duplicated name (RFC 6749 §3.1).
    private static func read(_ parameters: Parameters) throws(CallbackError) -> [Item] {
        if let duplicate = parameters.firstDuplicate() {
            let value = parameters.indices.first { parameters.offset(at: $0) == duplicate.offset }.map { parameters[$0].value } ?? ""
            throw CallbackError(
                .duplicateParameter, at: duplicate.offset,
                "the parameter '\(ParameterName.shown(duplicate.name, value: value))' occurs more than once (RFC 6749 §3.1)")
        }
        return parameters.indices.map { index in
            let parameter = parameters[index]
            return Item(
                name: parameter.name, value: parameter.value, offset: parameters.offset(at: index),
                valueOffset: parameters.valueOffset(at: index))
        }
    }

    func item(_ name: String) -> Item? { items.first { $0.name == name } }

    func has(_ name: String) -> Bool { items.contains { $0.name == name } }
}
