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
    public let kind: OutcomeKind
    /// The dialect that decided: the one ``Dialect/auto`` picked, never `auto` itself.
    public let dialect: Dialect

    let knownFields: [Field]
    let extraFields: [Field]
    /// Names of human-text fields whose value broke its syntax and was withheld.
    public let withheldFields: [String]
    /// Whether this is an *unbound* provider error: an ``OutcomeKind/authorizationError``
    /// that carries no `state` (or arrived where only a ``ProviderProfile`` lets an error
    /// arrive), so it cannot be tied to a login. Anyone can forge one: show it, never let it
    /// end an attempt. Only a route's profiles (``ProviderProfile/supabase``,
    /// ``ProviderProfile/cognito``) produce one; without them such a callback is refused.
    public let isUnbound: Bool

    init(kind: OutcomeKind, dialect: Dialect, fields: [Field], extra: [Field], withheld: [String],
         isUnbound: Bool = false) {
        self.isUnbound = isUnbound
        self.kind = kind
        self.dialect = dialect
        self.knownFields = fields.sorted { KnownField.rank($0.name) < KnownField.rank($1.name) }
        self.extraFields = extra
        self.withheldFields = withheld.sorted { KnownField.rank($0) < KnownField.rank($1) }
    }

    /// The known wire fields present (`code`, `state`, `iss`, `session_id`…), in the order
    /// design.md lists them. Withheld fields are not here (see ``withheldFields``).
    public var fields: [(name: String, value: String)] { knownFields.map { ($0.name, $0.value) } }

    /// Every other decoded parameter, in the order of the URL (the dialect does not
    /// interpret them and does not check their syntax).
    public var extra: [(name: String, value: String)] { extraFields.map { ($0.name, $0.value) } }

    /// The same outcome, marked unbound.
    func unbound() -> CallbackOutcome {
        CallbackOutcome(kind: kind, dialect: dialect, fields: knownFields, extra: extraFields, withheld: withheldFields,
                        isUnbound: true)
    }

    /// The value of a known field by its wire name (`value("code")`), or nil. Extra
    /// parameters are in ``extra``.
    public func value(_ field: String) -> String? {
        knownFields.first { $0.name == field }?.value
    }

    /// The value of an extra parameter, or nil.
    public func extraValue(_ name: String) -> String? {
        extraFields.first { $0.name == name }?.value
    }

    // MARK: Typed accessors

    /// The callback's `state`, if any (already compared with the expected one when given).
    public var state: String? { value("state") }
    /// `iss` (RFC 9207), if any.
    public var issuer: String? { value("iss") }
    /// `code`: the OAuth authorization code, or Ory's session token exchange code half.
    public var code: String? { value("code") }
    /// Prelude's `challenge_token`.
    public var challengeToken: String? { value("challenge_token") }
    /// Zephr's `session_id`.
    public var sessionID: String? { value("session_id") }
    /// Zephr's `tracking_id`.
    public var trackingID: String? { value("tracking_id") }
    /// Zephr's `state_key` (partial registration).
    public var stateKey: String? { value("state_key") }
    /// Zephr's `identifier` (partial registration), unless withheld.
    public var identifier: String? { value("identifier") }
    /// Zephr's `message`, unless withheld.
    public var message: String? { value("message") }
    /// Clerk's `rotating_token_nonce`.
    public var rotatingTokenNonce: String? { value("rotating_token_nonce") }
    /// Clerk's `created_session_id`.
    public var createdSessionID: String? { value("created_session_id") }
    /// The `error` of an ``OutcomeKind/authorizationError``.
    public var error: AuthorizationErrorCode? { value("error").map(AuthorizationErrorCode.init(rawValue:)) }
    /// `error_description`, unless withheld for breaking RFC 6749's syntax.
    public var errorDescription: String? { value("error_description") }
    /// `error_uri`, unless withheld.
    public var errorURI: String? { value("error_uri") }

    // MARK: Redacted printing

    /// The kind, the dialect and each field by name, every secret value replaced by
    /// `<redacted, N bytes>` (only `error` codes are shown: they are not secrets).
    public var description: String {
        var parts = [kind.rawValue, "dialect: " + dialect.rawValue]
        if isUnbound { parts.append("unbound") }
        for field in knownFields {
            let shown = field.name == "error" ? field.value : redacted(field.value)
            parts.append(field.name + ": " + shown)
        }
        for name in withheldFields { parts.append(name + ": <withheld>") }
        if !extraFields.isEmpty {
            parts.append("extra: [" + extraFields.map { displayName($0.name, value: $0.value) + ": " + redacted($0.value) }
                .joined(separator: ", ") + "]")
        }
        return "CallbackOutcome(" + parts.joined(separator: ", ") + ")"
    }

    /// The same redacted text as ``description``: debuggers and `print` never show a secret.
    public var debugDescription: String { description }

    /// `dump()` shows the kind, the dialect and the redacted description, never a value.
    public var customMirror: Mirror {
        Mirror(self, children: ["kind": kind.rawValue, "dialect": dialect.rawValue, "outcome": description],
               displayStyle: .struct)
    }
}

/// `<redacted, 43 bytes>`.
func redacted(_ value: String) -> String { "<redacted, \(value.utf8.count) bytes>" }

/// A parameter name as diagnostics show it: as is when it looks like a name, else redacted
/// (a bare `?SECRET` puts the secret in the name).
func displayName(_ name: String, value: String) -> String {
    // A name without a value may itself be the secret (`?SECRET`), however name-like.
    value.isEmpty ? "<redacted name, \(name.utf8.count) bytes>" : displayName(name)
}

/// A parameter name as diagnostics show it: as is when it looks like a name, else redacted.
/// Names that come from a callback go through `displayName(_:value:)`.
func displayName(_ name: String) -> String {
    let looksLikeName = !name.isEmpty && name.utf8.count <= 32 && name.utf8.allSatisfy {
        ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
            || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
    return looksLikeName ? name : "<redacted name, \(name.utf8.count) bytes>"
}

extension KnownField {
    static func rank(_ name: String) -> Int { order.firstIndex(of: name) ?? order.count }
}
